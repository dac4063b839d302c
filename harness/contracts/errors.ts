// Errors of contract verification, with stable codes.
export type ContractErrorCode = 'ERR_PACT_OPTIONS' | 'ERR_PACT_STATE' | 'ERR_PACT_FILE';

export class ContractError extends Error {
  override readonly name = 'ContractError';
  constructor(
    readonly code: ContractErrorCode,
    message: string,
  ) {
    super(message);
  }
}
