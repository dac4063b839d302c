// The signer line protocol (DESIGN.md): one JSON object per line each way.
//   harness → signer  {"id": "vectors.signature.17", "body": "<raw JSON body>", "secret": "…"}
//   signer → harness  {"id": …, "message": "…", "signature": "<hex>"}  or  {"id": …, "error": "…"}
// Every answer line is checked here; anything else is a protocol error with a precise reason.

export interface SignerRequestLine {
  id: string;
  body: string;
  secret: string;
}

export type SignerAnswerLine =
  | { id: string; message: string; signature: string }
  | { id: string; error: string };

export type ParsedAnswerLine =
  | { ok: true; answer: SignerAnswerLine }
  | { ok: false; problem: string };

export function encodeRequestLine(request: SignerRequestLine): string {
  // JSON.stringify escapes every character below U+0020 (\n, \r included) but writes U+0085,
  // U+2028 and U+2029 raw, and some line readers (Python str.splitlines, Java's Scanner) split
  // there: escape them too, so one request is one line for any reader.
  return `${JSON.stringify({ id: request.id, body: request.body, secret: request.secret }).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

export function parseAnswerLine(line: string): ParsedAnswerLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, problem: `the line is not JSON: ${excerpt(line)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: `the line is not a JSON object: ${excerpt(line)}` };
  }
  const o = value as Record<string, unknown>;
  if (typeof o.id !== 'string') return { ok: false, problem: `"id" is missing or not a string in ${excerpt(line)}` };
  if ('error' in o) {
    if (typeof o.error !== 'string') return { ok: false, problem: `"error" must be a string in ${excerpt(line)}` };
    return { ok: true, answer: { id: o.id, error: o.error } };
  }
  for (const field of ['message', 'signature'] as const) {
    if (!(field in o)) return { ok: false, problem: `"${field}" is missing (an answer has "message" and "signature", or "error") in ${excerpt(line)}` };
    if (typeof o[field] !== 'string') return { ok: false, problem: `"${field}" must be a string in ${excerpt(line)}` };
  }
  return { ok: true, answer: { id: o.id, message: o.message as string, signature: o.signature as string } };
}

export function excerpt(text: string, max = 120): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
