// §4.2 as the suite takes it (harness/status, docs/status.md): POST /api/v1.0/transaction_status/
// with {transaction_id, client_id}, signed like collect, answered in the shared shape
// (statusAnswerBody) plus the outcome's message once terminal, in the configured form
// (config statusForm: lower-case values and 421 by default, harness/positions); an id this client
// does not have is 200 {"success": false, "error_code": 421} or 404 TRANSACTION_NOT_FOUND. Fault
// switches bend the answer (faults.ts, status-*).
import { statusAnswerBody, unknownIdAnswer, type LetterCase, type StatusValue } from '../status/index.ts';
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
    if (ctx.faults.has('status-unknown-success')) return answer(ctx, transactionId, 'SUCCESS', 'status SUCCESS for an unknown id (fault)');
    // The 421 form is a 200 whose body says so (the router answers it as it answers an acceptance).
    if (ctx.config.statusForm.unknownId === 421) {
      return { body: JSON.parse(unknownIdAnswer(transactionId, 421).body) as Record<string, unknown>, reason: 'unknown id: error_code 421 (statusForm)' };
    }
    throw new Rejection('TRANSACTION_NOT_FOUND', `no transaction ${JSON.stringify(transactionId.slice(0, 80))} for this client`);
  }
  const status = reported(tx, ctx.faults);
  return answer(ctx, tx.transactionId, status, `status ${status}${status !== tx.status ? ` (is ${tx.status}; fault)` : ''}`, status !== 'PENDING' ? tx.message : undefined);
}

/** The status the endpoint reports: the transaction's own, unless a fault bends it. */
function reported(tx: Transaction, faults: FaultSet): StatusValue {
  if (faults.has('status-stays-pending')) return 'PENDING';
  if (faults.has('status-pending-as-success') && tx.status === 'PENDING') return 'SUCCESS';
  if (faults.has('status-failed-as-success') && tx.status === 'FAILED') return 'SUCCESS';
  return tx.status;
}

function answer(ctx: SimulatorContext, transactionId: string, status: StatusValue, reason: string, message?: string): Accepted {
  const letterCase: LetterCase = ctx.config.statusForm.letterCase;
  const body = JSON.parse(statusAnswerBody(transactionId, status, letterCase)) as Record<string, unknown>;
  if (message !== undefined) body['message'] = message;
  return { body, reason };
}
