// §4.2 as the suite takes it (harness/status, docs/status.md): POST /api/v1.0/transaction_status/
// with {transaction_id, client_id}, signed like collect, answered in the shared shape
// (statusAnswerBody) plus the outcome's message once terminal; an id this client does not have is
// 404 TRANSACTION_NOT_FOUND. Fault switches bend the answer (faults.ts, status-*).
import { statusAnswerBody, type StatusValue } from '../status/index.ts';
import type { SimulatorContext } from './context.ts';
import type { Accepted, SignedRequest } from './collect.ts';
import type { FaultSet } from './faults.ts';
import { readStatusFields } from './fields.ts';
import { Rejection } from './rejections.ts';
import type { Transaction } from './store.ts';

export function handleTransactionStatus(ctx: SimulatorContext, request: SignedRequest): Accepted {
  const { transactionId, clientId } = readStatusFields(request.members);
  if (clientId !== request.client.clientId) {
    throw new Rejection('CLIENT_ID_MISMATCH', `client_id ${clientId} is not the client of this client_key`);
  }
  const tx = ctx.store.get(clientId, transactionId);
  if (!tx) {
    if (ctx.faults.has('status-unknown-success')) return answer(transactionId, 'SUCCESS', 'status SUCCESS for an unknown id (fault)');
    throw new Rejection('TRANSACTION_NOT_FOUND', `no transaction ${JSON.stringify(transactionId.slice(0, 80))} for this client`);
  }
  const status = reported(tx, ctx.faults);
  return answer(tx.transactionId, status, `status ${status}${status !== tx.status ? ` (is ${tx.status}; fault)` : ''}`, status !== 'PENDING' ? tx.message : undefined);
}

/** The status the endpoint reports: the transaction's own, unless a fault bends it. */
function reported(tx: Transaction, faults: FaultSet): StatusValue {
  if (faults.has('status-stays-pending')) return 'PENDING';
  if (faults.has('status-pending-as-success') && tx.status === 'PENDING') return 'SUCCESS';
  if (faults.has('status-failed-as-success') && tx.status === 'FAILED') return 'SUCCESS';
  return tx.status;
}

function answer(transactionId: string, status: StatusValue, reason: string, message?: string): Accepted {
  const body = JSON.parse(statusAnswerBody(transactionId, status)) as Record<string, unknown>;
  if (message !== undefined) body['message'] = message;
  return { body, reason };
}
