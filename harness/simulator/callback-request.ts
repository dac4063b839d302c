// One callback delivery (§4.3, §6): method, URL composed by the shared composer, token header.
// The URL-, status-, id-, token- and transport-faults bend exactly one of these.
import { createHmac } from 'node:crypto';
import { composeCallbackUrl, encodeCallbackQuery } from '../callback/index.ts';
import type { FaultSet } from './faults.ts';
import type { Transaction } from './store.ts';

export interface DeliveryRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
}

/** An alphanumeric marker that form encoding leaves alone, replaced after composition. */
const MESSAGE_MARK = 'SIMULATORMESSAGEMARK';

export function buildDelivery(
  tx: Transaction, status: 'SUCCESS' | 'FAILED', callbackToken: string, faults: FaultSet,
  mode: 'sandbox' | 'production' = 'sandbox',
): DeliveryRequest {
  const params = {
    transaction_id: faults.has('wrong-transaction-id') ? tx.internalId : tx.transactionId,
    status: faults.has('lowercase-status') ? status.toLowerCase() : status,
    message: tx.message,
  };
  let url: string;
  if (faults.has('always-question-mark')) {
    url = appendWith('?', tx.callbackUrl, encodeCallbackQuery(params));
  } else if (faults.has('always-ampersand')) {
    // Right for a URL with a query of its own, wrong without one: …/cb&transaction_id=…
    url = appendWith('&', tx.callbackUrl, encodeCallbackQuery(params));
  } else if (faults.has('drop-existing-query')) {
    url = composeCallbackUrl(withoutQuery(tx.callbackUrl), params);
  } else if (faults.has('message-percent20')) {
    url = composeCallbackUrl(tx.callbackUrl, { ...params, message: MESSAGE_MARK })
      .replace(`message=${MESSAGE_MARK}`, `message=${encodeURIComponent(tx.message)}`);
  } else {
    url = composeCallbackUrl(tx.callbackUrl, params);
  }
  if (faults.has('https-downgrade') && mode === 'production' && url.startsWith('https://')) {
    // Same host and port, plain http: the scheme was rewritten, the port was not.
    url = `http://${url.slice('https://'.length)}`;
  }
  const headers: Record<string, string> = {};
  if (!faults.has('no-token')) {
    headers['x-callback-token'] = faults.has('wrong-token') ? staleToken(callbackToken) : callbackToken;
  }
  return { method: faults.has('post-callbacks') ? 'POST' : 'GET', url, headers };
}

/** The parameters after `separator`, before any fragment: the composition bugs' shared shape. */
function appendWith(separator: '?' | '&', callbackUrl: string, query: string): string {
  const hashAt = callbackUrl.indexOf('#');
  return hashAt === -1
    ? `${callbackUrl}${separator}${query}`
    : `${callbackUrl.slice(0, hashAt)}${separator}${query}${callbackUrl.slice(hashAt)}`;
}

function withoutQuery(url: string): string {
  const hashAt = url.indexOf('#');
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const qAt = base.indexOf('?');
  return (qAt === -1 ? base : base.slice(0, qAt)) + fragment;
}

/** A token from "before the last rotation": same length and alphabet, different value. */
function staleToken(token: string): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  const digest = createHmac('sha256', 'rotated').update(token).digest();
  let out = '';
  for (let i = 0; i < Math.max(token.length, 1); i++) out += alphabet[digest[i % digest.length]! % alphabet.length];
  return out === token ? `${out}x` : out;
}
