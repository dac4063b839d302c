// One callback delivery (§4.3, §6): method, URL composed by the shared composer, token header.
// The URL-, status-, id-, token- and transport-faults bend exactly one of these.
import { createHmac } from 'node:crypto';
import { composeAlternative, composeCallbackUrl, formEncode } from '../callback/index.ts';
import type { FaultSet } from './faults.ts';
import type { Transaction } from './store.ts';

export interface DeliveryRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
}

/** The URL faults compose with the labelled wrong composers of harness/callback, nothing else. */
const URL_FAULTS = ['always-question-mark', 'always-ampersand', 'drop-existing-query', 'message-percent20'] as const;

export function buildDelivery(
  tx: Transaction, status: 'SUCCESS' | 'FAILED', callbackToken: string, faults: FaultSet,
  mode: 'sandbox' | 'production' = 'sandbox', firstAttempt = true,
): DeliveryRequest {
  const params = {
    transaction_id: faults.has('wrong-transaction-id') ? tx.internalId : tx.transactionId,
    status: faults.has('lowercase-status') ? status.toLowerCase() : status,
    message: tx.message,
  };
  const urlFault = URL_FAULTS.find((f) => faults.has(f));
  let url = urlFault ? composeAlternative(urlFault).compose(tx.callbackUrl, params) : composeCallbackUrl(tx.callbackUrl, params);
  if (faults.has('raw-transaction-id')) {
    // Written as it is: the HTTP client still escapes what a URL cannot hold (space, non-ASCII).
    url = url.replace(`transaction_id=${formEncode(params.transaction_id)}`, `transaction_id=${params.transaction_id}`);
  }
  if (faults.has('transaction-id-twice')) {
    // The reference pair added once more in front of the parameters, value for value.
    const pair = `transaction_id=${formEncode(params.transaction_id)}`;
    url = url.replace(pair, `${pair}&${pair}`);
  }
  if (faults.has('https-downgrade') && mode === 'production' && url.startsWith('https://')) {
    // Same host and port, plain http: the scheme was rewritten, the port was not.
    url = `http://${url.slice('https://'.length)}`;
  }
  const headers: Record<string, string> = {};
  if (!faults.has('no-token') && (firstAttempt || !faults.has('token-first-attempt-only'))) {
    headers['x-callback-token'] = faults.has('wrong-token') ? staleToken(callbackToken) : callbackToken;
  }
  return { method: faults.has('post-callbacks') ? 'POST' : 'GET', url, headers };
}

/** A token from "before the last rotation": same length and alphabet, different value. */
function staleToken(token: string): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  const digest = createHmac('sha256', 'rotated').update(token).digest();
  let out = '';
  for (let i = 0; i < Math.max(token.length, 1); i++) out += alphabet[digest[i % digest.length]! % alphabet.length];
  return out === token ? `${out}x` : out;
}
