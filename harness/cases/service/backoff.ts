// §6 Retry: "delivery is retried with exponential back-off". The number of attempts and the
// intervals are not shown, so the suite judges only the shape of what it observes, tolerant of
// timer jitter (10 ms) and of back-off with jitter, whose waits are random:
//   - a step grows when   interval[k] ≥ 1.2 × interval[k−1] − 10 ms
//     (1.2 is well below any back-off factor in use, 1.5–2);
//   - every step grows                       → PASS  (exponential back-off);
//   - not every step, but last ≥ 1.5 × first → PASS  with a note (grows overall, as back-off
//     with jitter does);
//   - 3 or more intervals, each ≤ 10 ms      → FAIL  (immediate retries);
//   - 4 or more intervals, the longest ≤ 1.1 × the shortest + 10 ms → FAIL (constant: a fixed
//     retry delay);
//   - fewer intervals that look constant     → SKIP  (likely a fixed delay, too few to tell);
//   - otherwise (irregular, shrinking)       → SKIP: back-off with FULL jitter (each wait random
//     in [0, min(cap, base·2^k)]) gives any sequence, and a handful of intervals cannot tell it
//     from a schedule that does not grow; judging it would make one correct service PASS on
//     one run and FAIL on the next;
//   - one retry only                         → WARN  (it retried; growth cannot be seen);
//   - no retry, no delivery                  → FAIL.
// How often back-off with full jitter FAILs by chance (1,000,000 seeded runs each, in
// suites/service/backoff.test.ts; base 100 ms with a cap of 2 × base is the worst case in use):
//   3 intervals: 0.03 % at worst (all ≤ 10 ms), 0.0001 % with base 1 s; looking constant then
//                happens in 0.15–1.6 % of runs, which is why 3 do not FAIL as constant;
//   4 intervals: 0.17 % at worst, 0.016 % with base 1 s (cap 2 × base), 0.002 % uncapped;
//   5 intervals: 0.018 % at worst, 0.0003 % with base 1 s, under 0.0001 % uncapped.
// The 10 ms tolerance is for a quiet machine: where the kit's own event loop was seen to run late
// while it noted the deliveries (stall-watch.ts: a busy CI runner), the case judges again with
// that stall as the tolerance, since a delivery noted late makes one interval longer and the next
// shorter, and gives no FAIL, WARN or SKIP that the stall changes (retry.ts).
// The retry case watches two more deliveries when the first two intervals look constant
// (MORE_WHEN_CONSTANT), so a "constant" FAIL rests on 5 intervals where the service and the
// retry window allow (the reference's 5 attempts give 4).
import type { Verdict } from '../../results/index.ts';

export const GROWTH_FACTOR = 1.2;
export const GROWTH_TOLERANCE_MS = 10;
export const OVERALL_GROWTH_FACTOR = 1.5;
/** Intervals are "about the same" when the longest ≤ this × the shortest + GROWTH_TOLERANCE_MS. */
export const CONSTANT_FACTOR = 1.1;
/** Intervals that look constant FAIL only when at least this many were seen (see above). */
export const CONSTANT_MIN_INTERVALS = 4;
/** A retry within this of the previous delivery is immediate. */
export const IMMEDIATE_MS = GROWTH_TOLERANCE_MS;
/** Immediate retries FAIL when at least this many intervals were seen, all immediate. */
export const IMMEDIATE_MIN_INTERVALS = 3;
/** In what % of runs full jitter looks constant by chance on fewer than CONSTANT_MIN_INTERVALS, at worst. */
export const FULL_JITTER_LOOKS_CONSTANT_PERCENT: Readonly<Record<number, number>> = { 2: 15, 3: 1.6 };

export type BackoffJudgement =
  | { kind: 'no-delivery' }
  | { kind: 'no-retry' }
  | { kind: 'single-retry'; intervalMs: number }
  | { kind: 'growing'; intervalsMs: number[] }
  | { kind: 'growing-overall'; intervalsMs: number[]; flatAt: number }
  | { kind: 'immediate'; intervalsMs: number[] }
  | { kind: 'constant'; intervalsMs: number[] }
  | { kind: 'constant-too-few'; intervalsMs: number[] }
  | { kind: 'irregular'; intervalsMs: number[]; flatAt: number };

/** The verdict of each judgement: only a schedule that cannot be back-off with jitter FAILs. */
export const BACKOFF_VERDICT: { readonly [K in BackoffJudgement['kind']]: Verdict } = {
  'no-delivery': 'FAIL',
  'no-retry': 'FAIL',
  'single-retry': 'WARN',
  growing: 'PASS',
  'growing-overall': 'PASS',
  immediate: 'FAIL',
  constant: 'FAIL',
  'constant-too-few': 'SKIP',
  irregular: 'SKIP',
};

export function intervalsOf(offsetsMs: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < offsetsMs.length; i++) out.push(Math.round(offsetsMs[i]! - offsetsMs[i - 1]!));
  return out;
}

export function stepGrows(previousMs: number, nextMs: number, toleranceMs = GROWTH_TOLERANCE_MS): boolean {
  return nextMs >= GROWTH_FACTOR * previousMs - toleranceMs;
}

/** Every interval about the same as the others: a fixed delay (or none), not back-off. */
export function looksConstant(intervalsMs: readonly number[], toleranceMs = GROWTH_TOLERANCE_MS): boolean {
  return Math.max(...intervalsMs) <= CONSTANT_FACTOR * Math.min(...intervalsMs) + toleranceMs;
}

/**
 * Judges the offsets of the deliveries of one transaction, up to and including the first 2xx.
 * `toleranceMs` is the timer jitter allowed for: GROWTH_TOLERANCE_MS on a quiet machine, more when
 * the measuring process was seen to stall (timingTolerance), since a delivery noted late makes
 * one interval longer and the next shorter.
 */
export function judgeBackoff(offsetsMs: readonly number[], toleranceMs = GROWTH_TOLERANCE_MS): BackoffJudgement {
  if (offsetsMs.length === 0) return { kind: 'no-delivery' };
  if (offsetsMs.length === 1) return { kind: 'no-retry' };
  const intervalsMs = intervalsOf(offsetsMs);
  if (intervalsMs.length === 1) return { kind: 'single-retry', intervalMs: intervalsMs[0]! };
  // First: intervals of a few ms each "grow" within the tolerance, yet are immediate retries.
  if (intervalsMs.length >= IMMEDIATE_MIN_INTERVALS && intervalsMs.every((ms) => ms <= toleranceMs)) return { kind: 'immediate', intervalsMs };
  if (looksConstant(intervalsMs, toleranceMs)) return { kind: intervalsMs.length >= CONSTANT_MIN_INTERVALS ? 'constant' : 'constant-too-few', intervalsMs };
  const flatAt = intervalsMs.findIndex((ms, k) => k > 0 && !stepGrows(intervalsMs[k - 1]!, ms, toleranceMs));
  if (flatAt === -1) return { kind: 'growing', intervalsMs };
  if (intervalsMs.at(-1)! >= OVERALL_GROWTH_FACTOR * intervalsMs[0]!) return { kind: 'growing-overall', intervalsMs, flatAt };
  return { kind: 'irregular', intervalsMs, flatAt };
}

/**
 * The timer jitter to allow for when judging intervals measured while `stallMs` was the longest
 * this process's event loop was seen to lag: GROWTH_TOLERANCE_MS, or the stall if longer.
 */
export function timingTolerance(stallMs: number): number {
  return Math.max(GROWTH_TOLERANCE_MS, Math.ceil(stallMs));
}

/**
 * The judgement of offsets noted while the kit's own event loop stalled up to `stallMs`: the
 * quiet machine's, and `blurredBy` the judgement with the stall as the tolerance where that gives
 * another verdict and the quiet one is not a PASS (such a verdict is not given, retry.ts).
 */
export function judgeOnABusyMachine(offsetsMs: readonly number[], stallMs: number): { judgement: BackoffJudgement; blurredBy?: BackoffJudgement } {
  const judgement = judgeBackoff(offsetsMs);
  if (BACKOFF_VERDICT[judgement.kind] === 'PASS') return { judgement };
  // Without a stall the tolerance is the quiet one, and so is the judgement.
  const loaded = judgeBackoff(offsetsMs, timingTolerance(stallMs));
  return BACKOFF_VERDICT[loaded.kind] === BACKOFF_VERDICT[judgement.kind] ? { judgement } : { judgement, blurredBy: loaded };
}
