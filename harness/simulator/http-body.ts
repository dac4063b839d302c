// Reading a request body safely: bytes are collected up to maxBodyBytes, the rest is drained
// (so the client always reads our answer), and a body far beyond the limit is cut off.
import type { IncomingMessage } from 'node:http';
import { Rejection } from './rejections.ts';

export type BodyRead =
  | { kind: 'ok'; bytes: Buffer }
  | { kind: 'too-large'; received: number }
  /** So large that draining it is not worth it: answer 413 and close the connection. */
  | { kind: 'cut-off'; received: number };

export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const drainCap = Math.max(limit * 16, 1024 * 1024);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > drainCap) {
    req.pause();
    return Promise.resolve({ kind: 'cut-off', received: 0 });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) chunks.push(chunk);
      else chunks.length = 0;
      if (received > drainCap) {
        req.pause();
        settle({ kind: 'cut-off', received });
      }
    });
    req.on('end', () => settle(received > limit ? { kind: 'too-large', received } : { kind: 'ok', bytes: Buffer.concat(chunks, received) }));
    req.on('error', () => settle({ kind: 'cut-off', received }));
    req.on('close', () => settle({ kind: 'cut-off', received }));
  });
}

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
