// The storm's judgement (DESIGN.md "A callback storm"): five cases on the receiver's own records
// read after it settled, and on the replies the driver timed. Plain functions of the plan, the
// attempt log and the readings, so known answers test them without a receiver.
import { verdictAndReason, type CaseResult, type Evidence, type IdHistory, type LatencySplit, type Level, type StormCounts, type StormEvidence, type StormSecond, type Verdict } from '../results/index.ts';
import { percentiles, quantile, type AttemptLog, type Percentiles } from './log.ts';
import { isSuccess } from '../http/index.ts';
import type { StormPlan } from './plan.ts';
import type { Readings } from './records.ts';
import { stalledWithin, type Stall } from './stalls.ts';

export interface StormCaseInfo {
  id: string;
  title: string;
  level: Level;
  specRef: string;
}

export const STORM_CASES: readonly StormCaseInfo[] = [
  { id: 'storm.exactly-once', title: 'under a storm of duplicates, each outcome is applied once, as sent', level: 'MUST', specRef: '§6 rule 2, §3' },
  { id: 'storm.none-lost', title: 'every outcome answered 2xx is applied (the service will not send it again)', level: 'MUST', specRef: '§6 rule 2, §4.3' },
  { id: 'storm.bad-token-inert', title: 'ids that got only bad tokens stay untouched, the tokens refused', level: 'MUST', specRef: '§6 rule 1' },
  { id: 'storm.reply-deadline', title: 'p99 of the time from the intended send to the reply\'s last byte is within the deadline', level: 'MUST', specRef: '§6 rule 3, §8' },
  { id: 'storm.shedding', title: 'load shed with 429 or 503 converges within the service\'s retries', level: 'SHOULD', specRef: '§6 rule 3, §4.3' },
];

/** How many broken ids each case shows with their whole delivery history. */
export const FIRST_IDS_SHOWN = 5;

export interface JudgeInput {
  plan: StormPlan;
  log: AttemptLog;
  readings: Readings;
  replyDeadlineMs: number;
  /** Attempts per delivery the driver allowed. */
  maxAttempts: number;
  /** The observation counts actions (exactly-once can see a second application of the same outcome). */
  countsActions: boolean;
  /** Ids the storm reached (an interrupted storm: those sent at least once). */
  planned: (i: number) => boolean;
  /** What the driver's own event loop did, for reply-deadline's evidence. */
  loopDelay?: { p99Ms: number; maxMs: number };
  /** When that loop stood still (stalls.ts): taken out of an attempt's time before the receiver is blamed. */
  stalls?: readonly Stall[];
  durationMs: number;
  /** A note every case carries (an interrupted storm). */
  note?: string;
  /** How the records were read: many per statement or request, or one by one. */
  readWay?: 'many' | 'one by one';
  /** Valid outcomes the engine never delivered at all (not `planned`): not reached, like those never answered 2xx. */
  notDelivered?: number;
  /** Extra evidence for reply-deadline (an engine's own counters and percentiles). */
  engineEvidence?: Pick<StormEvidence, 'artillery'>;
}

/** What the log says of each id, gathered in one pass. */
interface PerId {
  valid2xx: Uint16Array;
  validAttempts: Uint16Array;
  shed: Uint16Array;
  /** First shed answer's intended time, and the first 2xx's end, per id (NaN: none). */
  firstShedMs: Float64Array;
  first2xxEndMs: Float64Array;
  bad2xx: Uint16Array;
}

function perId(input: JudgeInput): PerId {
  const n = input.plan.callbacks;
  const p: PerId = {
    valid2xx: new Uint16Array(n), validAttempts: new Uint16Array(n), shed: new Uint16Array(n),
    firstShedMs: new Float64Array(n).fill(Number.NaN), first2xxEndMs: new Float64Array(n).fill(Number.NaN), bad2xx: new Uint16Array(n),
  };
  const { log } = input;
  for (let r = 0; r < log.length; r++) {
    const i = log.indexAt(r);
    const status = log.statusAt(r);
    const ok = isSuccess(status);
    if (!log.isValidToken(r)) {
      if (ok) p.bad2xx[i]! += 1;
      continue;
    }
    p.validAttempts[i]! += 1;
    if (ok) {
      p.valid2xx[i]! += 1;
      if (Number.isNaN(p.first2xxEndMs[i]!) || log.endAt(r) < p.first2xxEndMs[i]!) p.first2xxEndMs[i] = log.endAt(r);
    }
    if (status === 429 || status === 503) {
      p.shed[i]! += 1;
      if (Number.isNaN(p.firstShedMs[i]!)) p.firstShedMs[i] = log.intendedAt(r);
    }
  }
  return p;
}

/** One id's whole history, for the evidence. */
export function historyOf(input: JudgeInput, i: number): IdHistory {
  const round = (n: number) => (Number.isNaN(n) ? null : Math.round(n * 10) / 10);
  return {
    transaction_id: input.plan.idOf(i),
    sent: input.plan.isBadToken(i) ? `${input.plan.outcomeOf(i)} with bad tokens only` : input.plan.outcomeOf(i),
    record: input.readings.describe(i),
    deliveries: input.log.rowsOf(i).map((r) => {
      const row = input.log.row(r);
      return {
        copy: row.copy, attempt: row.attempt, token: row.token,
        intendedMs: round(row.intendedMs), onWireMs: round(row.wireMs), endMs: round(row.endMs),
        answer: row.failure ? `no reply (${row.failure})` : row.status,
        ...(Number.isNaN(row.retryAfterS) ? {} : { retryAfterS: row.retryAfterS }),
      };
    }),
  };
}

function result(info: StormCaseInfo, verdict: Verdict, reason: string | undefined, evidence: Evidence, durationMs: number, note?: string): CaseResult {
  const notes = [...(evidence.notes ?? []), ...(note ? [note] : [])];
  return {
    id: info.id, title: info.title, level: info.level, specRef: info.specRef,
    ...verdictAndReason(verdict, reason),
    evidence: { ...evidence, ...(notes.length > 0 ? { notes } : {}) },
    durationMs,
  };
}

const info = (id: string) => STORM_CASES.find((c) => c.id === id)!;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function judgeStorm(input: JudgeInput): CaseResult[] {
  const p = perId(input);
  const { plan, readings } = input;
  const valid: number[] = [];
  const bad: number[] = [];
  for (let i = 0; i < plan.callbacks; i++) {
    if (!input.planned(i)) continue;
    (plan.isBadToken(i) ? bad : valid).push(i);
  }
  const counts = countsOf(input, valid, bad, p);
  if (input.readWay) counts.recordsRead = input.readWay;
  return [
    exactlyOnce(input, valid, counts),
    noneLost(input, valid, p, counts),
    badTokenInert(input, bad, p, counts),
    replyDeadline(input, counts),
    shedding(input, valid, p, counts),
  ];
}

/** The counts every case shows, from the attempt log: all there. */
type Counts = StormCounts & Required<Pick<StormCounts, 'attempts' | 'validAttempts' | 'retries' | 'retryAmplification' | 'plannedCopies' | 'answers'>>;

function countsOf(input: JudgeInput, valid: number[], bad: number[], p: PerId): Counts {
  const answers: Record<string, number> = {};
  let validAttempts = 0;
  let retries = 0;
  for (let r = 0; r < input.log.length; r++) {
    const row = input.log.row(r);
    const key = row.failure ? `no reply (${row.failure})` : String(row.status);
    answers[key] = (answers[key] ?? 0) + 1;
    if (row.attempt > 1) retries += 1;
  }
  for (const i of valid) validAttempts += p.validAttempts[i]!;
  return {
    outcomes: valid.length,
    badTokenIds: bad.length,
    attempts: input.log.length,
    validAttempts,
    retries,
    retryAmplification: valid.length === 0 ? 0 : Math.round((validAttempts / valid.length) * 100) / 100,
    plannedCopies: plan(input).duplicates,
    answers,
  };
}

const plan = (input: JudgeInput) => input.plan;

function exactlyOnce(input: JudgeInput, valid: number[], counts: Counts): CaseResult {
  const c = info('storm.exactly-once');
  const twice: number[] = [];
  const other: number[] = [];
  for (const i of valid) {
    const state = input.readings.stateOf(i);
    if (input.readings.actions[i]! > 1) twice.push(i);
    else if (state !== 'pending' && state !== input.plan.outcomeOf(i)) other.push(i);
  }
  const broken = [...twice, ...other].sort((a, b) => a - b);
  const notes = input.countsActions ? [] : ['the observation counts no actions: a second application of the same outcome cannot be seen, only a state other than the outcome sent'];
  const evidence: Evidence = { counts: { ...counts, appliedMoreThanOnce: twice.length, otherState: other.length }, notes };
  if (broken.length === 0) return result(c, 'PASS', undefined, evidence, input.durationMs, input.note);
  evidence.firstIds = broken.slice(0, FIRST_IDS_SHOWN).map((i) => historyOf(input, i));
  const parts = [
    twice.length > 0 ? `${plural(twice.length, 'outcome')} of ${valid.length} applied more than once` : '',
    other.length > 0 ? `${plural(other.length, 'record')} left in a state other than the outcome sent` : '',
  ].filter(Boolean);
  return result(c, 'FAIL', `${parts.join('; ')} (§6 rule 2: each outcome applied exactly once; first: ${input.plan.idOf(broken[0]!)}, ${input.readings.describe(broken[0]!)})`, evidence, input.durationMs, input.note);
}

function noneLost(input: JudgeInput, valid: number[], p: PerId, counts: Counts): CaseResult {
  const c = info('storm.none-lost');
  const lost: number[] = [];
  let unanswered = 0;
  for (const i of valid) {
    if (p.valid2xx[i] === 0) unanswered += 1;
    else if (input.readings.stateOf(i) === 'pending') lost.push(i);
  }
  const notDelivered = input.notDelivered ?? 0;
  const notReached = unanswered + notDelivered;
  const evidence: Evidence = {
    counts: { ...counts, lost: lost.length, notReached, ...(notDelivered > 0 ? { notDelivered } : {}) },
    notes: [
      ...(unanswered > 0 ? [`${plural(unanswered, 'outcome')} never got a 2xx in ${input.maxAttempts} attempts: not reached (the service gives up on them), not lost`] : []),
      ...(notDelivered > 0 ? [`${plural(notDelivered, 'outcome')} never delivered at all: not reached, not lost`] : []),
    ],
  };
  if (lost.length === 0 && valid.length === unanswered && notReached > 0) {
    return result(c, 'SKIP', `not exercised: none of the ${plural(notReached, 'outcome')} was answered 2xx, so none could be lost (${unanswered} never answered 2xx, ${notDelivered} never delivered)`, evidence, input.durationMs, input.note);
  }
  if (lost.length === 0) return result(c, 'PASS', undefined, evidence, input.durationMs, input.note);
  evidence.firstIds = lost.slice(0, FIRST_IDS_SHOWN).map((i) => historyOf(input, i));
  return result(c, 'FAIL', `${plural(lost.length, 'outcome')} of ${valid.length} answered 2xx and never applied: the record still reads pending after the receiver settled, and the service will not send it again (first: ${input.plan.idOf(lost[0]!)})`, evidence, input.durationMs, input.note);
}

function badTokenInert(input: JudgeInput, bad: number[], p: PerId, counts: Counts): CaseResult {
  const c = info('storm.bad-token-inert');
  if (bad.length === 0) {
    return result(c, 'SKIP', 'not exercised: the storm sent no bad tokens (--bad-tokens 0, or the target names no callbackToken)', { counts }, input.durationMs, input.note);
  }
  const changed: number[] = [];
  const accepted: number[] = [];
  for (const i of bad) {
    const state = input.readings.stateOf(i);
    if (state !== 'pending' || input.readings.actions[i]! > 0) changed.push(i);
    else if (p.bad2xx[i]! > 0) accepted.push(i);
  }
  const evidence: Evidence = { counts: { ...counts, changed: changed.length, answered2xx: bad.filter((i) => p.bad2xx[i]! > 0).length } };
  if (changed.length === 0 && accepted.length === 0) return result(c, 'PASS', undefined, evidence, input.durationMs, input.note);
  const first = [...changed, ...accepted];
  evidence.firstIds = first.slice(0, FIRST_IDS_SHOWN).map((i) => historyOf(input, i));
  const reason = changed.length > 0
    ? `${plural(changed.length, 'record')} of ${bad.length} that got only bad tokens changed (§6 rule 1: no action on a bad token; first: ${input.plan.idOf(changed[0]!)}, ${input.readings.describe(changed[0]!)})`
    : `${plural(accepted.length, 'id')} of ${bad.length} got a bad token answered 2xx, though nothing changed (§6 rule 1 says 403; first: ${input.plan.idOf(accepted[0]!)})`;
  return result(c, 'FAIL', reason, evidence, input.durationMs, input.note);
}

/** Latency of the valid attempts, split as the evidence shows it (LatencySplit), and over the storm's seconds. */
export interface LatencyStats extends Omit<LatencySplit, 'driverStalls'> {
  total: Percentiles;
  stalls: LatencySplit['driverStalls'];
  late: number;
  timedOut: number;
  /** Per second of intended send: attempts, p99 (ms), and non-2xx answers. */
  perSecond: StormSecond[];
}

export function latencyStats(log: AttemptLog, replyDeadlineMs: number, stalls: readonly Stall[] = []): LatencyStats {
  const rows: number[] = [];
  for (let r = 0; r < log.length; r++) {
    if (!log.isValidToken(r)) continue;
    const row = log.row(r);
    if (row.failure === 'stopped' || Number.isNaN(row.endMs)) continue;
    rows.push(r);
  }
  const total = new Float64Array(rows.length);
  const kit = new Float64Array(rows.length);
  const wire = new Float64Array(rows.length);
  const lag = new Float64Array(rows.length);
  const withoutLag = new Float64Array(rows.length);
  let late = 0;
  let timedOut = 0;
  let stalledTotal = 0;
  const seconds = new Map<number, { times: number[]; notOk: number }>();
  rows.forEach((r, k) => {
    const intended = log.intendedAt(r);
    const end = log.endAt(r);
    const onWire = Number.isNaN(log.wireAt(r)) ? end : log.wireAt(r);
    total[k] = end - intended;
    kit[k] = onWire - intended;
    wire[k] = end - onWire;
    lag[k] = Math.max(0, log.dispatchedAt(r) - intended);
    // The driver's lateness, and its loop's stalls while the attempt was its own: neither is the receiver's.
    const dispatched = Math.max(intended, log.dispatchedAt(r));
    const stalled = stalledWithin(stalls, dispatched, end);
    stalledTotal += stalled;
    withoutLag[k] = total[k]! - lag[k]! - stalled;
    if (total[k]! > replyDeadlineMs) late += 1;
    if (log.isFailed(r)) timedOut += 1;
    const second = Math.floor(intended / 1000);
    let bucket = seconds.get(second);
    if (!bucket) seconds.set(second, bucket = { times: [], notOk: 0 });
    bucket.times.push(total[k]!);
    const status = log.statusAt(r);
    if (!isSuccess(status)) bucket.notOk += 1;
  });
  const perSecond = [...seconds.entries()].sort((a, b) => a[0] - b[0]).map(([second, b]) => {
    b.times.sort((x, y) => x - y);
    return { second, sent: b.times.length, p99Ms: Math.round(quantile(b.times, 0.99) * 10) / 10, notOk: b.notOk };
  });
  const p99WithoutDriverLagMs = Math.round(quantile(withoutLag.sort(), 0.99) * 10) / 10;
  return {
    total: percentiles(total), kitWait: percentiles(kit), onWire: percentiles(wire), driverLag: percentiles(lag), p99WithoutDriverLagMs,
    stalls: { count: stalls.length, longestMs: Math.round(Math.max(0, ...stalls.map(([a, b]) => b - a))), withinAttemptsMs: Math.round(stalledTotal) },
    late, timedOut, perSecond,
  };
}

function replyDeadline(input: JudgeInput, counts: Counts): CaseResult {
  const c = info('storm.reply-deadline');
  const stats = latencyStats(input.log, input.replyDeadlineMs, input.stalls);
  const { total } = stats;
  // Nothing timed: no percentiles (they would be NaN, which report.json's schema refuses).
  const timed = total.samples > 0;
  const evidence: Evidence = {
    counts,
    ...(timed ? {
      latency: { samples: total.samples, p50Ms: total.p50Ms, p99Ms: total.p99Ms, maxMs: total.maxMs },
      latencySplit: { kitWait: stats.kitWait, onWire: stats.onWire, driverLag: stats.driverLag, driverStalls: stats.stalls, p99WithoutDriverLagMs: stats.p99WithoutDriverLagMs },
    } : {}),
    late: stats.late, timedOut: stats.timedOut, replyDeadlineMs: input.replyDeadlineMs,
    ...(input.loopDelay ? { driverEventLoop: input.loopDelay } : {}),
    perSecond: stats.perSecond,
    ...input.engineEvidence,
  };
  if (!timed) return result(c, 'ERROR', 'no valid delivery finished: nothing to time', evidence, input.durationMs, input.note);
  const split = `the wait inside the kit p99 ${stats.kitWait.p99Ms} ms (the driver's own lateness p99 ${stats.driverLag.p99Ms} ms), on the wire p99 ${stats.onWire.p99Ms} ms`;
  if (total.p99Ms <= input.replyDeadlineMs) return result(c, 'PASS', undefined, evidence, input.durationMs, input.note);
  if (stats.p99WithoutDriverLagMs <= input.replyDeadlineMs) {
    const stalled = stats.stalls.count > 0 ? `, and its event loop stood still ${stats.stalls.count} time(s), up to ${stats.stalls.longestMs} ms, while replies were on the wire` : '';
    return result(c, 'ERROR', `p99 ${total.p99Ms} ms is over the ${input.replyDeadlineMs} ms deadline only because the driver itself fell behind its schedule${stalled} (without its own lateness and stalls p99 is ${stats.p99WithoutDriverLagMs} ms; its event loop's delay p99 ${input.loopDelay?.p99Ms.toFixed(1) ?? '?'} ms): the machine running the storm is too loaded for this rate, which says nothing about the receiver; lower --rate`, evidence, input.durationMs, input.note);
  }
  const firstLate = firstLateIds(input);
  evidence.firstIds = firstLate.map((i) => historyOf(input, i));
  return result(c, 'FAIL', `p99 of the valid deliveries, from the intended send to the reply's last byte, is ${total.p99Ms} ms, over the ${input.replyDeadlineMs} ms deadline (§6 rule 3): ${plural(stats.late, 'attempt')} of ${total.samples} late, ${stats.timedOut} with no reply; ${split}`, evidence, input.durationMs, input.note);
}

function firstLateIds(input: JudgeInput): number[] {
  const ids: number[] = [];
  for (let r = 0; r < input.log.length && ids.length < FIRST_IDS_SHOWN; r++) {
    if (!input.log.isValidToken(r)) continue;
    const i = input.log.indexAt(r);
    if (input.log.endAt(r) - input.log.intendedAt(r) > input.replyDeadlineMs && !ids.includes(i)) ids.push(i);
  }
  return ids;
}

function shedding(input: JudgeInput, valid: number[], p: PerId, counts: Counts): CaseResult {
  const c = info('storm.shedding');
  const shedIds = valid.filter((i) => p.shed[i]! > 0);
  let shedAnswers = 0;
  for (const i of shedIds) shedAnswers += p.shed[i]!;
  if (shedIds.length === 0) return result(c, 'PASS', undefined, { counts, notes: ['the receiver never shed load (no 429 or 503 answer)'] }, input.durationMs, input.note);
  const never = shedIds.filter((i) => p.valid2xx[i] === 0);
  let convergeMs = 0;
  for (const i of shedIds) if (p.valid2xx[i]! > 0) convergeMs = Math.max(convergeMs, p.first2xxEndMs[i]! - p.firstShedMs[i]!);
  const evidence: Evidence = {
    counts: { ...counts, shedAnswers, shedOutcomes: shedIds.length, shedShare: Math.round((shedAnswers / Math.max(1, counts.validAttempts)) * 1000) / 10, stillShed: never.length, convergeMs: Math.round(convergeMs) },
    notes: ['shedding is legal (a 429 or 503 that applied nothing), but each one costs the service a retry'],
  };
  if (never.length === 0) return result(c, 'PASS', undefined, evidence, input.durationMs, input.note);
  evidence.firstIds = never.slice(0, FIRST_IDS_SHOWN).map((i) => historyOf(input, i));
  return result(c, 'WARN', `${plural(never.length, 'outcome')} shed with 429 or 503 got no 2xx in ${input.maxAttempts} attempts: the service gives up on them (not lost, but never delivered; first: ${input.plan.idOf(never[0]!)})`, evidence, input.durationMs, input.note);
}
