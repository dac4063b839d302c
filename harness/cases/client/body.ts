// What the body an SDK sent is, read once for every client.collect check: a JSON object (its
// members as the text stands), a form (`application/x-www-form-urlencoded`: a PHP SDK's Guzzle
// `form_params`, a browser's URLSearchParams), or neither. A rule is judged on what it needs:
// the method, the path and the headers need no body; which keys were sent and the text of their
// values a form also tells; a JSON type or the §5.1 signature over a JSON body only JSON does,
// and a form body FAILs those with the shared words BODY_NOT_JSON (harness/preflight names the
// cause once, first, with the body quoted).
import { formDecode } from '../../callback/index.ts';
import type { ReceivedRequest } from '../../sdk/index.ts';
import { readRawJsonObject, SigningError, type RawMember } from '../../signing/index.ts';

/** How every reason of a rule that needs a JSON body begins when the body is not one. */
export const BODY_NOT_JSON = 'the body sent is not JSON';

export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

export type SentBody =
  | { kind: 'json'; members: RawMember[] }
  /** Decoded pairs, in body order; `members`: the same as JSON strings, for the checks that read keys and text. */
  | { kind: 'form'; pairs: Array<[key: string, value: string]>; members: RawMember[]; contentType: string | undefined }
  | { kind: 'unreadable'; problem: string; contentType: string | undefined };

/** `key=value&…` and nothing else (no spaces, no braces): what a form encoder writes. */
const FORM_SYNTAX = /^[^=&\s{}[\]"]+=[^&\s]*(?:&[^=&\s{}[\]"]+=[^&\s]*)*$/;

function contentTypeOf(request: ReceivedRequest): string | undefined {
  return request.headers['content-type']?.[0];
}

function mediaOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase();
}

export function readSentBody(request: ReceivedRequest): SentBody {
  const text = request.body.toString('utf8');
  const contentType = contentTypeOf(request);
  try {
    return { kind: 'json', members: readRawJsonObject(text) };
  } catch (error) {
    if (!(error instanceof SigningError)) throw error;
    if (mediaOf(contentType) === FORM_MEDIA_TYPE || FORM_SYNTAX.test(text)) {
      const pairs = text === '' ? [] : text.split('&').map((part): [string, string] => {
        const at = part.indexOf('=');
        return at === -1 ? [formDecode(part), ''] : [formDecode(part.slice(0, at)), formDecode(part.slice(at + 1))];
      });
      const members = pairs.map(([key, value]): RawMember => ({ key, value: { kind: 'string', value, raw: JSON.stringify(value) } }));
      return { kind: 'form', pairs, members, contentType };
    }
    return { kind: 'unreadable', problem: error.message, contentType };
  }
}

/** What a body that is not JSON is, in words: "form-encoded (Content-Type: …)" or the parse error. */
export function notJsonBecause(body: Exclude<SentBody, { kind: 'json' }>): string {
  const type = body.contentType === undefined ? 'no Content-Type' : `Content-Type: ${body.contentType}`;
  return body.kind === 'form' ? `it is a form of key=value pairs (${type})` : `${body.problem} (${type})`;
}

/** The body as a JSON object of its pairs, all strings: the text the one signer reads (harness/signing). */
export function pairsAsJson(body: Extract<SentBody, { kind: 'form' }>): string {
  return `{${body.pairs.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;
}

/**
 * The shared cause, in words, for the preflight to name once: "the SDK sends
 * `application/x-www-form-urlencoded`, not JSON", the body quoted (`redact` applied before it is cut).
 */
export function bodyNotJsonCause(request: ReceivedRequest, body: Exclude<SentBody, { kind: 'json' }>, redact: (text: string) => string): string {
  const media = mediaOf(body.contentType);
  const sends = body.kind === 'form'
    ? media === FORM_MEDIA_TYPE ? `the SDK sends \`${FORM_MEDIA_TYPE}\`, not JSON` : `the SDK sends a form-encoded body (${body.contentType === undefined ? 'no Content-Type' : `Content-Type: ${body.contentType}`}), not JSON`
    : `the SDK sends a body that is not JSON (${notJsonBecause(body)})`;
  const text = redact(request.body.toString('utf8'));
  const quoted = text.length > 240 ? `${text.slice(0, 240)}…` : text;
  return `${sends}: the plain call's body was \`${quoted}\` (§4, §4.1: a JSON body, Content-Type: application/json); `
    + 'every rule that reads the body\'s JSON or its signature fails on it the same way, so the cases named here share this one cause';
}
