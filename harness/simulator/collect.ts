// §4.1 POST /api/v1.0/collect/, after the shared checks of router.ts (source, content type,
// body, Authorization, JSON, client, signature): fields, client_id, sandbox numbers, https in
// production, reused transaction_id; then the transaction is stored PENDING and its callback
// scheduled.
import type { RawMember } from '../signing/index.ts';
import type { SimulatorClient } from './config.ts';
import type { SimulatorContext } from './context.ts';
import { checkCustomerNumber } from './auth.ts';
import { isHttpsUrl, readCollectFields } from './fields.ts';
import { Rejection } from './rejections.ts';

export interface SignedRequest {
  members: RawMember[];
  client: SimulatorClient;
}

export interface Accepted {
  body: Record<string, unknown>;
  reason: string;
}

export function handleCollect(ctx: SimulatorContext, request: SignedRequest): Accepted {
  const fields = readCollectFields(request.members);
  if (fields.clientId !== request.client.clientId) {
    throw new Rejection('CLIENT_ID_MISMATCH', `client_id ${fields.clientId} is not the client of this client_key`);
  }
  checkCustomerNumber(ctx.config, ctx.customerNumbers, fields.customerNumber, ctx.faults);
  if (ctx.config.mode === 'production' && !isHttpsUrl(fields.callbackUrl) && !ctx.faults.has('plain-http-in-production')) {
    throw new Rejection('CALLBACK_URL_NOT_HTTPS', 'production mode: callback_url must use https://');
  }
  const tx = {
    internalId: ctx.store.nextInternalId(),
    clientId: fields.clientId,
    transactionId: fields.transactionId,
    amount: fields.amount,
    customerNumber: fields.customerNumber,
    callbackUrl: fields.callbackUrl,
    status: 'PENDING' as const,
    message: '',
    createdAt: Date.now(),
  };
  if (!ctx.store.insert(tx)) {
    throw new Rejection('DUPLICATE_TRANSACTION', `transaction_id ${JSON.stringify(fields.transactionId.slice(0, 80))} was already used by this client`);
  }
  ctx.callbacks.accepted(tx);
  return {
    body: { success: true, transaction_id: fields.transactionId, status: 'PENDING', message: 'Transaction accepted for processing' },
    reason: ctx.log.enabled ? `transaction_id=${JSON.stringify(fields.transactionId.slice(0, 80))} ${tx.internalId}` : '',
  };
}
