export type ClientErrorCode = 'ERR_CLIENT_SOURCE' | 'ERR_TAMPER_FIELD' | 'ERR_CLIENT_URL';

export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(readonly code: ClientErrorCode, message: string) {
    super(message);
  }
}
