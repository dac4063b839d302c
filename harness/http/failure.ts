// How a request of the harness failed, in words for people and as a code for the diagnoses
// (undici's errors carry a stable code; so do ours): not HTTP, reset, refused, a time-out, a
// TLS handshake that failed, or other.
import type { FailureCode } from '../results/index.ts';

/**
 * A transport failure by its kind (the diagnoses match the kind, never the words): not HTTP,
 * reset, refused, a time-out of the client itself, a TLS handshake that failed, or other.
 */
export function failureCodeOf(error: unknown): FailureCode {
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (e.name === 'HTTPParserError' || code?.startsWith('HPE_')) return 'not-http';
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return 'reset';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  // Node names a failed handshake in its code or its message (UNABLE_TO_VERIFY_LEAF_SIGNATURE, EPROTO, "self-signed certificate").
  return /certificate|CERT_|SSL|TLS|EPROTO|self.signed/i.test(describeError(error)) ? 'tls' : 'other';
}

/** A transport failure in words: reset, refused, garbage instead of HTTP. */
export function describeError(error: unknown): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (e.name === 'HTTPParserError' || code?.startsWith('HPE_')) return `the answer is not valid HTTP (${e.message ?? code ?? 'parse error'})`;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return `the connection was reset before an answer (${code})`;
  if (code === 'ECONNREFUSED') return 'the connection was refused (ECONNREFUSED)';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `no answer in time (${code})`;
  return `${code ? `${code}: ` : ''}${e.message ?? String(error)}${e.cause?.message ? ` (${e.cause.message})` : ''}`;
}
