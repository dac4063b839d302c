// Errors with stable codes (match on `code`, never on the message), in undici's style.

export type SigningErrorCode =
  | 'ERR_BODY_NOT_JSON'
  | 'ERR_BODY_NOT_OBJECT'
  | 'ERR_BODY_UNPAIRED_SURROGATE'
  | 'ERR_BODY_TOO_DEEP'
  | 'ERR_AUTHORIZATION_MALFORMED'
  /** A labelled alternative (an ASCII-only encode) refuses the body: never the suite's position. */
  | 'ERR_NON_ASCII_REFUSED';

export class SigningError extends Error {
  override readonly name = 'SigningError';
  constructor(
    readonly code: SigningErrorCode,
    message: string,
    /** Character offset in the body where the problem was found, when there is one. */
    readonly position?: number,
  ) {
    super(message);
  }
}
