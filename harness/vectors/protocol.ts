// The signer line protocol (DESIGN.md): one JSON object per line each way.
//   harness → signer  {"id": "vectors.signature.17", "body": "<raw JSON body>", "secret": "…"}
//   signer → harness  {"id": …, "message": "…", "signature": "<hex>"}  or  {"id": …, "error": "…"}
// Every answer line is checked here; anything else is a protocol error with a precise reason.
import { excerpt, parseObjectLine, toLine } from '../line-protocol/index.ts';

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
  return toLine(JSON.stringify({ id: request.id, body: request.body, secret: request.secret }));
}

export function parseAnswerLine(line: string): ParsedAnswerLine {
  const parsed = parseObjectLine(line);
  if (!parsed.ok) return parsed;
  const o = parsed.object;
  if ('error' in o) {
    if (typeof o.error !== 'string') return { ok: false, problem: `"error" must be a string in ${excerpt(line)}` };
    return { ok: true, answer: { id: parsed.id, error: o.error } };
  }
  for (const field of ['message', 'signature'] as const) {
    if (!(field in o)) return { ok: false, problem: `"${field}" is missing (an answer has "message" and "signature", or "error") in ${excerpt(line)}` };
    if (typeof o[field] !== 'string') return { ok: false, problem: `"${field}" must be a string in ${excerpt(line)}` };
  }
  return { ok: true, answer: { id: parsed.id, message: o.message as string, signature: o.signature as string } };
}

export { excerpt };
