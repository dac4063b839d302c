// Which receiver-side case catches which fault of the reference receiver. Plain data: the
// self-test (receiver-faults.test.ts) runs the groups of these cases against the reference
// receiver with that one fault on, and asserts that exactly the listed cases FAIL; the
// fault table of docs/faults.md is generated from it (fault-table.ts). Every fault of
// RECEIVER_FAULTS appears (the self-test checks that too).

export interface ReceiverFaultEntry {
  side: 'receiver';
  fault: string;
  /** Every case of their groups that is not listed must still PASS with the fault on. */
  caseIds: string[];
  /** Caught: FAIL for a MUST case, WARN for a SHOULD case (see caughtVerdict). */
  expect: 'FAIL';
  /**
   * Negative cases that are ERROR with the fault on: they saw a refusal, but the preflight (their
   * positive control) saw valid callbacks refused too, so the refusal proves nothing.
   */
  errors?: string[];
  /** The diagnosis (harness/diagnoses) that must name every non-PASS case: one cause explains them. */
  diagnosis?: string;
  /**
   * Receiver timing for this fault, when the default does not expose it: `slow-reply` needs
   * its scaled work (5000 ms × timeScale) to outlast the reply deadline by a wide margin.
   */
  timing?: { timeScale: number; replyDeadlineMs: number };
  /** The fault bends confirming (§6 rule 5): the receiver runs confirming its outcomes with the harness's status endpoint. */
  confirms?: true;
  /** Cases that are SKIP with the fault on: the rule they check was not exercised (their reason says why). */
  skips?: string[];
}

const TOKEN_NEAR_MISSES = [
  'receiver.token.empty', 'receiver.token.wrong', 'receiver.token.one-char-short', 'receiver.token.one-char-extra',
  'receiver.token.different-case', 'receiver.token.surrounding-whitespace', 'receiver.token.wrong-lowercase-name',
  'receiver.token.sent-twice',
];
const TOKEN_ALL_BAD = ['receiver.token.missing', ...TOKEN_NEAR_MISSES];
const DUPLICATES = [
  'receiver.idempotence.sequential-duplicate', 'receiver.idempotence.concurrent-duplicates',
  'receiver.idempotence.after-applied', 'receiver.idempotence.conflicting-after-applied', 'receiver.idempotence.success-after-failed',
];
const UNKNOWN_STATUS = ['receiver.outcome.unknown-status-pending', 'receiver.outcome.unknown-status-lowercase'];
/** The receiver cases that send a valid callback and expect it applied and answered 2xx. */
const VALID_APPLIED = [
  'receiver.token.valid', 'receiver.token.valid-lowercase-name', ...DUPLICATES,
  'receiver.outcome.success-applied', 'receiver.outcome.failed-applied', 'receiver.latency.single', 'receiver.latency.burst',
  'receiver.params.existing-query', 'receiver.params.message-plus', 'receiver.params.message-encoded-plus',
  'receiver.params.message-ampersand', 'receiver.params.message-non-ascii', 'receiver.params.reserved-transaction-id',
  'receiver.params.transaction-id-space', 'receiver.params.extra-params',
];
/** The receiver cases that pass when nothing changes (any 2xx or 4xx answer). */
const CHANGES_NOTHING = [...UNKNOWN_STATUS, 'receiver.outcome.missing-status', 'receiver.outcome.missing-transaction-id', 'receiver.outcome.unknown-id'];
/** The confirm cases that pass when nothing was fulfilled: they rest on the preflight's confirmation control. */
const CONFIRM_UNFULFILLED = [
  'receiver.confirm.contradicted-failed', 'receiver.confirm.contradicted-pending', 'receiver.confirm.contradicted-unknown',
  'receiver.confirm.endpoint-error', 'receiver.confirm.endpoint-dropped', 'receiver.confirm.endpoint-late',
];
const ENCODED_IDS = ['receiver.params.reserved-transaction-id', 'receiver.params.transaction-id-space'];
/** Messages a narrow "allowed characters" check refuses, though §6 lets message hold any text. */
const UNUSUAL_MESSAGES = [
  'receiver.params.message-plus', 'receiver.params.message-encoded-plus',
  'receiver.params.message-ampersand', 'receiver.params.message-non-ascii',
];

export const RECEIVER_FAULT_CATALOG: readonly ReceiverFaultEntry[] = [
  { side: 'receiver', fault: 'no-token-check', expect: 'FAIL', caseIds: TOKEN_ALL_BAD },
  { side: 'receiver', fault: 'presence-only-token', expect: 'FAIL', caseIds: TOKEN_NEAR_MISSES },
  { side: 'receiver', fault: 'prefix-token-match', expect: 'FAIL', caseIds: ['receiver.token.one-char-extra'] },
  { side: 'receiver', fault: 'case-insensitive-token', expect: 'FAIL', caseIds: ['receiver.token.different-case'] },
  { side: 'receiver', fault: 'trimmed-token', expect: 'FAIL', caseIds: ['receiver.token.surrounding-whitespace'] },
  { side: 'receiver', fault: 'first-token-header', expect: 'FAIL', caseIds: ['receiver.token.sent-twice'] },
  { side: 'receiver', fault: 'exact-name-value-check', expect: 'FAIL', caseIds: ['receiver.token.wrong-lowercase-name'] },
  { side: 'receiver', fault: 'case-sensitive-token-name', expect: 'FAIL', caseIds: ['receiver.token.valid-lowercase-name'] },
  { side: 'receiver', fault: 'status-401', expect: 'FAIL', caseIds: TOKEN_ALL_BAD },
  { side: 'receiver', fault: 'act-then-403', expect: 'FAIL', caseIds: TOKEN_ALL_BAD },
  { side: 'receiver', fault: 'not-idempotent', expect: 'FAIL', caseIds: DUPLICATES },
  { side: 'receiver', fault: 'racy-idempotence', expect: 'FAIL', caseIds: ['receiver.idempotence.concurrent-duplicates'] },
  {
    side: 'receiver', fault: 'slow-reply', expect: 'FAIL', caseIds: ['receiver.latency.single', 'receiver.latency.burst'],
    timing: { timeScale: 0.2, replyDeadlineMs: 500 },
  },
  { side: 'receiver', fault: '500-on-duplicate', expect: 'FAIL', caseIds: DUPLICATES },
  { side: 'receiver', fault: '409-on-conflict', expect: 'FAIL', caseIds: ['receiver.idempotence.conflicting-after-applied', 'receiver.idempotence.success-after-failed'] },
  { side: 'receiver', fault: 'status-ignored', expect: 'FAIL', caseIds: ['receiver.outcome.failed-applied', ...UNKNOWN_STATUS, 'receiver.outcome.missing-status'] },
  { side: 'receiver', fault: 'unknown-status-applied', expect: 'FAIL', caseIds: UNKNOWN_STATUS },
  { side: 'receiver', fault: 'unknown-id-created', expect: 'FAIL', caseIds: ['receiver.outcome.unknown-id'] },
  { side: 'receiver', fault: 'no-percent-decoding', expect: 'FAIL', caseIds: ENCODED_IDS },
  { side: 'receiver', fault: 'plus-not-space', expect: 'FAIL', caseIds: ENCODED_IDS },
  { side: 'receiver', fault: 'rejects-extra-params', expect: 'FAIL', caseIds: ['receiver.params.existing-query', 'receiver.params.extra-params'] },
  { side: 'receiver', fault: 'rejects-existing-query', expect: 'FAIL', caseIds: ['receiver.params.existing-query'] },
  {
    // The configured token is refused: the 403s of the bad-token cases prove nothing beside it,
    // and the lower-case name, refused under the exact name too, says nothing about the name
    // (ERROR under the shared cause, issue 22 point 4).
    side: 'receiver', fault: 'stale-token', expect: 'FAIL', caseIds: ['receiver.token.valid'], errors: [...TOKEN_ALL_BAD, 'receiver.token.valid-lowercase-name'],
    diagnosis: 'receiver.token-refused',
  },
  { side: 'receiver', fault: 'inverted-status', expect: 'FAIL', caseIds: ['receiver.outcome.success-applied', 'receiver.outcome.failed-applied'] },
  { side: 'receiver', fault: 'strict-message-charset', expect: 'FAIL', caseIds: UNUSUAL_MESSAGES },
  {
    // The decoded %26 in the reserved id splits it too, so that case fails as well (404).
    side: 'receiver', fault: 'decode-before-split', expect: 'FAIL',
    caseIds: ['receiver.params.message-ampersand', 'receiver.params.reserved-transaction-id'],
  },
  { side: 'receiver', fault: 'failed-not-final', expect: 'FAIL', caseIds: ['receiver.idempotence.success-after-failed'] },
  { side: 'receiver', fault: 'not-success-as-failed', expect: 'FAIL', caseIds: [...UNKNOWN_STATUS, 'receiver.outcome.missing-status'] },
  { side: 'receiver', fault: 'crash-on-missing-id', expect: 'FAIL', caseIds: ['receiver.outcome.missing-transaction-id'] },
  {
    // One cause, every case: the valid callbacks FAIL (405); the bad-token cases (405, not 403,
    // nothing acted on) and the "changes nothing" cases prove nothing beside the failed control
    // (ERROR), and the diagnosis names them all.
    side: 'receiver', fault: 'refuses-get', expect: 'FAIL', caseIds: VALID_APPLIED, errors: [...TOKEN_ALL_BAD, ...CHANGES_NOTHING],
    diagnosis: 'receiver.route-refuses-get',
  },
  {
    // Applied, then 500: every valid callback FAILs for the answer, the negative cases still PASS.
    side: 'receiver', fault: 'error-after-applying', expect: 'FAIL', caseIds: VALID_APPLIED,
    diagnosis: 'receiver.server-error-after-applying',
  },
  {
    side: 'receiver', fault: 'confirms-ignores-status', expect: 'FAIL', confirms: true,
    caseIds: ['receiver.confirm.contradicted-failed', 'receiver.confirm.contradicted-pending'],
  },
  {
    // One cause: every SUCCESS is applied unasked; the cases say so, and the preflight names it once.
    side: 'receiver', fault: 'never-confirms', expect: 'FAIL', confirms: true,
    caseIds: [...CONFIRM_UNFULFILLED, 'receiver.confirm.query-signed', 'receiver.confirm.query-names-transaction-id'],
    skips: ['receiver.confirm.unconfirmed-not-acknowledged'], diagnosis: 'receiver.confirm.never-queried',
  },
  {
    // Every query refused as the service refuses it: nothing can be confirmed, so the negative
    // confirm cases prove nothing; the preflight names the signature's alternative once. (Beyond
    // this group, every valid SUCCESS callback stays pending too: one cause, the same diagnosis.)
    side: 'receiver', fault: 'status-query-body-order', expect: 'FAIL', confirms: true,
    caseIds: ['receiver.confirm.query-signed'], errors: [...CONFIRM_UNFULFILLED, 'receiver.confirm.unconfirmed-not-acknowledged'],
    diagnosis: 'receiver.confirm.query-refused',
  },
  {
    // A plain id reads the same encoded: only ids with reserved characters or a space are asked wrong.
    side: 'receiver', fault: 'status-query-id-encoded', expect: 'FAIL', confirms: true,
    caseIds: ['receiver.confirm.query-names-transaction-id', ...ENCODED_IDS],
  },
  {
    side: 'receiver', fault: 'applies-when-status-unavailable', expect: 'FAIL', confirms: true,
    caseIds: ['receiver.confirm.endpoint-error', 'receiver.confirm.endpoint-dropped', 'receiver.confirm.endpoint-late'],
    skips: ['receiver.confirm.unconfirmed-not-acknowledged'],
  },
  { side: 'receiver', fault: 'no-status-time-limit', expect: 'FAIL', confirms: true, caseIds: ['receiver.confirm.endpoint-late'] },
  { side: 'receiver', fault: 'unconfirmed-acknowledged', expect: 'FAIL', confirms: true, caseIds: ['receiver.confirm.unconfirmed-not-acknowledged'] },
];

/**
 * What the reason of each case a fault makes FAIL (or WARN) says, so that the proof pins the
 * branch of the check that caught it, not only that the verdict changed: one phrase every listed
 * case's reason carries, or one phrase per listed case (every listed case named, no other).
 */
export type ReasonMentions = string | Readonly<Record<string, string>>;

/** The phrase `caseId`'s reason must carry under `entry` (undefined: not listed). */
export function mentionOf(entry: { caseIds: readonly string[]; reasonMentions: ReasonMentions }, caseId: string): string | undefined {
  if (!entry.caseIds.includes(caseId)) return undefined;
  return typeof entry.reasonMentions === 'string' ? entry.reasonMentions : entry.reasonMentions[caseId];
}

/** Problems of an entry's phrases: a per-case map that leaves out a listed case or names another. */
export function mentionProblems(entry: { fault: string; caseIds: readonly string[]; reasonMentions: ReasonMentions }): string[] {
  if (typeof entry.reasonMentions === 'string') return entry.reasonMentions === '' ? [`${entry.fault}: an empty phrase`] : [];
  const named = Object.keys(entry.reasonMentions);
  return [
    ...entry.caseIds.filter((id) => !named.includes(id)).map((id) => `${entry.fault}: no phrase for ${id}`),
    ...named.filter((id) => !entry.caseIds.includes(id)).map((id) => `${entry.fault}: a phrase for ${id}, which it does not list`),
  ];
}

/**
 * The verdict a catalog entry expects of one of its cases: a rule not met is FAIL at level MUST
 * and WARN at level SHOULD (the runner maps it, DESIGN.md); an entry expecting WARN expects it
 * whatever the level.
 */
export function caughtVerdict(expect: 'FAIL' | 'WARN', level: 'MUST' | 'SHOULD'): 'FAIL' | 'WARN' {
  return expect === 'FAIL' && level === 'SHOULD' ? 'WARN' : expect;
}

/** `receiver.token.missing` → `receiver.token` */
export function groupOf(caseId: string): string {
  return caseId.split('.').slice(0, 2).join('.');
}
