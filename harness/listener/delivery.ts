// What the listener records of one callback, and its conversion to the result model.
import type { Delivery } from '../results/index.ts';
import type { Redactor } from '../secrets/index.ts';

export interface ListenerDelivery {
  /** Order of arrival over the listener's life, from 1. */
  seq: number;
  /** performance.now() at arrival. */
  receivedAt: number;
  method: string;
  /** The request target exactly as received (`/cb/tag?transaction_id=…`). */
  rawUrl: string;
  /** The case tag of `/cb/<tag>` in the path, when there is one. */
  tag?: string;
  /** The `transaction_id` parameter (last occurrence, decoded), when there is one. */
  transactionId?: string;
  headers: Record<string, string | string[]>;
  answeredStatus: number;
  overHttps: boolean;
  /** Which server got it: the main listener or the plain-http one of production mode. */
  server: 'main' | 'plain';
}

export interface DeliveryFilter {
  tag?: string;
  transactionId?: string;
  server?: 'main' | 'plain';
}

export function matches(d: ListenerDelivery, filter: DeliveryFilter): boolean {
  return (filter.tag === undefined || d.tag === filter.tag)
    && (filter.transactionId === undefined || d.transactionId === filter.transactionId)
    && (filter.server === undefined || d.server === filter.server);
}

/** The result model's Delivery, timed from `t0` (performance.now() of the case's first request). */
export function toDelivery(d: ListenerDelivery, t0: number, redactor?: Redactor): Delivery {
  const out: Delivery = {
    atMs: Math.round(d.receivedAt - t0),
    method: d.method,
    rawUrl: d.rawUrl,
    headers: d.headers,
    answeredStatus: d.answeredStatus,
    overHttps: d.overHttps,
  };
  return redactor ? redactor.value(out) : out;
}
