// What the listener records of one callback, and its conversion to the result model.
import type { Delivery } from '../results/index.ts';
import { REDACTED, type Redactor } from '../secrets/index.ts';

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

/** Headers that carry credentials: never passed on to evidence as sent. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['x-callback-token', 'authorization', 'proxy-authorization', 'cookie']);

/**
 * A credential header as evidence may show it. The Redactor replaces only the secrets of the
 * run, but a token that differs from the configured one is typically the account's real,
 * current token (the target file holds a stale one): it is masked too, keeping its length.
 */
function maskCredential(name: string, value: string, redactor: Redactor | undefined): string {
  if (redactor && redactor.text(value) === REDACTED) return REDACTED;
  const what = name === 'x-callback-token' ? ', not the configured token' : '';
  return `${REDACTED.slice(0, -1)}: ${value.length} characters${what}]`;
}

function evidenceHeaders(headers: ListenerDelivery['headers'], redactor: Redactor | undefined): Delivery['headers'] {
  const out: Delivery['headers'] = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADERS.has(name)) out[name] = value;
    else out[name] = Array.isArray(value) ? value.map((v) => maskCredential(name, v, redactor)) : maskCredential(name, value, redactor);
  }
  return out;
}

/** The result model's Delivery, timed from `t0` (performance.now() of the case's first request). */
export function toDelivery(d: ListenerDelivery, t0: number, redactor?: Redactor): Delivery {
  const out: Delivery = {
    atMs: Math.round(d.receivedAt - t0),
    method: d.method,
    rawUrl: d.rawUrl,
    headers: evidenceHeaders(d.headers, redactor),
    answeredStatus: d.answeredStatus,
    overHttps: d.overHttps,
  };
  return redactor ? redactor.value(out) : out;
}
