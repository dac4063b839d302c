// Fault switches: each one is a single, realistic deviation from the spec, so that every
// conformance case can be shown to fail against a target that has exactly that bug.
// Data, not code: the switches are read where the behaviour lives (auth.ts, callback-*.ts).

import { faultGuard, faultList } from '../faults/index.ts';

export const SIMULATOR_FAULTS = faultList([
  { name: 'no-signature-check', specRef: '§5.2, §7', description: 'the Authorization header is parsed and the client found, but the signature is never compared: any signature is accepted' },
  { name: 'enqueues-before-verifying', specRef: '§5.2, §7', description: 'the collect is stored and its processing queued as soon as the body reads, for the client its client_id names; the Authorization header and the signature are checked afterwards, so a refused request is answered 401 and still processed: its callback arrives' },
  { name: 'authorization-optional', specRef: '§5.2', description: 'the "verify if present" bug: a request without an Authorization header is processed unverified, for the client named by its client_id' },
  { name: 'client-id-unsigned', specRef: '§5.1 step 1, §5.2', description: 'client_id is taken from the client_key, not the body: the body\'s client_id is overwritten with the key\'s client before the signature is computed, so a client_id changed after signing verifies and is accepted (acted on for the key\'s client)' },
  { name: 'client-key-ignored', specRef: '§5.2', description: 'the client is looked up by client_id from the body; the client_key of the Authorization header is not checked' },
  { name: 'partial-signature', specRef: '§5.1 step 1', description: 'the verifier also accepts a signature over the pairs without callback_url (a legacy field list), so callback_url is not covered: it can be changed after signing' },
  { name: 'case-insensitive-signature', specRef: '§5.1 step 5', description: 'the presented signature is lower-cased before comparing, so upper-case hex is accepted' },
  { name: 'prefix-signature-compare', specRef: '§5.2', description: 'accepts any non-empty presented signature that is a prefix of the expected one (expected.startsWith(presented))' },
  { name: 'unsorted-signature', specRef: '§5.1 step 2', description: 'verifies over the pairs in body order instead of sorted keys (alternative `body-order`)' },
  { name: 'encoded-signature', specRef: '§5.1 step 3', description: 'verifies over values percent-encoded with encodeURIComponent (alternative `url-encoded-values`)' },
  { name: 'ip-whitelist-off', specRef: '§5.4', description: 'the source-IP whitelist is not checked' },
  { name: 'trusts-forwarded-for', specRef: '§5.4', description: 'the whitelist checks the first X-Forwarded-For entry when the request has one, an address the client writes, instead of the source address' },
  { name: 'sandbox-numbers-off', specRef: '§5.3', description: 'in sandbox mode, customer numbers are not checked against the Numbers whitelist' },
  { name: 'numbers-as-integers', specRef: '§2.1, §5.3', description: 'the sandbox whitelist compares customer numbers after String(Number(x)), so leading zeros are lost (0244000001 and 244000001 match)' },
  { name: 'always-question-mark', specRef: '§6 URL composition', description: 'the callback parameters are always appended with ?, even when the callback URL already has a query string' },
  { name: 'always-ampersand', specRef: '§6 URL composition', description: 'the callback parameters are always appended with &, even when the callback URL has no query string (…/cb&transaction_id=…)' },
  { name: 'drop-existing-query', specRef: '§6 URL composition', description: 'the query string of the callback URL is dropped before the parameters are appended' },
  { name: 'message-percent20', specRef: '§6 Parameters', description: 'message spaces are sent as %20 instead of + (alternative `message-percent20`)' },
  { name: 'lowercase-status', specRef: '§4.3, §6 Parameters', description: 'status is sent in lower case (success, failed)' },
  { name: 'wrong-transaction-id', specRef: '§2.1, §6 Parameters', description: "the callback echoes the service's internal reference (SIM-…) instead of the caller's transaction_id" },
  { name: 'wrong-token', specRef: '§4.3, §6 Token header', description: 'X-Callback-Token carries a stale token (not the configured one), of the same length' },
  { name: 'no-token', specRef: '§4.3, §6 Token header', description: 'the X-Callback-Token header is absent' },
  { name: 'token-first-attempt-only', specRef: '§4.3, §6 Token header', description: 'X-Callback-Token is sent with the first delivery of a callback only: its retries and duplicates go without it (the header set once, on a request object rebuilt for each retry)' },
  { name: 'post-callbacks', specRef: '§4.3, §6 Delivery', description: 'callbacks are delivered with POST instead of GET' },
  { name: 'no-retry', specRef: '§6 Retry', description: 'a non-2xx answer or a connection failure is never retried' },
  { name: 'constant-retry', specRef: '§6 Retry', description: 'retries are made at the same interval every time (no exponential back-off)' },
  { name: 'single-retry', specRef: '§6 Retry', description: 'a failed delivery is retried once only' },
  { name: 'retry-after-success', specRef: '§4.3, §6 Retry', description: 'a 2xx answer is treated as a failure once: one more delivery follows it after the first back-off interval' },
  { name: 'only-200-success', specRef: '§4.3, §6 Retry', description: 'only 200 counts as delivered: any other 2xx (204 No Content, 202 Accepted) is treated as a failure and retried' },
  { name: 'conflicting-duplicates', specRef: '§3, §6 Guarantee', description: 'after the 2xx, a duplicate delivery carries the opposite terminal status' },
  { name: 'failed-as-success', specRef: '§3, §6 Semantics', description: 'the callback status is always SUCCESS, also for transactions that FAILED' },
  { name: 'no-callback', specRef: '§3, §6 Trigger', description: 'no callback is ever sent' },
  { name: 'plain-http-in-production', specRef: '§2.1, §6 Transport', description: 'in production mode, http:// callback URLs are accepted and called' },
  { name: 'https-downgrade', specRef: '§6 Transport', description: 'in production mode, an https:// callback URL is called over plain http on the same host and port (a TLS receiver sees a failed handshake, no callback)' },
  { name: 'raw-transaction-id', specRef: '§6 Parameters, §2.1', description: 'transaction_id is written into the callback URL as it is, not form-encoded (status and message are): an id holding &, #, + or % reaches the receiver changed' },
  { name: 'transaction-id-twice', specRef: '§6 Parameters, URL pattern', description: 'transaction_id is sent twice in the callback query, the same value both times (a helper adds it to the callback URL as a reference, then the three parameters are appended: ?transaction_id=T&transaction_id=T&status=…)' },
  // §4.2, the transaction status endpoint (its shape is the suite's position, docs/status.md).
  { name: 'status-unsigned', specRef: '§4.2, §5.2', description: 'the status endpoint "only reads", so it was left outside the authentication: a query without Authorization, with a wrong signature or an unknown client_key gets the status of the transaction its client_id names' },
  { name: 'status-ip-unchecked', specRef: '§4.2, §5.4', description: 'the source-IP whitelist is checked on collect but not on the status endpoint' },
  { name: 'status-stays-pending', specRef: '§3, §4.2', description: 'the status endpoint answers PENDING for every transaction, also after its callback said SUCCESS or FAILED (it reads a table the outcome never updates)' },
  { name: 'status-failed-as-success', specRef: '§3, §4.2', description: 'the status endpoint answers SUCCESS for a transaction that FAILED, disagreeing with its FAILED callback (the answer\'s success: true taken for the outcome)' },
  { name: 'status-pending-as-success', specRef: '§3, §4.2', description: 'the status endpoint answers SUCCESS while the transaction is still pending, before its callback (accepted taken for paid)' },
  { name: 'status-unknown-success', specRef: '§4.2', description: 'the status endpoint answers SUCCESS for a transaction_id it never saw' },
]);

export type SimulatorFault = (typeof SIMULATOR_FAULTS)[number]['name'];

export const isSimulatorFault = faultGuard(SIMULATOR_FAULTS);

/** A fast membership test for the request path. */
export class FaultSet {
  private readonly on: ReadonlySet<SimulatorFault>;
  constructor(faults: readonly SimulatorFault[]) {
    this.on = new Set(faults);
  }
  has(fault: SimulatorFault): boolean {
    return this.on.has(fault);
  }
}
