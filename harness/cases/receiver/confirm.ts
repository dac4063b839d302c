// receiver.confirm (§6 rule 5): a receiver that confirms an outcome through the transaction
// status endpoint (§4.2) before fulfilment fulfils only what the status answer confirms. The
// harness serves that endpoint (harness/status, on the target's `confirms.listener`) and scripts
// its answer per case; every other query is answered truthfully. The rules (DESIGN.md
// "Transaction status (§4.2) on every side", receiver side):
// - a SUCCESS callback the status answer contradicts (FAILED, PENDING, an unknown id) is not
//   fulfilled: judged on the record, the reply code is free;
// - a status endpoint that answers 5xx, drops the connection, or answers after the reply deadline
//   leaves the record unapplied (MUST), and the reply still comes within the deadline (MUST); the
//   receiver then answers non-2xx so the service retries (SHOULD, the spec leaves it open);
// - the status query is signed as collect (§5) with the target's credentials and names the
//   callback's transaction_id: judged on the query as observed, whatever the record did.
// Confirming FAILED callbacks too, or applying them without a query, are both fine: no case sends
// a FAILED callback here.
import { performance } from 'node:perf_hooks';
import type { Evidence, Level, StatedCause } from '../../results/index.ts';
import type { ReceivedQuery, RunningStatusEndpoint, ScriptedAnswer, StatusForm, StatusValue } from '../../status/index.ts';
import type { ResolvedReceiverTarget } from '../../targets/index.ts';
import type { RecordReading } from '../../observe/index.ts';
import type { HttpResult } from '../../http/index.ts';
import type { Capability, CaseOutcome, ConformanceCase } from '../model.ts';
import { answerText, describeReading, receiverCase, sleep, SUCCESS_MESSAGE, type ReceiverProbe } from './kit.ts';
import { isSuccess } from '../../http/index.ts';

/** How a case says the receiver asked nothing: the preflight names it once, as a shared cause. */
export const NO_STATUS_QUERY = 'no status query reached the harness\'s status endpoint';

/** Text the `{id}` part of the id-naming case carries: what a query built for a URL mangles. */
export const RESERVED_ID_TEXT = ' &/?=+%é';

const NEEDS: readonly Capability[] = ['confirms', 'records', 'seed'];

interface Exercise {
  id: string;
  endpoint: RunningStatusEndpoint;
  reply: HttpResult;
  /** The reply in words for a reason (answerText: redacted before it is cut), or its transport error. */
  replyText: string;
  /** performance.now() just before the callback went out. */
  sentAt: number;
  after: RecordReading | null;
}

/** The queries that named this id, and the ones naming no id the harness sent that came meanwhile. */
function queriesOf(x: Exercise): { named: readonly ReceivedQuery[]; stray: readonly ReceivedQuery[] } {
  return { named: x.endpoint.queriesFor(x.id), stray: x.endpoint.strayQueries(x.sentAt) };
}

/**
 * Seeds a record, scripts the status answer for its id (or leaves it truthful), sends a SUCCESS
 * callback and reads the record once the receiver has had time to act: `expectChange` polls until
 * it is no longer pending (a query case waits for the confirmation that way); `waitHeld` also
 * waits for a held answer to be given (what a receiver does with a late answer counts).
 */
async function exercise(
  probe: ReceiverProbe,
  options: { script?: ScriptedAnswer; id?: string; expectChange?: boolean; alone?: boolean; label?: string },
): Promise<Exercise> {
  const endpoint = await probe.statusEndpoint();
  const id = options.id ?? probe.ctx.newTransactionId();
  await probe.seed(id);
  if (options.script) endpoint.script(id, options.script);
  const sentAt = performance.now();
  const send = () => probe.callback({ transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE }, { label: options.label ?? 'callback SUCCESS' }, true);
  const reply = options.alone ? await probe.ctx.wire.alone(send) : await send();
  if (!reply.ok && reply.failure.code !== 'timeout') throw probe.error(`the callback got no usable answer: ${reply.failure.message}`);
  if (options.script?.kind === 'late') {
    const left = sentAt + options.script.holdMs - performance.now();
    // Cut short once every query asked is answered; a receiver that replies first may not have
    // asked yet, and then the whole hold is waited out.
    const asked = endpoint.queriesFor(id);
    const held = asked.length > 0 ? Promise.all(asked.map((q) => q.done)) : new Promise<never>(() => {});
    await Promise.race([held, sleep(Math.max(0, left) + probe.settleMs, probe.ctx.signal)]);
    // A receiver that acts on the late answer does so once it arrives, on a loaded machine well
    // past the settling time: the record is watched as long as a valid callback is given to show
    // its change (the reply deadline) before "unchanged" is read. Seen: a receiver applying the
    // late answer PASSed at load 14, its record read 60 ms after the answer.
    if (endpoint.queriesFor(id).length > 0) await watchWhilePending(probe, id, probe.target.timing.replyDeadlineMs);
  }
  const after = await probe.settledReading(id, options.expectChange === true);
  return { id, endpoint, reply, replyText: reply.ok ? answerText(reply.answer, probe.ctx.redactor) : reply.failure.message, sentAt, after };
}

/** Reads the record until it is no longer pending, or `forMs` has passed. */
async function watchWhilePending(probe: ReceiverProbe, id: string, forMs: number): Promise<void> {
  const until = performance.now() + forMs;
  while (performance.now() < until) {
    const reading = await probe.read(id);
    if (!reading || reading.state !== 'pending') return;
    await sleep(20, probe.ctx.signal);
  }
}

function statusQueryNotes(x: Exercise): Evidence {
  const { stray } = queriesOf(x);
  return stray.length > 0 ? { notes: [`${stray.length} status quer${stray.length === 1 ? 'y' : 'ies'} naming no id the harness sent arrived meanwhile`] } : {};
}


/** What the receiver asked, for a reason: "it asked the status endpoint once (answered FAILED)". */
function askedText(x: Exercise, scripted: string, causes: StatedCause[]): string {
  const { named } = queriesOf(x);
  if (named.length === 0) {
    causes.push('no-status-query');
    return `${NO_STATUS_QUERY} for it`;
  }
  const refused = named.filter((q) => q.problem);
  if (refused.length === named.length) return `its status quer${named.length === 1 ? 'y was' : 'ies were'} refused (${refused[0]!.problem!.detail})`;
  return `it asked the status endpoint${named.length > 1 ? ` ${named.length} times` : ''} (${scripted})`;
}

/** The record after a SUCCESS the status answer did not confirm: never SUCCESS, no action unless it took the answer's FAILED. */
function unfulfilledProblems(after: RecordReading | null, allowFailed: boolean): string | undefined {
  if (!after) return 'the record is gone (404)';
  // The count, when the target observes one; the state alone otherwise.
  if (after.state === 'pending' && (after.actions ?? 0) === 0) return undefined;
  if (allowFailed && after.state === 'FAILED' && (after.actions ?? 0) <= 1) return undefined;
  return `the record reads ${describeReading(after)}`;
}

/** "answered FAILED": the status by its name (the queries in the evidence show it as spelled). */
const answeredStatus = (status: StatusValue) => (): string => `answered ${status}`;

/** "answered 404, unknown id", or the 421 form. */
function answeredUnknown(form: StatusForm): string {
  return form.unknownId === 404 ? 'answered 404, unknown id' : 'answered error_code 421, unknown id';
}

/** A SUCCESS callback the status answer contradicts: nothing fulfilled, whatever the reply. */
function contradicted(
  leaf: string, title: string, script: ScriptedAnswer, scriptedIn: (form: StatusForm) => string, allowFailed: boolean,
): ConformanceCase<ResolvedReceiverTarget> {
  return receiverCase(
    { id: `receiver.confirm.${leaf}`, title, specRef: '§6 rule 5, §4.2', level: 'MUST', needs: NEEDS, negative: 'confirmation' },
    async (probe) => {
      const scripted = scriptedIn((await probe.statusEndpoint()).form);
      const x = await exercise(probe, { script, label: `callback SUCCESS (status endpoint ${scripted})` });
      const wrong = unfulfilledProblems(x.after, allowFailed);
      if (!wrong) return passUnlessLate(probe, x);
      const ends = allowFailed ? 'pending or FAILED' : 'pending';
      const causes: StatedCause[] = [];
      return probe.fail(
        `${wrong} after a SUCCESS callback the status endpoint contradicted; ${askedText(x, scripted, causes)}: §6 rule 5, an outcome the status endpoint does not confirm is not fulfilled (the record ends ${ends}, no action for SUCCESS; the reply was ${x.replyText}, which is free here)`,
        statusQueryNotes(x),
        causes,
        // Fulfilled without a confirmation: the receiver's own act, however late the answer came.
        true,
      );
    },
  );
}

/** A status endpoint that gives no usable answer: the record stays unapplied (and, for the late one, the reply comes in time). */
function unavailable(leaf: string, title: string, script: (deadlineMs: number) => ScriptedAnswer, what: string): ConformanceCase<ResolvedReceiverTarget> {
  return receiverCase(
    { id: `receiver.confirm.${leaf}`, title, specRef: '§6 rule 5, §6 rule 3', level: 'MUST', needs: NEEDS, negative: 'confirmation' },
    async (probe) => {
      const deadline = probe.target.timing.replyDeadlineMs;
      const scripted = script(deadline);
      // A reply timed against the deadline is measured alone, as the latency cases are.
      const late = scripted.kind === 'late';
      const x = await exercise(probe, { script: scripted, alone: late, label: `callback SUCCESS (status endpoint ${what})` });
      const problems: string[] = [];
      const causes: StatedCause[] = [];
      if (late) {
        const took = x.reply.ok ? x.reply.answer.durationMs : x.reply.durationMs;
        if (!x.reply.ok) {
          problems.push(`no reply within ${probe.ctx.requestTimeoutMs} ms, while the status endpoint held its answer ${scripted.holdMs} ms: the receiver waits on the status endpoint without a time limit of its own; its reply must still come within the deadline (${deadline} ms, §6 rule 3, §8)`);
        } else if (took > deadline) {
          problems.push(`replied after ${Math.round(took)} ms, over the deadline (${deadline} ms), while the status endpoint held its answer: the receiver's own time limit on the status query must leave time to reply (§6 rule 3, §8)`);
        }
      }
      const wrong = unfulfilledProblems(x.after, false);
      if (wrong) {
        problems.push(`${wrong} though the status endpoint ${what}; ${askedText(x, what, causes)}: an outcome that could not be confirmed is not fulfilled (§6 rule 5)`);
      }
      // A record fulfilled, or a reply over the deadline while a held answer was the point: the receiver's own acts.
      return problems.length ? probe.fail(problems, statusQueryNotes(x), causes, true) : passUnlessLate(probe, x);
    },
  );
}

/**
 * PASS, unless the receiver gave up on the status answer before the harness gave it (a loaded
 * machine's delay, ReceiverProbe.lateStatusAnswer): a record left alone then says nothing of the
 * rule, so the case is ERROR naming the kit's endpoint. Its FAILs stand: a record fulfilled or a
 * callback acknowledged without a confirmation is the receiver's own act, however late the answer.
 */
function passUnlessLate(probe: ReceiverProbe, x: Exercise): CaseOutcome {
  const late = probe.lateStatusAnswer();
  return late ? probe.statusAnswerLate(late, `the record reads ${describeReading(x.after)}`, statusQueryNotes(x)) : probe.pass();
}

/** "asked for X": how the id asked differs from the one sent, when it is a known encoding of it. */
function howAsked(asked: string, sent: string): string {
  if (asked === encodeURIComponent(sent)) return ' (the id percent-encoded, as encodeURIComponent writes it for a URL)';
  if (asked === new URLSearchParams({ x: sent }).toString().slice(2)) return ' (the id form-encoded, as for a URL query)';
  return '';
}

/** The query cases: judged on the queries as observed; the record is not their concern. */
function queryCase(
  leaf: string, title: string, level: Level,
  judge: (x: Exercise, probe: ReceiverProbe, causes: StatedCause[]) => string | undefined,
  idFor?: (probe: ReceiverProbe) => string,
): ConformanceCase<ResolvedReceiverTarget> {
  return receiverCase(
    { id: `receiver.confirm.${leaf}`, title, specRef: '§6 rule 5, §4.2, §5', level, needs: NEEDS },
    async (probe) => {
      const x = await exercise(probe, { expectChange: true, ...(idFor ? { id: idFor(probe) } : {}) });
      const causes: StatedCause[] = [];
      const problem = judge(x, probe, causes);
      return problem ? probe.fail(problem, statusQueryNotes(x), causes) : probe.pass();
    },
  );
}

/** No query at all: the cause the preflight names when its own valid callback met the same (and an unapplied record, when it reads pending). */
function noQuery(x: Exercise, causes: StatedCause[]): string {
  causes.push('no-status-query');
  if (x.after?.state === 'pending') causes.push('not-applied');
  return `${NO_STATUS_QUERY} while the SUCCESS callback was handled (it was answered ${x.replyText}, and the record reads ${describeReading(x.after)}): the target says the receiver confirms outcomes (§6 rule 5)`;
}

export const CONFIRM_CASES: ConformanceCase<ResolvedReceiverTarget>[] = [
  contradicted('contradicted-failed', 'a SUCCESS the status endpoint answers FAILED is not fulfilled', { kind: 'status', status: 'FAILED' }, answeredStatus('FAILED'), true),
  contradicted('contradicted-pending', 'a SUCCESS the status endpoint answers PENDING is not fulfilled', { kind: 'status', status: 'PENDING' }, answeredStatus('PENDING'), false),
  contradicted('contradicted-unknown', 'a SUCCESS the status endpoint does not know is not fulfilled', { kind: 'unknown-id' }, answeredUnknown, false),
  unavailable('endpoint-error', 'a status endpoint answering 503 leaves the record unapplied', () => ({ kind: 'server-error', httpStatus: 503 }), 'answered 503'),
  unavailable('endpoint-dropped', 'a status endpoint dropping the connection leaves it unapplied', () => ({ kind: 'dropped' }), 'dropped the connection'),
  unavailable(
    // Held twice the reply deadline, then SUCCESS: too late to confirm within the reply.
    'endpoint-late', 'a late status answer leaves it unapplied, the reply still in time',
    (deadline) => ({ kind: 'late', holdMs: 2 * deadline, status: 'SUCCESS' }), 'held its answer for twice the reply deadline',
  ),
  receiverCase(
    // SHOULD: the spec does not say what a receiver answers when it could not confirm; a 2xx
    // tells the service the callback was handled, so it never comes again (§4.3) and the record
    // stays pending for good. A receiver that replies first and confirms afterwards cannot do
    // otherwise: it then needs a way of its own to ask again.
    { id: 'receiver.confirm.unconfirmed-not-acknowledged', title: 'a SUCCESS it could not confirm is answered non-2xx', specRef: '§6 rule 5, §4.3', level: 'SHOULD', needs: NEEDS, negative: 'confirmation' },
    async (probe) => {
      const x = await exercise(probe, { script: { kind: 'server-error', httpStatus: 503 }, label: 'callback SUCCESS (status endpoint answers 503)' });
      if (unfulfilledProblems(x.after, false)) {
        return { verdict: 'SKIP', reason: `not exercised: the receiver did not leave the record unconfirmed (it reads ${describeReading(x.after)}); receiver.confirm.endpoint-error judges that` };
      }
      if (x.reply.ok && isSuccess(x.reply.answer.status)) {
        return probe.fail(`answered ${x.replyText} to a SUCCESS callback it could not confirm (the status endpoint answered 503; the record still reads ${describeReading(x.after)}): a 2xx tells the service the callback was handled, so it is never retried (§4.3) and the outcome never fulfilled; a non-2xx makes the service retry`, undefined, [], true);
      }
      return passUnlessLate(probe, x);
    },
  ),
  queryCase('query-signed', 'the status query is signed as collect, with the target\'s credentials', 'MUST', (x, _probe, causes) => {
    const { named, stray } = queriesOf(x);
    const all = [...named, ...stray].sort((a, b) => a.at - b.at);
    if (all.length === 0) return noQuery(x, causes);
    const bad = all.find((q) => q.problem);
    if (!bad) return undefined;
    const where = `${bad.method} ${bad.target.split('?')[0]}`;
    return `the status query (${where}) is not one the service accepts: ${bad.problem!.detail}; the harness refused it as the service would (§5.1, §5.2: signed exactly as collect, with the client's key), so no outcome can be confirmed`;
  }),
  queryCase('query-names-transaction-id', 'the status query names the callback\'s transaction_id', 'MUST', (x, _probe, causes) => {
    const { named, stray } = queriesOf(x);
    if (named.length > 0) return undefined;
    // A query the endpoint read no id from was refused for that (ReceivedQuery.problem): it always has one.
    const other = stray.find((q) => q.askedId !== undefined);
    if (!other) return stray.length > 0 ? `the status queries that arrived name no transaction_id the harness could read (${stray[0]!.problem!.detail})` : noQuery(x, causes);
    return `the status query asked for ${JSON.stringify(other.askedId)}${howAsked(other.askedId!, x.id)}, not the callback's transaction_id ${JSON.stringify(x.id)}: the service answers about another transaction, or none (§4.2; §6 rule 2: transaction_id is the matching key)`;
  }, (probe) => {
    const carrying = probe.ctx.transactionIdCarrying(RESERVED_ID_TEXT);
    if (carrying.ok) return carrying.id;
    probe.notes.push(`a plain id: ${carrying.reason}`);
    return probe.ctx.newTransactionId();
  }),
];
