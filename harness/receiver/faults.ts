// Fault switches: each one is a single, named deviation from §4.3/§6 that a real receiver is
// known to make. Switched on one at a time, they are the faulty targets that prove each
// receiver case can fail (in the spirit of Bowtie's "fauxmplementations").

import { faultGuard, faultList } from '../faults/index.ts';

/** Data, not code: what each switch does and which rule it breaks. */
export const RECEIVER_FAULTS = faultList([
  { name: 'no-token-check', specRef: '§6 rule 1', description: 'X-Callback-Token is not checked at all' },
  { name: 'presence-only-token', specRef: '§6 rule 1', description: 'any X-Callback-Token value is accepted, only its absence gets 403' },
  { name: 'prefix-token-match', specRef: '§6 rule 1', description: 'a token that starts with the configured one is accepted (extra trailing characters pass)' },
  { name: 'case-insensitive-token', specRef: '§6 rule 1', description: 'the token is compared ignoring letter case' },
  { name: 'trimmed-token', specRef: '§6 rule 1', description: 'the token is trimmed (String.prototype.trim, e.g. a trailing 0xA0 byte) before comparing' },
  { name: 'first-token-header', specRef: '§6 rule 1', description: 'of an X-Callback-Token header sent twice, the first value is used' },
  { name: 'exact-name-value-check', specRef: '§6 rule 1', description: 'the header\'s presence is checked ignoring the letter case of its name, its value only when it arrives as exactly X-Callback-Token: any token sent as x-callback-token is accepted' },
  { name: 'case-sensitive-token-name', specRef: '§6 rule 1', description: 'the header is looked up by its exact name X-Callback-Token: the configured token sent as x-callback-token (HTTP/2, many clients) gets 403' },
  { name: 'status-401', specRef: '§6 rule 1, §7', description: 'a bad or absent token gets 401 instead of 403' },
  { name: 'act-then-403', specRef: '§6 rule 1', description: 'a callback with a bad token is applied, then answered 403' },
  { name: 'not-idempotent', specRef: '§6 rule 2', description: 'every callback is applied, also when the record is no longer pending' },
  { name: 'racy-idempotence', specRef: '§6 rule 2', description: 'pending is read, a simulated database round-trip is awaited, then the state is set: concurrent duplicates apply more than once' },
  { name: 'slow-reply', specRef: '§6 rule 3, §8', description: 'the fulfilment work (workMs x timeScale) is done before answering' },
  { name: '500-on-duplicate', specRef: '§6 rule 2, §4.3', description: 'a duplicate callback gets 500 (so the service retries it)' },
  { name: '409-on-conflict', specRef: '§6 rule 3, §4.3', description: 'a callback with the other outcome after one was applied gets 409 Conflict (changing nothing, but the service retries it)' },
  { name: 'status-ignored', specRef: '§6 Semantics', description: 'every callback is applied as SUCCESS, whatever its status' },
  { name: 'unknown-status-applied', specRef: '§4.3, §6 Parameters', description: 'a status other than SUCCESS/FAILED (e.g. PENDING, success) is applied as the new state' },
  { name: 'unknown-id-created', specRef: '§6 rule 2', description: 'a callback for an unknown transaction_id creates a record and applies the outcome' },
  { name: 'no-percent-decoding', specRef: '§6 Parameters', description: 'query values are used raw: neither %XX nor + is decoded' },
  { name: 'plus-not-space', specRef: '§6 Parameters', description: '%XX is decoded but + is left as a plus (decodeURIComponent)' },
  { name: 'rejects-extra-params', specRef: '§6 URL composition', description: 'a query with parameters other than transaction_id, status, message gets 400' },
  { name: 'rejects-existing-query', specRef: '§6 URL composition', description: 'a query with parameters before transaction_id (the callback URL\'s own query) gets 400' },
  { name: 'stale-token', specRef: '§6 rule 1', description: 'the token is compared with an old value (rotated in the configuration, not in the receiver): the configured token gets 403' },
  { name: 'inverted-status', specRef: '§6 Semantics', description: 'a boolean mix-up applies SUCCESS as FAILED and FAILED as SUCCESS' },
  { name: 'strict-message-charset', specRef: '§6 Parameters, §4.3', description: 'message must match ^[A-Za-z0-9 .,:-]*$, anything else (+, &, %, non-ASCII) gets 400, so legitimate callbacks are retried and never applied' },
  { name: 'decode-before-split', specRef: '§6 Parameters', description: 'the whole query is percent-decoded before splitting on & and =, so an encoded &status=FAILED in message becomes a parameter' },
  { name: 'failed-not-final', specRef: '§3, §6 rule 2', description: 'only SUCCESS is treated as final: a callback for a FAILED record is applied again, so a SUCCESS after FAILED credits the customer' },
  { name: 'refuses-get', specRef: '§6 Delivery', description: 'the callback route accepts POST only: every GET gets 405 with Allow: POST' },
  { name: 'error-after-applying', specRef: '§4.3, §6 rule 3', description: 'the outcome is applied, then the handler fails and answers 500, so the service retries a callback that was applied' },
  { name: 'not-success-as-failed', specRef: '§4.3, §6 Parameters', description: 'any status other than SUCCESS (PENDING, success, none at all) is applied as FAILED, a boolean status === "SUCCESS"' },
  { name: 'crash-on-missing-id', specRef: '§4.3, §6 Parameters', description: 'a callback without transaction_id crashes the handler (500), so the service retries it forever' },
  { name: 'confirms-ignores-status', specRef: '§6 rule 5, §4.2', description: 'confirming: the status query is sent, but any answer that reads as a status confirms, whatever status it holds (FAILED and PENDING too)' },
  { name: 'never-confirms', specRef: '§6 rule 5', description: 'confirming by its configuration, yet every outcome is applied without a status query' },
  { name: 'status-query-body-order', specRef: '§6 rule 5, §5.1', description: 'confirming: the status query is signed over its pairs in body order (transaction_id before client_id), not sorted: the service refuses every query' },
  { name: 'status-query-id-encoded', specRef: '§6 rule 5, §4.2', description: 'confirming: the status query names the transaction_id percent-encoded (encodeURIComponent, as if for a URL): an id with reserved characters or a space is asked as another id, answered unknown, and never fulfilled' },
  { name: 'applies-when-status-unavailable', specRef: '§6 rule 5', description: 'confirming: when the status query fails (5xx, connection dropped, its time limit), the outcome is applied unconfirmed ("fail open")' },
  { name: 'no-status-time-limit', specRef: '§6 rule 3, §6 rule 5, §8', description: 'confirming: the status query has no time limit of its own, so a slow status endpoint holds the callback\'s reply past the deadline' },
  { name: 'recent-ids-dedupe', specRef: '§6 rule 2', description: 'duplicates are told apart by a bounded cache of recent ids (volume.recentIds), and the outcome is written by an unconditional update: a copy that comes back after the id left the cache is applied again' },
  { name: 'pool-held-before-reply', specRef: '§6 rule 3, §8', description: 'each callback holds one of a small pool of connections (volume.poolSize) for volume.holdMs before its reply: at a rate above poolSize / holdMs the replies queue up and come late' },
  { name: 'dropping-work-queue', specRef: '§6 rule 2, §4.3', description: 'a valid callback is answered 200 at once and its outcome put on a bounded queue (volume.queueSize, one worker, volume.itemMs each); when the queue is full the outcome is dropped: answered 200, never applied' },
  { name: 'unconfirmed-acknowledged', specRef: '§6 rule 5, §4.3', description: 'confirming: when the status query fails, the record is left pending but the callback is answered 200, so the service never retries it' },
]);

export type ReceiverFault = (typeof RECEIVER_FAULTS)[number]['name'];

/** The names alone, in the list's order. */
export const RECEIVER_FAULT_NAMES: readonly ReceiverFault[] = Object.freeze(RECEIVER_FAULTS.map((f) => f.name));

export const isReceiverFault = faultGuard(RECEIVER_FAULTS);
