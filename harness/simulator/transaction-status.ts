// §4.2: POST /api/v1.0/transaction_status/ with {transaction_id, client_id}, signed like
// collect (the path is not in the spec; it is what existing client libraries call).
import type { SimulatorContext } from './context.ts';
import type { Accepted, SignedRequest } from './collect.ts';
import { readStatusFields } from './fields.ts';
import { Rejection } from './rejections.ts';

export function handleTransactionStatus(ctx: SimulatorContext, request: SignedRequest): Accepted {
  const { transactionId, clientId } = readStatusFields(request.members);
  if (clientId !== request.client.clientId) {
    throw new Rejection('CLIENT_ID_MISMATCH', `client_id ${clientId} is not the client of this client_key`);
  }
  const tx = ctx.store.get(clientId, transactionId);
  if (!tx) throw new Rejection('TRANSACTION_NOT_FOUND', `no transaction ${JSON.stringify(transactionId.slice(0, 80))} for this client`);
  const body: Record<string, unknown> = { success: true, transaction_id: tx.transactionId, status: tx.status };
  if (tx.status !== 'PENDING') body['message'] = tx.message;
  return { body, reason: `status ${tx.status}` };
}
