// Which receiver-side case catches which fault of the reference receiver, and what its reason
// says. Plain data: the self-test (receiver-faults.test.ts) runs every receiver case against the
// reference receiver with that one fault on, and asserts that exactly the listed cases FAIL (WARN
// at SHOULD), each for the reason the entry pins (its phrase, or the shared cause that names it),
// the listed errors and skips, and every other case PASS; the fault table of docs/faults.md is
// generated from it (fault-table.ts). Every fault of RECEIVER_FAULTS appears (the self-test checks
// that too).

/**
 * How an entry pins why its cases FAIL: what each reason says (`reasonMentions`), or the shared
 * cause (`diagnosis`, harness/diagnoses) that names every one of them; or both.
 */
export type Pinned =
  | { reasonMentions: ReasonMentions; diagnosis?: string }
  | { reasonMentions?: undefined; diagnosis: string };

export type ReceiverFaultEntry = Pinned & {
  side: 'receiver';
  fault: string;
  /** The cases that catch the fault; every case not listed here, in errors or in skips, PASSes with it on. */
  caseIds: string[];
  /** Caught: FAIL for a MUST case, WARN for a SHOULD case (see caughtVerdict). */
  expect: 'FAIL';
  /**
   * Negative cases that are ERROR with the fault on: they saw a refusal, but the preflight (their
   * positive control) saw valid callbacks refused too, so the refusal proves nothing.
   */
  errors?: string[];
  /**
   * Receiver timing for this fault, when the default does not expose it: `slow-reply` needs
   * its scaled work (5000 ms × timeScale) to outlast the reply deadline by a wide margin.
   */
  timing?: { timeScale: number; replyDeadlineMs: number };
  /** The fault bends confirming (§6 rule 5): the receiver runs confirming its outcomes with the harness's status endpoint. */
  confirms?: true;
  /** Cases that are SKIP with the fault on: the rule they check was not exercised (their reason says why). */
  skips?: string[];
};

const TOKEN_NEAR_MISSES = [
  'receiver.token.empty', 'receiver.token.wrong', 'receiver.token.one-char-short', 'receiver.token.one-char-extra',
  'receiver.token.different-case', 'receiver.token.surrounding-whitespace', 'receiver.token.wrong-lowercase-name',
  'receiver.token.sent-twice',
];
const TOKEN_ALL_BAD = ['receiver.token.missing', ...TOKEN_NEAR_MISSES];
/** Duplicates of one outcome, and of one outcome after the other. */
const SAME_OUTCOME_AGAIN = ['receiver.idempotence.sequential-duplicate', 'receiver.idempotence.concurrent-duplicates', 'receiver.idempotence.after-applied'];
const OTHER_OUTCOME_LATE = ['receiver.idempotence.conflicting-after-applied', 'receiver.idempotence.success-after-failed'];
const DUPLICATES = [...SAME_OUTCOME_AGAIN, ...OTHER_OUTCOME_LATE];
const UNKNOWN_STATUS = ['receiver.outcome.unknown-status-pending', 'receiver.outcome.unknown-status-lowercase'];
const LATENCY = ['receiver.latency.single', 'receiver.latency.burst'];
const PARAMS = [
  'receiver.params.existing-query', 'receiver.params.message-plus', 'receiver.params.message-encoded-plus',
  'receiver.params.message-ampersand', 'receiver.params.message-non-ascii', 'receiver.params.reserved-transaction-id',
  'receiver.params.transaction-id-space', 'receiver.params.extra-params',
];
/** The receiver cases that send a valid callback and expect it applied and answered 2xx. */
const VALID_APPLIED = [
  'receiver.token.valid', 'receiver.token.valid-lowercase-name', ...DUPLICATES,
  'receiver.outcome.success-applied', 'receiver.outcome.failed-applied', ...LATENCY, ...PARAMS,
];
/** Of those, the ones that start with a FAILED callback (a confirming receiver applies it unasked). */
const FIRST_FAILED = ['receiver.outcome.failed-applied', 'receiver.idempotence.success-after-failed'];
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
const without = (ids: readonly string[], out: readonly string[]) => ids.filter((id) => !out.includes(id));
/** The phrase of each case of a group (a reason each of them states in the same words). */
export function each(ids: readonly string[], phrase: Phrase): Record<string, Phrase> {
  return Object.fromEntries(ids.map((id) => [id, phrase]));
}

/** A bad token answered 2xx and acted on: both halves of §6 rule 1 broken. */
const ANSWERED_AND_ACTED = '§6 rule 1 says 403; the record changed';
/** A valid callback answered with `status`: the answer check, not the record's. */
const validAnswered = (status: number): Phrase => [`answered ${status}`, 'a valid callback must get 2xx'];

export const RECEIVER_FAULT_CATALOG: readonly ReceiverFaultEntry[] = [
  { side: 'receiver', fault: 'no-token-check', expect: 'FAIL', caseIds: TOKEN_ALL_BAD, reasonMentions: ANSWERED_AND_ACTED, diagnosis: 'receiver.token-not-checked' },
  { side: 'receiver', fault: 'presence-only-token', expect: 'FAIL', caseIds: TOKEN_NEAR_MISSES, reasonMentions: ANSWERED_AND_ACTED, diagnosis: 'receiver.token-not-checked' },
  { side: 'receiver', fault: 'prefix-token-match', expect: 'FAIL', caseIds: ['receiver.token.one-char-extra'], reasonMentions: ANSWERED_AND_ACTED },
  { side: 'receiver', fault: 'case-insensitive-token', expect: 'FAIL', caseIds: ['receiver.token.different-case'], reasonMentions: ANSWERED_AND_ACTED },
  { side: 'receiver', fault: 'trimmed-token', expect: 'FAIL', caseIds: ['receiver.token.surrounding-whitespace'], reasonMentions: ANSWERED_AND_ACTED },
  { side: 'receiver', fault: 'first-token-header', expect: 'FAIL', caseIds: ['receiver.token.sent-twice'], reasonMentions: ANSWERED_AND_ACTED },
  { side: 'receiver', fault: 'exact-name-value-check', expect: 'FAIL', caseIds: ['receiver.token.wrong-lowercase-name'], reasonMentions: ANSWERED_AND_ACTED },
  { side: 'receiver', fault: 'case-sensitive-token-name', expect: 'FAIL', caseIds: ['receiver.token.valid-lowercase-name'], reasonMentions: validAnswered(403) },
  // The answer half only: refused, with the wrong status, and nothing acted on.
  { side: 'receiver', fault: 'status-401', expect: 'FAIL', caseIds: TOKEN_ALL_BAD, reasonMentions: ['answered 401', '§6 rule 1 says 403'], diagnosis: 'receiver.same-answer-401' },
  // The effect half only: 403, after acting.
  { side: 'receiver', fault: 'act-then-403', expect: 'FAIL', caseIds: TOKEN_ALL_BAD, reasonMentions: 'the record changed to state SUCCESS, actions 1: §6 rule 1 says the receiver takes no action' },
  {
    side: 'receiver', fault: 'not-idempotent', expect: 'FAIL', caseIds: DUPLICATES,
    reasonMentions: { ...each(SAME_OUTCOME_AGAIN, '(§6 rule 2: applied exactly once)'), ...each(OTHER_OUTCOME_LATE, ', actions 2, expected') },
  },
  { side: 'receiver', fault: 'racy-idempotence', expect: 'FAIL', caseIds: ['receiver.idempotence.concurrent-duplicates'], reasonMentions: '(§6 rule 2: applied exactly once)' },
  {
    side: 'receiver', fault: 'slow-reply', expect: 'FAIL', caseIds: LATENCY, reasonMentions: 'replies took longer than 400 ms',
    // 600 ms of work before each reply: late against the 400 ms deadline, well within the 1 s a request may take.
    timing: { timeScale: 0.12, replyDeadlineMs: 400 },
  },
  {
    side: 'receiver', fault: '500-on-duplicate', expect: 'FAIL', caseIds: DUPLICATES, diagnosis: 'receiver.same-answer-500',
    reasonMentions: { ...each(SAME_OUTCOME_AGAIN, 'replies were not 2xx'), ...each(OTHER_OUTCOME_LATE, 'callback was answered 500') },
  },
  { side: 'receiver', fault: '409-on-conflict', expect: 'FAIL', caseIds: OTHER_OUTCOME_LATE, reasonMentions: 'callback was answered 409' },
  {
    // Every callback applied as SUCCESS: a FAILED one, an unknown status, none at all, a late SUCCESS after FAILED.
    side: 'receiver', fault: 'status-ignored', expect: 'FAIL',
    caseIds: ['receiver.outcome.failed-applied', ...UNKNOWN_STATUS, 'receiver.outcome.missing-status', 'receiver.idempotence.success-after-failed'],
    reasonMentions: {
      'receiver.outcome.failed-applied': 'reads state SUCCESS, actions 1, expected state FAILED', ...each(UNKNOWN_STATUS, 'the record changed to state SUCCESS, actions 1 on a callback with status='),
      'receiver.outcome.missing-status': 'the record changed to state SUCCESS, actions 1 on a callback without status',
      'receiver.idempotence.success-after-failed': 'reads state SUCCESS, actions 1, expected state FAILED',
    },
  },
  { side: 'receiver', fault: 'unknown-status-applied', expect: 'FAIL', caseIds: UNKNOWN_STATUS, reasonMentions: ['the record changed to', 'so nothing is to change'] },
  { side: 'receiver', fault: 'unknown-id-created', expect: 'FAIL', caseIds: ['receiver.outcome.unknown-id'], reasonMentions: 'the receiver now holds a record for the unknown id' },
  { side: 'receiver', fault: 'no-percent-decoding', expect: 'FAIL', caseIds: ENCODED_IDS, reasonMentions: validAnswered(404) },
  { side: 'receiver', fault: 'plus-not-space', expect: 'FAIL', caseIds: ENCODED_IDS, reasonMentions: validAnswered(404) },
  { side: 'receiver', fault: 'rejects-extra-params', expect: 'FAIL', caseIds: ['receiver.params.existing-query', 'receiver.params.extra-params'], reasonMentions: validAnswered(400) },
  { side: 'receiver', fault: 'rejects-existing-query', expect: 'FAIL', caseIds: ['receiver.params.existing-query'], reasonMentions: validAnswered(400) },
  {
    // The configured token is refused: receiver.token.valid FAILs on its own evidence; every other
    // valid callback was not exercised (ERROR naming the finding, issue 41), the 403s of the
    // bad-token cases prove nothing beside it, and the lower-case name, refused under the exact
    // name too, says nothing about the name (ERROR under the shared cause, issue 22 point 4).
    side: 'receiver', fault: 'stale-token', expect: 'FAIL', caseIds: ['receiver.token.valid'],
    errors: [...TOKEN_ALL_BAD, ...without(VALID_APPLIED, ['receiver.token.valid']), ...CHANGES_NOTHING], diagnosis: 'receiver.token-refused',
  },
  {
    // SUCCESS applied as FAILED and FAILED as SUCCESS: every valid callback's record reads the other outcome.
    side: 'receiver', fault: 'inverted-status', expect: 'FAIL', caseIds: without(VALID_APPLIED, LATENCY),
    reasonMentions: { ...each(without(VALID_APPLIED, [...LATENCY, ...FIRST_FAILED]), 'reads state FAILED, actions 1'), ...each(FIRST_FAILED, 'reads state SUCCESS, actions 1') },
  },
  { side: 'receiver', fault: 'strict-message-charset', expect: 'FAIL', caseIds: UNUSUAL_MESSAGES, reasonMentions: validAnswered(400), diagnosis: 'receiver.same-answer-400' },
  {
    // The decoded %26 in the reserved id splits it too, so that case fails as well (404).
    side: 'receiver', fault: 'decode-before-split', expect: 'FAIL',
    caseIds: ['receiver.params.message-ampersand', 'receiver.params.reserved-transaction-id'],
    reasonMentions: { 'receiver.params.message-ampersand': 'reads state FAILED, actions 1, expected state SUCCESS', 'receiver.params.reserved-transaction-id': validAnswered(404) },
  },
  { side: 'receiver', fault: 'failed-not-final', expect: 'FAIL', caseIds: ['receiver.idempotence.success-after-failed'], reasonMentions: 'reads state SUCCESS, actions 2, expected state FAILED' },
  { side: 'receiver', fault: 'not-success-as-failed', expect: 'FAIL', caseIds: [...UNKNOWN_STATUS, 'receiver.outcome.missing-status'], reasonMentions: 'the record changed to state FAILED, actions 1 on a callback with' },
  { side: 'receiver', fault: 'crash-on-missing-id', expect: 'FAIL', caseIds: ['receiver.outcome.missing-transaction-id'], reasonMentions: ['answered 500', 'to a callback without transaction_id'] },
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
    reasonMentions: 'after a SUCCESS callback the status endpoint contradicted; it asked the status endpoint',
  },
  {
    // One cause: every SUCCESS is applied unasked; the cases say so, and the preflight names it once.
    side: 'receiver', fault: 'never-confirms', expect: 'FAIL', confirms: true,
    caseIds: [...CONFIRM_UNFULFILLED, 'receiver.confirm.query-signed', 'receiver.confirm.query-names-transaction-id'],
    reasonMentions: 'no status query reached the harness\'s status endpoint',
    skips: ['receiver.confirm.unconfirmed-not-acknowledged'], diagnosis: 'receiver.confirm.never-queried',
  },
  {
    // Every query refused as the service refuses it: nothing can be confirmed, so every valid
    // SUCCESS callback stays pending (answered 503) and the negative cases prove nothing; the
    // preflight names the signature's alternative once.
    side: 'receiver', fault: 'status-query-body-order', expect: 'FAIL', confirms: true,
    caseIds: [...without(VALID_APPLIED, FIRST_FAILED), 'receiver.confirm.query-signed'],
    errors: [...TOKEN_ALL_BAD, ...CHANGES_NOTHING, ...CONFIRM_UNFULFILLED, 'receiver.confirm.unconfirmed-not-acknowledged'],
    diagnosis: 'receiver.confirm.query-refused',
  },
  {
    // A plain id reads the same encoded: only ids with reserved characters or a space are asked wrong.
    side: 'receiver', fault: 'status-query-id-encoded', expect: 'FAIL', confirms: true,
    caseIds: ['receiver.confirm.query-names-transaction-id', ...ENCODED_IDS],
    reasonMentions: { 'receiver.confirm.query-names-transaction-id': 'the id percent-encoded', ...each(ENCODED_IDS, validAnswered(409)) },
  },
  {
    side: 'receiver', fault: 'applies-when-status-unavailable', expect: 'FAIL', confirms: true,
    caseIds: ['receiver.confirm.endpoint-error', 'receiver.confirm.endpoint-dropped', 'receiver.confirm.endpoint-late'],
    reasonMentions: 'reads state SUCCESS, actions 1 though the status endpoint',
    skips: ['receiver.confirm.unconfirmed-not-acknowledged'],
  },
  { side: 'receiver', fault: 'no-status-time-limit', expect: 'FAIL', confirms: true, caseIds: ['receiver.confirm.endpoint-late'], reasonMentions: 'waits on the status endpoint without a time limit of its own' },
  { side: 'receiver', fault: 'unconfirmed-acknowledged', expect: 'FAIL', confirms: true, caseIds: ['receiver.confirm.unconfirmed-not-acknowledged'], reasonMentions: 'to a SUCCESS callback it could not confirm' },
];

/** Words a reason carries: one phrase, or several that must all appear (a status and the rule it breaks). */
export type Phrase = string | readonly string[];

/**
 * What the reason of each case a fault makes FAIL (or WARN) says, so that the proof pins the
 * branch of the check that caught it, not only that the verdict changed: one phrase every listed
 * case's reason carries, or one phrase per listed case (every listed case named, no other).
 */
export type ReasonMentions = Phrase | Readonly<Record<string, Phrase>>;

function isPhrase(mentions: ReasonMentions): mentions is Phrase {
  return typeof mentions === 'string' || Array.isArray(mentions);
}

/** The words `caseId`'s reason must carry under `entry` ([] when the entry pins it by its diagnosis only, or does not list it). */
export function mentionOf(entry: { caseIds: readonly string[]; reasonMentions?: ReasonMentions | undefined }, caseId: string): readonly string[] {
  const mentions = entry.reasonMentions;
  if (mentions === undefined || !entry.caseIds.includes(caseId)) return [];
  const phrase = isPhrase(mentions) ? mentions : mentions[caseId];
  return phrase === undefined ? [] : typeof phrase === 'string' ? [phrase] : phrase;
}

/**
 * The words of `mentionOf` that `reason` lacks. A receiver observed through its database shows the
 * value stored beside the state it maps to (`state SUCCESS ("COMPLETED")`); the words are matched
 * without it, so one catalog pins the hooks and every database.
 */
export function missingMentions(entry: { caseIds: readonly string[]; reasonMentions?: ReasonMentions | undefined }, caseId: string, reason: string | undefined): string[] {
  const plain = (reason ?? '').replace(/ \("[^"]*"\)/g, '');
  return mentionOf(entry, caseId).filter((words) => !plain.includes(words));
}

/**
 * Problems of an entry's pin: neither phrases nor a diagnosis, an empty phrase, a per-case map
 * that leaves out a listed case or names another.
 */
export function mentionProblems(entry: { fault: string; caseIds: readonly string[]; reasonMentions?: ReasonMentions | undefined; diagnosis?: string | undefined }): string[] {
  const mentions = entry.reasonMentions;
  // A fault no case catches (an SDK without a status call: its cases SKIP) has nothing to pin.
  if (entry.caseIds.length === 0) return mentions === undefined ? [] : [`${entry.fault}: words for cases it does not list`];
  if (mentions === undefined) return entry.diagnosis ? [] : [`${entry.fault}: pins no reason (neither reasonMentions nor a diagnosis)`];
  const phrases = isPhrase(mentions) ? [mentions] : Object.values(mentions);
  const empty = phrases.some((p) => (typeof p === 'string' ? [p] : p).some((w) => w === '') || (typeof p !== 'string' && p.length === 0));
  if (isPhrase(mentions)) return empty ? [`${entry.fault}: an empty phrase`] : [];
  const named = Object.keys(mentions);
  return [
    ...(empty ? [`${entry.fault}: an empty phrase`] : []),
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

/**
 * The groups of every case an entry pins: those that catch it, and those it expects ERROR, SKIP or
 * a verdict that depends on timing. The mutation proofs run these (not only the catching cases'
 * groups): a check's branch reached only under another group's fault is pinned there.
 */
export function groupsPinnedBy(entry: { caseIds: readonly string[]; errors?: readonly string[]; skips?: readonly string[]; byTiming?: Readonly<Record<string, string>> }): string[] {
  const ids = [...entry.caseIds, ...(entry.errors ?? []), ...(entry.skips ?? []), ...Object.keys(entry.byTiming ?? {})];
  return [...new Set(ids.map(groupOf))];
}
