// Which service-side cases catch which fault of the reference service, with what verdict, and
// what their reasons say. Plain data: the self-test (service-faults.test.ts) runs every service
// case against the simulator with that one fault on and asserts exactly these verdicts (the
// listed cases FAIL, or WARN at SHOULD, each reason carrying its phrase; the listed errors and
// skips; every other case PASS), and the fault table of docs/faults.md is generated from it.
// Every fault of SIMULATOR_FAULTS appears, and every service case is caught by at least one fault
// unless SERVICE_CASES_WITHOUT_FAULT exempts it (the self-test checks both).
import type { Phrase, ReasonMentions } from './fault-catalog.ts';

/** The simulator's time scale and processing time (unscaled), and the target's timing. */
export interface ServiceTiming { timeScale: number; processingDelayMs: number; callbackTimeoutMs: number; retryWindowMs: number }

/**
 * The timing of every self-test run: the embedded scale (retries after 200, 400, 800 ms), with
 * 300 ms of processing, so a status query right after the acceptance finds the transaction pending
 * on a loaded machine, and 1.2 s to wait for a callback; 1.8 s of retries show three intervals.
 */
export const SELF_TEST_TIMING: ServiceTiming = { timeScale: 0.05, processingDelayMs: 6000, callbackTimeoutMs: 1200, retryWindowMs: 1800 };

export interface ServiceFaultEntry {
  side: 'service';
  fault: string;
  /**
   * The cases that catch the fault: each gives the verdict of `expect` with it on (and PASS
   * without it); FAIL means WARN for a case of level SHOULD (caughtVerdict in fault-catalog.ts).
   */
  caseIds: string[];
  expect: 'FAIL' | 'WARN';
  /** What the reason of each listed case says: the branch of its check that caught the fault. */
  reasonMentions: ReasonMentions;
  /** Cases that are ERROR with the fault on: their control or precondition did not hold (their reasons say so). */
  errors?: string[];
  /** Cases that are SKIP with the fault on: the rule they check could not be exercised. */
  skips?: string[];
  /**
   * Cases whose verdict with the fault on depends on when their query lands: PASS (it came while
   * the transaction was pending), or this verdict (it came later, and saw the fault, or nothing).
   */
  byTiming?: Readonly<Record<string, 'FAIL' | 'SKIP'>>;
  /** The shared cause (harness/diagnoses) named with the fault on; every case it names did not pass. */
  diagnosis?: string;
  /** The simulator's mode for this fault (default sandbox). */
  mode?: 'sandbox' | 'production';
  /**
   * The simulator's time scale and the target's timing, where the self-test's (SELF_TEST_TIMING:
   * retries 200 ms apart) leave a case's tolerance to a loaded machine's timers.
   */
  timing?: ServiceTiming;
}

/** Collect requests that must be refused: each rests on the preflight's accepted collect. */
const COLLECT_REFUSALS = [
  'service.auth.missing-header', 'service.auth.wrong-client-key', 'service.auth.changed-amount', 'service.auth.changed-callback_url',
  'service.auth.changed-client_id', 'service.auth.changed-customer_number', 'service.auth.changed-network_code',
  'service.auth.changed-transaction_id', 'service.auth.dropped-field', 'service.auth.added-field', 'service.auth.unsigned-callback_url',
  'service.auth.wrong-secret', 'service.auth.uppercase-signature', 'service.auth.truncated-signature', 'service.auth.ip-not-whitelisted',
  'service.sandbox.not-whitelisted-rejected',
];
/** Signature cases whose request, refused or not, was processed: the callback came. */
const SIGNATURE_REFUSALS = [
  'service.auth.changed-amount', 'service.auth.changed-callback_url', 'service.auth.changed-customer_number', 'service.auth.changed-network_code',
  'service.auth.changed-transaction_id', 'service.auth.unsigned-callback_url', 'service.auth.added-field', 'service.auth.dropped-field',
  'service.auth.wrong-secret', 'service.auth.truncated-signature', 'service.auth.uppercase-signature',
];
/** Correctly signed collect requests that must be accepted. */
const VALID_COLLECTS = [
  'service.auth.valid-accepted', 'service.auth.unsorted-body-accepted', 'service.auth.literal-url-accepted', 'service.sandbox.whitelisted-accepted',
];
/** The sandbox mode cases (SKIP in production) and production mode cases (SKIP in sandbox) are left out: the self-test knows them by their needs. */
const WAIT_FOR_A_CALLBACK = [
  'service.callback.delivered-once-as-get', 'service.callback.transaction-id-echoed', 'service.callback.status-success',
  'service.callback.status-failed', 'service.callback.message-plus-encoding', 'service.callback.reserved-id-intact',
  'service.callback.query-appended-with-question-mark', 'service.callback.query-appended-with-ampersand', 'service.callback.url-kept-intact',
  'service.callback.token-present', 'service.callback.duplicates-consistent', 'service.callback.retry-back-off',
  'service.callback.retries-stop-after-2xx',
];
/** Status cases that compare the answer with the callback: without one they cannot judge (ERROR, precondition). */
const STATUS_AGREES = ['service.status.success-agrees', 'service.status.failed-agrees'];
/** Cases that start from an accepted collect: a valid collect refused leaves them nothing to judge (ERROR, precondition). */
const START_ACCEPTED = [
  'service.sandbox.leading-zeros-kept', ...WAIT_FOR_A_CALLBACK.filter((id) => id !== 'service.callback.reserved-id-intact'),
  ...STATUS_AGREES, 'service.status.pending-not-terminal', 'service.status.missing-header', 'service.status.wrong-signature',
  'service.status.unknown-client-key', 'service.status.ip-not-whitelisted',
];

/**
 * The pending case queries right after the acceptance: while pending it PASSes; after the
 * outcome but before a callback that says otherwise, it FAILs (the two disagree).
 */
const PENDING_QUERY_MAY_SEE_IT = { 'service.status.pending-not-terminal': 'FAIL' } as const;

/** The phrase of each case of a group (a reason each of them states in the same words). */
function each(ids: readonly string[], phrase: Phrase): Record<string, Phrase> {
  return Object.fromEntries(ids.map((id) => [id, phrase]));
}

/** A refused request whose callback came: answered as accepted (2xx), then processed. */
const ACCEPTED_AND_PROCESSED = 'and its callback arrived after';
/** A status query that should have been refused was answered with the status. */
const DISCLOSED = 'it disclosed the transaction\'s status';
const NO_CALLBACK = 'no callback arrived';
/** Each signature case whose request, signed over something other than its body, was processed says so in these words (the shared cause's). */
const NOT_MATCHING = 'a request whose signature does not match its body was processed';
/** The signature cases whose signature does not match the body sent (the upper-case one matches, but for its letter case). */
const MISMATCHED = SIGNATURE_REFUSALS.filter((id) => id !== 'service.auth.uppercase-signature');
/** Why the dropped field is a finding, and why upper-case hex is (a SHOULD: the suite's position). */
const DROPPED_WHY = '§5.1 step 1 signs every field of the body';
const UPPERCASE_WHY = 'the suite\'s position (§5.1 step 5 names no letter case)';

/** A verifier that signs another way refuses every correct request: the negative cases prove nothing beside it. */
function signsAnotherWay(fault: string): ServiceFaultEntry {
  return {
    side: 'service', fault, expect: 'FAIL', caseIds: VALID_COLLECTS, reasonMentions: 'was not accepted: HTTP 401',
    errors: [...COLLECT_REFUSALS, ...START_ACCEPTED], skips: ['service.callback.reserved-id-intact', 'service.status.unknown-id-not-success'],
    diagnosis: 'service.valid-collect-rejected',
  };
}

/** No callback reaches the harness's listener: every case that waits for one FAILs saying so. */
function noCallbackSeen(fault: string, mode: 'sandbox' | 'production', extra: Record<string, string> = {}, except: readonly string[] = []): ServiceFaultEntry {
  const waiting = WAIT_FOR_A_CALLBACK.filter((id) => !except.includes(id));
  return {
    side: 'service', fault, expect: 'FAIL', mode,
    caseIds: [...waiting, ...Object.keys(extra).filter((id) => !waiting.includes(id))],
    reasonMentions: { ...each(waiting, NO_CALLBACK), ...extra },
    errors: STATUS_AGREES, byTiming: { 'service.status.pending-not-terminal': 'SKIP' }, diagnosis: 'service.no-callback',
  };
}

export const SERVICE_FAULT_CATALOG: readonly ServiceFaultEntry[] = [
  {
    side: 'service', fault: 'no-signature-check', expect: 'FAIL',
    caseIds: [...SIGNATURE_REFUSALS, 'service.status.wrong-signature'],
    reasonMentions: {
      ...each(MISMATCHED, [ACCEPTED_AND_PROCESSED, 'it must be rejected', NOT_MATCHING]),
      'service.auth.dropped-field': [ACCEPTED_AND_PROCESSED, NOT_MATCHING, DROPPED_WHY],
      'service.auth.uppercase-signature': [ACCEPTED_AND_PROCESSED, 'it should be rejected', UPPERCASE_WHY],
      'service.status.wrong-signature': DISCLOSED,
    },
    diagnosis: 'service.signatures-not-verified',
  },
  {
    // Answered 401, processed all the same: only the watch after a refusal sees it.
    side: 'service', fault: 'enqueues-before-verifying', expect: 'FAIL',
    caseIds: [...SIGNATURE_REFUSALS, 'service.auth.missing-header', 'service.auth.wrong-client-key'],
    reasonMentions: {
      ...each(['service.auth.missing-header', 'service.auth.wrong-client-key'], 'yet a callback for it arrived'),
      ...each(MISMATCHED, ['yet a callback for it arrived', NOT_MATCHING]),
      'service.auth.dropped-field': ['yet a callback for it arrived', NOT_MATCHING, DROPPED_WHY],
      'service.auth.uppercase-signature': ['yet a callback for it arrived', UPPERCASE_WHY],
    },
    diagnosis: 'service.processed-after-refusal',
  },
  {
    side: 'service', fault: 'authorization-optional', expect: 'FAIL', caseIds: ['service.auth.missing-header', 'service.status.missing-header'],
    reasonMentions: { 'service.auth.missing-header': [ACCEPTED_AND_PROCESSED, 'it must be rejected'], 'service.status.missing-header': DISCLOSED },
  },
  { side: 'service', fault: 'client-id-unsigned', expect: 'FAIL', caseIds: ['service.auth.changed-client_id'], reasonMentions: [ACCEPTED_AND_PROCESSED, NOT_MATCHING] },
  {
    side: 'service', fault: 'client-key-ignored', expect: 'FAIL', caseIds: ['service.auth.wrong-client-key', 'service.status.unknown-client-key'],
    reasonMentions: { 'service.auth.wrong-client-key': ACCEPTED_AND_PROCESSED, 'service.status.unknown-client-key': DISCLOSED },
  },
  { side: 'service', fault: 'partial-signature', expect: 'FAIL', caseIds: ['service.auth.unsigned-callback_url'], reasonMentions: [ACCEPTED_AND_PROCESSED, NOT_MATCHING] },
  { side: 'service', fault: 'case-insensitive-signature', expect: 'FAIL', caseIds: ['service.auth.uppercase-signature'], reasonMentions: [ACCEPTED_AND_PROCESSED, 'it should be rejected', UPPERCASE_WHY] },
  { side: 'service', fault: 'prefix-signature-compare', expect: 'FAIL', caseIds: ['service.auth.truncated-signature'], reasonMentions: [ACCEPTED_AND_PROCESSED, NOT_MATCHING] },
  signsAnotherWay('unsorted-signature'),
  signsAnotherWay('encoded-signature'),
  {
    side: 'service', fault: 'ip-whitelist-off', expect: 'FAIL', caseIds: ['service.auth.ip-not-whitelisted', 'service.status.ip-not-whitelisted'],
    reasonMentions: { 'service.auth.ip-not-whitelisted': 'likely checks no source address at all', 'service.status.ip-not-whitelisted': DISCLOSED },
  },
  { side: 'service', fault: 'trusts-forwarded-for', expect: 'FAIL', caseIds: ['service.auth.ip-not-whitelisted'], reasonMentions: 'from a header the client writes' },
  {
    side: 'service', fault: 'sandbox-numbers-off', expect: 'FAIL', caseIds: ['service.sandbox.not-whitelisted-rejected', 'service.sandbox.leading-zeros-kept'],
    reasonMentions: { 'service.sandbox.not-whitelisted-rejected': ACCEPTED_AND_PROCESSED, 'service.sandbox.leading-zeros-kept': 'or it is not enforced at all' },
  },
  { side: 'service', fault: 'numbers-as-integers', expect: 'FAIL', caseIds: ['service.sandbox.leading-zeros-kept'], reasonMentions: 'without its leading zeros' },
  {
    side: 'service', fault: 'always-question-mark', expect: 'FAIL', caseIds: ['service.callback.query-appended-with-ampersand', 'service.callback.url-kept-intact'],
    reasonMentions: 'after the supplied URL comes "?", expected "&"',
  },
  // `…/cb/<tag>&transaction_id=…`: the parameters glued to the path, so no callback reaches its case's path
  // (but for the URLs that have a query, where & is right).
  noCallbackSeen('always-ampersand', 'sandbox', { 'service.callback.query-appended-with-question-mark': 'after the supplied URL comes "&", expected "?"' },
    ['service.callback.query-appended-with-ampersand', 'service.callback.url-kept-intact']),
  {
    side: 'service', fault: 'drop-existing-query', expect: 'FAIL', caseIds: ['service.callback.query-appended-with-ampersand', 'service.callback.url-kept-intact'],
    reasonMentions: 'the query string of the supplied URL was dropped',
  },
  { side: 'service', fault: 'message-percent20', expect: 'FAIL', caseIds: ['service.callback.message-plus-encoding'], reasonMentions: 'message writes spaces as %20, not +' },
  {
    side: 'service', fault: 'lowercase-status', expect: 'FAIL',
    caseIds: ['service.callback.status-success', 'service.callback.status-failed', 'service.callback.reserved-id-intact'],
    reasonMentions: { ...each(['service.callback.status-success', 'service.callback.status-failed'], '(status values are exact, upper case)'), 'service.callback.reserved-id-intact': 'status="success"' },
    skips: STATUS_AGREES, byTiming: PENDING_QUERY_MAY_SEE_IT,
  },
  {
    side: 'service', fault: 'wrong-transaction-id', expect: 'FAIL', caseIds: ['service.callback.transaction-id-echoed', 'service.callback.reserved-id-intact'],
    reasonMentions: { 'service.callback.transaction-id-echoed': 'the callback says "SIM-', 'service.callback.reserved-id-intact': 'reads transaction_id="SIM-' },
  },
  { side: 'service', fault: 'wrong-token', expect: 'FAIL', caseIds: ['service.callback.token-present'], reasonMentions: 'differs from the configured token' },
  { side: 'service', fault: 'no-token', expect: 'WARN', caseIds: ['service.callback.token-present'], reasonMentions: 'the callback carries no X-Callback-Token' },
  { side: 'service', fault: 'token-first-attempt-only', expect: 'FAIL', caseIds: ['service.callback.token-present'], reasonMentions: 'carries no X-Callback-Token; the first delivery carried it' },
  { side: 'service', fault: 'post-callbacks', expect: 'FAIL', caseIds: ['service.callback.delivered-once-as-get'], reasonMentions: 'the callback came as POST, not GET' },
  {
    side: 'service', fault: 'no-retry', expect: 'FAIL', caseIds: ['service.callback.retry-back-off'], reasonMentions: 'not retried within timing.retryWindowMs',
    skips: ['service.callback.duplicates-consistent', 'service.callback.retries-stop-after-2xx'],
  },
  {
    side: 'service', fault: 'constant-retry', expect: 'FAIL', caseIds: ['service.callback.retry-back-off'], reasonMentions: 'a fixed retry delay, not exponential back-off',
    // Retries 2 s apart: the case's tolerance (1.1 × the shortest + 10 ms) stays clear of a loaded
    // machine's timer delays (40 ms seen at 200 ms apart, 130 ms at 1 s apart).
    timing: { timeScale: 0.5, processingDelayMs: 1000, callbackTimeoutMs: 2000, retryWindowMs: 9000 },
  },
  { side: 'service', fault: 'single-retry', expect: 'WARN', caseIds: ['service.callback.retry-back-off'], reasonMentions: 'a single retry' },
  { side: 'service', fault: 'retry-after-success', expect: 'WARN', caseIds: ['service.callback.retries-stop-after-2xx'], reasonMentions: 'further delivery after the retry was answered' },
  { side: 'service', fault: 'only-200-success', expect: 'WARN', caseIds: ['service.callback.retries-stop-after-2xx'], reasonMentions: 'further delivery after the retry was answered 204' },
  {
    // The opposite status comes as one more delivery after the 2xx: a repeat the retry case sees too.
    side: 'service', fault: 'conflicting-duplicates', expect: 'FAIL', caseIds: ['service.callback.duplicates-consistent', 'service.callback.retries-stop-after-2xx'],
    reasonMentions: { 'service.callback.duplicates-consistent': 'a terminal state changed', 'service.callback.retries-stop-after-2xx': 'further delivery after the retry was answered' },
  },
  {
    side: 'service', fault: 'failed-as-success', expect: 'FAIL', caseIds: ['service.callback.status-failed', 'service.status.failed-agrees'],
    reasonMentions: { 'service.callback.status-failed': 'ends FAILED, the callback says status="SUCCESS"', 'service.status.failed-agrees': 'the callback said status=SUCCESS' },
    byTiming: PENDING_QUERY_MAY_SEE_IT,
  },
  noCallbackSeen('no-callback', 'sandbox'),
  { side: 'service', fault: 'plain-http-in-production', expect: 'FAIL', mode: 'production', caseIds: ['service.callback.https-only-in-production'], reasonMentions: 'a callback was delivered over plain http' },
  { side: 'service', fault: 'raw-transaction-id', expect: 'FAIL', caseIds: ['service.callback.reserved-id-intact'], reasonMentions: '&status=FAILED&status=SUCCESS' },
  // The same value twice: every other case reads it as one id.
  { side: 'service', fault: 'transaction-id-twice', expect: 'FAIL', caseIds: ['service.callback.transaction-id-echoed'], reasonMentions: 'transaction_id appears 2 times' },
  {
    // The listener speaks only TLS: nothing sent over plain http is seen, so every callback case says none came.
    ...noCallbackSeen('https-downgrade', 'production', { 'service.callback.delivered-over-https': 'a callback sent there over plain http would fail its handshake' }),
    errors: [...STATUS_AGREES, 'service.callback.https-only-in-production'],
  },
  // §4.2, the status endpoint (docs/status.md).
  {
    side: 'service', fault: 'status-unsigned', expect: 'FAIL',
    caseIds: ['service.status.missing-header', 'service.status.wrong-signature', 'service.status.unknown-client-key'], reasonMentions: DISCLOSED,
  },
  { side: 'service', fault: 'status-ip-unchecked', expect: 'FAIL', caseIds: ['service.status.ip-not-whitelisted'], reasonMentions: DISCLOSED },
  { side: 'service', fault: 'status-stays-pending', expect: 'FAIL', caseIds: STATUS_AGREES, reasonMentions: 'the status endpoint answers PENDING for the same transaction, also a moment later' },
  { side: 'service', fault: 'status-failed-as-success', expect: 'FAIL', caseIds: ['service.status.failed-agrees'], reasonMentions: 'the status endpoint answers SUCCESS for the same transaction' },
  { side: 'service', fault: 'status-pending-as-success', expect: 'FAIL', caseIds: ['service.status.pending-not-terminal'], reasonMentions: 'a pending transaction was answered with an outcome it did not reach' },
  { side: 'service', fault: 'status-unknown-success', expect: 'FAIL', caseIds: ['service.status.unknown-id-not-success'], reasonMentions: 'SUCCESS for a transaction that does not exist' },
];

/**
 * Service cases no simulator fault can make fail, each with why. Empty: every case is proven by
 * a faulty target. A case added here needs a comment saying why no realistic fault exists.
 */
export const SERVICE_CASES_WITHOUT_FAULT: readonly string[] = [];
