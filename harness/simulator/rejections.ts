// Every answer the simulator gives to a refused request: the HTTP status and a stable
// error_code. §4.1 and §7 leave both open; this table is the simulator's documented choice
// (common vendor practice: HTTP 4xx with {"success": false, "error_code", "error_message"}).

export const REJECTIONS = Object.freeze({
  NOT_FOUND: { status: 404, meaning: 'no such path' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'the path exists, but only for POST' },
  IP_NOT_WHITELISTED: { status: 403, meaning: 'the source address is not in the whitelist (§5.4), whatever the signature' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'Content-Type is not application/json (a charset other than utf-8 included)' },
  BODY_TOO_LARGE: { status: 413, meaning: 'the body exceeds maxBodyBytes' },
  INVALID_ENCODING: { status: 400, meaning: 'the body is not valid UTF-8' },
  MISSING_AUTHORIZATION: { status: 401, meaning: 'no Authorization header (§5.2)' },
  MALFORMED_AUTHORIZATION: { status: 401, meaning: 'the Authorization header is not "HMAC {client_key}:{signature}"' },
  UNKNOWN_CLIENT_KEY: { status: 401, meaning: 'no client has this client_key' },
  INVALID_BODY: { status: 400, meaning: 'the body is not a JSON object' },
  DUPLICATE_KEY: { status: 400, meaning: 'a key stands twice in the body: parsers disagree on which value wins, so the body is refused' },
  INVALID_SIGNATURE: { status: 401, meaning: 'the signature does not match the body (§5.2, §7); the message says which canonicalisation it matches, if any' },
  MISSING_FIELD: { status: 400, meaning: 'a required field is absent' },
  INVALID_FIELD: { status: 400, meaning: 'a field has the wrong type or format' },
  CLIENT_ID_MISMATCH: { status: 403, meaning: 'client_id is not the client of the client_key' },
  NUMBER_NOT_WHITELISTED: { status: 403, meaning: 'sandbox mode and customer_number is not in the Numbers whitelist (§5.3)' },
  CALLBACK_URL_NOT_HTTPS: { status: 400, meaning: 'production mode and callback_url is not https:// (§2.1, §6 Transport)' },
  DUPLICATE_TRANSACTION: { status: 409, meaning: 'this client already used this transaction_id' },
  TRANSACTION_NOT_FOUND: { status: 404, meaning: 'transaction_status: no transaction with this id for this client' },
  INTERNAL_ERROR: { status: 500, meaning: 'a bug in the simulator (never for bad input)' },
} satisfies Record<string, { status: number; meaning: string }>);

export type ErrorCode = keyof typeof REJECTIONS;

/** A refusal on its way to the client; thrown inside handlers, answered by the router. */
export class Rejection extends Error {
  override readonly name = 'Rejection';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra detail for the log only (never sent to the client). */
    readonly logDetail?: string,
  ) {
    super(message);
    this.status = REJECTIONS[code].status;
  }
}

/** Refusals a web framework answers before the API's own code: their status stays whatever the style. */
const FRAMEWORK_CODES: ReadonlySet<ErrorCode> = new Set(['NOT_FOUND', 'METHOD_NOT_ALLOWED', 'INTERNAL_ERROR']);

/**
 * The status and body of a refusal in the configured style (config `rejectionStyle`):
 * `http-status` → its 4xx and `{"success": false, "error_code": "<CODE>", …}`;
 * `ok-with-error-code` → 200 and `{"error_code": <the 4xx as a number>, "error_message"}`.
 */
export function rejectionAnswer(rejection: Rejection, style: 'http-status' | 'ok-with-error-code' = 'http-status'): { status: number; body: string } {
  if (style === 'ok-with-error-code' && !FRAMEWORK_CODES.has(rejection.code)) {
    return { status: 200, body: JSON.stringify({ error_code: rejection.status, error_message: `${rejection.code}: ${rejection.message}` }) };
  }
  return { status: rejection.status, body: JSON.stringify({ success: false, error_code: rejection.code, error_message: rejection.message }) };
}
