// service.callback retry cases (§4.3 "any non-2xx causes a retry", §6 Retry): the listener
// answers 500 a few times, then 2xx, and the delivery schedule is judged by backoff.ts.
import { performance } from 'node:perf_hooks';
import type { ListenerDelivery } from '../../listener/index.ts';
import { intervalsOf, judgeOnABusyMachine, looksConstant, BACKOFF_VERDICT, CONSTANT_FACTOR, CONSTANT_MIN_INTERVALS, FULL_JITTER_LOOKS_CONSTANT_PERCENT, GROWTH_FACTOR, GROWTH_TOLERANCE_MS, IMMEDIATE_MS, OVERALL_GROWTH_FACTOR, type BackoffJudgement } from './backoff.ts';
import { StallWatch, TIMING_BLURRED } from '../stall-watch.ts';
import { noCallback, requireAccepted, serviceCase, windowLeft, type ServiceCase } from './define.ts';
import type { CaseOutcome } from '../model.ts';
import type { ServiceSession } from './session.ts';
import { isSuccess } from '../../http/index.ts';

/** Non-2xx answers before the 200 in the retry case: three, so three intervals can be compared. */
export const RETRY_SCRIPT: readonly number[] = [500, 500, 500, 200];

/**
 * When the first two intervals look constant, the deliveries after the third are answered so:
 * two more 500s, then 200. A "constant" FAIL then rests on up to five intervals, which full
 * jitter matches by chance far more rarely than three (backoff.ts).
 */
export const MORE_WHEN_CONSTANT: readonly number[] = [500, 500, 200];

/** The retries-stop case: a 500, then a 2xx other than 200 (204 No Content) for the retry. */
export const STOP_SCRIPT: readonly number[] = [500, 204];

/** Waits for deliveries to the case's one tag one by one until `count` or the deadline, reporting progress. */
async function collectUntil(s: ServiceSession, tag: string, count: number, deadline: number): Promise<ListenerDelivery[]> {
  for (let k = s.deliveries().length + 1; k <= count; k++) {
    const left = deadline - performance.now();
    if (left <= 0) break;
    s.ctx.progress(`waiting for delivery ${k}/${count} (${Math.round(left)} ms left of the retry window)`);
    const seen = await s.waitFor({ tag }, { count: k, timeoutMs: left });
    if (seen.length < k) break;
  }
  return s.deliveries();
}

function timelineOf(s: ServiceSession, seen: readonly ListenerDelivery[]) {
  const t0 = s.t0 ?? 0;
  const offsetsMs = seen.map((d) => Math.round(d.receivedAt - t0));
  const intervalsMs = offsetsMs.slice(1).map((o, i) => o - offsetsMs[i]!);
  return { offsetsMs, intervalsMs };
}

/** What was observed, in words; the verdict is BACKOFF_VERDICT's (empty for a PASS). */
export function backoffReason(j: BackoffJudgement, retryWindowMs: number): string {
  const same = `(the longest within ${CONSTANT_FACTOR} × the shortest + ${GROWTH_TOLERANCE_MS} ms)`;
  switch (j.kind) {
    case 'no-delivery':
    case 'growing':
    case 'growing-overall':
      return '';
    case 'no-retry':
      return `the callback was answered 500 and not retried within timing.retryWindowMs (${retryWindowMs} ms)`;
    case 'single-retry':
      return `a single retry, after ${j.intervalMs} ms, then none within the window: the back-off cannot be seen to grow`;
    case 'immediate':
      return `intervals ${j.intervalsMs.join(', ')} ms, each within ${IMMEDIATE_MS} ms: retried immediately, not with exponential back-off`;
    case 'constant':
      return `intervals ${j.intervalsMs.join(', ')} ms stay about the same ${same}: a fixed retry delay, not exponential back-off`;
    case 'constant-too-few':
      return `not judged: intervals ${j.intervalsMs.join(', ')} ms stay about the same ${same}, likely a fixed retry delay, but back-off with full jitter (each wait random up to a cap that grows) looks like this by chance in up to ${FULL_JITTER_LOOKS_CONSTANT_PERCENT[j.intervalsMs.length] ?? 100} % of runs with ${j.intervalsMs.length} intervals; a "constant" FAIL needs ${CONSTANT_MIN_INTERVALS}, and the service stopped or timing.retryWindowMs (${retryWindowMs} ms) ended before more were seen`;
    case 'irregular':
      return `not judged: intervals ${j.intervalsMs.join(', ')} ms neither grow (each step, or the last ≥ ${OVERALL_GROWTH_FACTOR} × the first) nor stay about the same; likely back-off with full jitter (each wait random up to a cap that grows), which gives such sequences, and ${j.intervalsMs.length} intervals cannot tell it from a schedule that does not grow`;
  }
}

const RULE = `a step grows when interval[k] ≥ ${GROWTH_FACTOR} × interval[k−1] − ${GROWTH_TOLERANCE_MS} ms`;

/** The retry case's work, timed while `stalls` watches this process's event loop. */
async function judgeRetries(s: ServiceSession, stalls: StallWatch): Promise<CaseOutcome> {
  const fields = s.fields();
  s.listener.script({ tag: fields.tag }, RETRY_SCRIPT);
  requireAccepted(s, await s.sendAnswered({ fields }, { label: `a correctly signed collect, its callbacks answered ${RETRY_SCRIPT.join(', ')}` }));
  const [first] = await s.waitFor({ tag: fields.tag }, { count: 1, timeoutMs: s.target.timing.callbackTimeoutMs });
  if (!first) return noCallback(s);
  const windowEnd = first.receivedAt + s.target.timing.retryWindowMs;
  const firstThree = await collectUntil(s, fields.tag, 3, windowEnd);
  let expected = RETRY_SCRIPT.length;
  const early = intervalsOf(firstThree.map((d) => d.receivedAt));
  if (early.length === 2 && looksConstant(early)) {
    // Before the fourth delivery is answered: it and the next get 500 too.
    s.listener.script({ tag: fields.tag }, MORE_WHEN_CONSTANT);
    expected = firstThree.length + MORE_WHEN_CONSTANT.length;
  }
  const all = await collectUntil(s, fields.tag, expected, windowEnd);
  // The schedule of the failing phase: up to and including the first delivery answered 2xx.
  const okAt = all.findIndex((d) => isSuccess(d.answeredStatus));
  // Every delivery was answered 500: the service stopped, or the window ended, before its 2xx.
  const stopped = okAt === -1;
  const phase = stopped ? all : all.slice(0, okAt + 1);
  const timeline = timelineOf(s, phase);
  const shown = `offsets ${timeline.offsetsMs.join(', ')} ms; intervals ${timeline.intervalsMs.join(', ') || 'none'} ms`;
  const script = expected > RETRY_SCRIPT.length ? `${RETRY_SCRIPT.slice(0, 3).join(', ')}, then (the first intervals looking constant) ${MORE_WHEN_CONSTANT.join(', ')}` : RETRY_SCRIPT.join(', ');
  const evidence = { timeline, notes: [`listener script: ${script}`, shown, `rule: ${RULE}`] };
  if (stopped) {
    evidence.notes.push(`the service stopped after ${all.length} deliver${all.length === 1 ? 'y' : 'ies'} within timing.retryWindowMs (${s.target.timing.retryWindowMs} ms) while the listener still answered 500`);
  }
  const stallMs = stalls.stop();
  // The phase holds the first delivery at least: never 'no-delivery' here.
  const { judgement, blurredBy } = judgeOnABusyMachine(timeline.offsetsMs, stallMs);
  if (stallMs > GROWTH_TOLERANCE_MS) evidence.notes.push(`the kit's event loop was seen to run up to ${Math.ceil(stallMs)} ms late while it noted the deliveries (a busy machine)`);
  if (blurredBy) {
    // A correct schedule is never failed for the kit's busy machine (backoff.ts, judgeOnABusyMachine).
    return s.skip(`${TIMING_BLURRED} up to ${Math.ceil(stallMs)} ms late while it timed the deliveries (a busy machine): intervals ${timeline.intervalsMs.join(', ')} ms read as ${judgement.kind} (${BACKOFF_VERDICT[judgement.kind]}) with ${GROWTH_TOLERANCE_MS} ms of jitter allowed for, as ${blurredBy.kind} (${BACKOFF_VERDICT[blurredBy.kind]}) with the stall's; run this case again on a quieter machine`, evidence);
  }
  if (judgement.kind === 'growing-overall') {
    evidence.notes.push(`the intervals grow overall (the last ≥ ${OVERALL_GROWTH_FACTOR} × the first), though interval ${judgement.flatAt + 1} does not on its own: as back-off with jitter does`);
  }
  const reason = backoffReason(judgement, s.target.timing.retryWindowMs);
  switch (BACKOFF_VERDICT[judgement.kind]) {
    case 'PASS':
      return s.pass(evidence);
    case 'FAIL':
      return s.fail(reason, evidence);
    case 'WARN':
      return s.warn(reason, evidence);
    default:
      return s.skip(reason, evidence);
  }
}

export const RETRY_CASES: readonly ServiceCase[] = [
  serviceCase({
    id: 'service.callback.retry-back-off',
    title: 'non-2xx answers are retried with growing intervals',
    specRef: '§4.3, §6 Retry',
    level: 'MUST',
    needs: [],
    watchesRetries: true,
    async check(s) {
      const stalls = new StallWatch();
      try {
        return await judgeRetries(s, stalls);
      } finally {
        stalls.stop();
      }
    },
  }),
  serviceCase({
    id: 'service.callback.retries-stop-after-2xx',
    title: 'deliveries stop once the receiver answered 2xx',
    specRef: '§4.3, §6 Retry',
    level: 'SHOULD',
    needs: [],
    watchesRetries: true,
    async check(s) {
      const fields = s.fields();
      // The retry gets 204, not 200: §4.3 ends the retries on any 2xx, and a service that
      // counts only 200 as delivered (`status === 200`) is the common way to miss that.
      s.listener.script({ tag: fields.tag }, STOP_SCRIPT);
      requireAccepted(s, await s.sendAnswered({ fields }, { label: `a correctly signed collect, its callbacks answered ${STOP_SCRIPT.join(', ')}` }));
      const { callbackTimeoutMs, retryWindowMs } = s.target.timing;
      const [first] = await s.waitFor({ tag: fields.tag }, { count: 1, timeoutMs: callbackTimeoutMs });
      if (!first) return noCallback(s);
      s.ctx.progress(`first callback answered 500; waiting up to ${retryWindowMs} ms for the retry`);
      const [, ok] = await s.waitFor({ tag: fields.tag }, { count: 2, timeoutMs: retryWindowMs });
      if (!ok) {
        return s.skip(`the 500 answer was not retried within timing.retryWindowMs (${retryWindowMs} ms), so there is no 2xx after which retries could stop (see service.callback.retry-back-off)`);
      }
      const script = `listener script: ${STOP_SCRIPT.join(', ')}`;
      const gap = ok.receivedAt - first.receivedAt;
      // DESIGN.md: retryWindowMs is how long deliveries are watched; the watch ends with it.
      const watch = Math.min(windowLeft(first, retryWindowMs), Math.max(callbackTimeoutMs, Math.round(3 * gap)));
      s.ctx.progress(`the retry was answered ${ok.answeredStatus}; watching ${watch} ms for further deliveries`);
      const all = await s.waitFor({ tag: fields.tag }, { count: Number.POSITIVE_INFINITY, timeoutMs: watch });
      const further = all.filter((d) => d.seq > ok.seq);
      const timeline = timelineOf(s, all);
      if (further.length > 0) {
        return s.warn(`${further.length} further deliver${further.length === 1 ? 'y' : 'ies'} after the retry was answered ${ok.answeredStatus}, ${Math.round(further[0]!.receivedAt - ok.receivedAt)} ms later (at-least-once allows repeats, but any 2xx should end the retries, §4.3; a service that counts only 200 as delivered retries after a ${ok.answeredStatus})`, { timeline, notes: [script] });
      }
      return s.pass({ timeline, notes: [script, `no delivery within ${watch} ms after the ${ok.answeredStatus}`] });
    },
  }),
];
