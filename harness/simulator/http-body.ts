// A request body's Content-Type and encoding, as §4 asks (the body itself is read by harness/http's readBody).
import { Rejection } from './rejections.ts';

/** §4: Content-Type: application/json; a charset parameter, if any, must be UTF-8. */
export function checkContentType(header: string | undefined): void {
  if (header === 'application/json' || header === 'application/json; charset=utf-8') return; // the usual two, fast
  const [type = '', ...params] = (header ?? '').split(';').map((p) => p.trim());
  if (type.toLowerCase() !== 'application/json') {
    throw new Rejection('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json, not ${header === undefined ? 'absent' : JSON.stringify(header.slice(0, 80))}`);
  }
  for (const param of params) {
    const [name = '', value = ''] = param.split('=').map((p) => p.trim().toLowerCase());
    if (name === 'charset' && value.replace(/"/g, '') !== 'utf-8' && value.replace(/"/g, '') !== 'utf8') {
      throw new Rejection('UNSUPPORTED_MEDIA_TYPE', `Content-Type charset must be utf-8, not ${value.slice(0, 40)}`);
    }
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text; bytes that are not UTF-8 are refused rather than replaced (U+FFFD would change what was signed). */
export function decodeUtf8(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new Rejection('INVALID_ENCODING', 'the body is not valid UTF-8');
  }
}
