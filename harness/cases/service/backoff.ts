// §6 Retry: "delivery is retried with exponential back-off". The number of attempts and the
// intervals are not shown, so the suite judges only the shape of what it observes, tolerant of
// timer jitter:
//   - a step grows when   interval[k] ≥ 1.2 × interval[k−1] − 10 ms
//     (1.2 is well below any back-off factor in use, 1.5–2; the 10 ms absorb scheduler jitter);
//   - every step grows                       → PASS  (exponential back-off);
//   - not every step, but last ≥ 1.5 × first → PASS  with a note (grows overall: back-off with
//     jitter, the common practice, has steps that do not grow);
//   - every interval within 1.2 × the shortest + 10 ms → FAIL (constant: a fixed retry delay,
//     or immediate retries);
//   - otherwise (irregular)                  → SKIP: back-off with FULL jitter (each wait random
//     in [0, a cap that doubles]) gives any sequence, and a handful of intervals cannot tell it
//     from a schedule that does not grow; judging it would give one correct service PASS on one
//     run and FAIL on the next;
//   - one retry only                         → WARN  (it retried; growth cannot be seen);
//   - no retry, no delivery                  → FAIL.
// Full jitter looks constant by chance: with 3 intervals in about 0.5 % of runs (1 % with a low
// cap), with 5 in under 0.01 % (seeded simulation in suites/service/backoff.test.ts). So the
// retry case watches two more deliveries when the first two intervals look constant
// (MORE_WHEN_CONSTANT), and a FAIL for "constant" rests on up to 5 intervals.

export const GROWTH_FACTOR = 1.2;
export const GROWTH_TOLERANCE_MS = 10;
export const OVERALL_GROWTH_FACTOR = 1.5;
/** Intervals are "about the same" when the longest ≤ this × the shortest + GROWTH_TOLERANCE_MS. */
export const CONSTANT_FACTOR = 1.2;

export type BackoffJudgement =
  | { kind: 'no-delivery' }
  | { kind: 'no-retry' }
  | { kind: 'single-retry'; intervalMs: number }
  | { kind: 'growing'; intervalsMs: number[] }
  | { kind: 'growing-overall'; intervalsMs: number[]; flatAt: number }
  | { kind: 'constant'; intervalsMs: number[] }
  | { kind: 'irregular'; intervalsMs: number[]; flatAt: number };

export function intervalsOf(offsetsMs: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < offsetsMs.length; i++) out.push(Math.round(offsetsMs[i]! - offsetsMs[i - 1]!));
  return out;
}

export function stepGrows(previousMs: number, nextMs: number): boolean {
  return nextMs >= GROWTH_FACTOR * previousMs - GROWTH_TOLERANCE_MS;
}

/** Every interval about the same as the others: a fixed delay (or none), not back-off. */
export function looksConstant(intervalsMs: readonly number[]): boolean {
  return Math.max(...intervalsMs) <= CONSTANT_FACTOR * Math.min(...intervalsMs) + GROWTH_TOLERANCE_MS;
}

/** Judges the offsets of the deliveries of one transaction, up to and including the first 2xx. */
export function judgeBackoff(offsetsMs: readonly number[]): BackoffJudgement {
  if (offsetsMs.length === 0) return { kind: 'no-delivery' };
  if (offsetsMs.length === 1) return { kind: 'no-retry' };
  const intervalsMs = intervalsOf(offsetsMs);
  if (intervalsMs.length === 1) return { kind: 'single-retry', intervalMs: intervalsMs[0]! };
  // First: intervals of a few ms each "grow" within the tolerance, yet are immediate retries.
  if (looksConstant(intervalsMs)) return { kind: 'constant', intervalsMs };
  const flatAt = intervalsMs.findIndex((ms, k) => k > 0 && !stepGrows(intervalsMs[k - 1]!, ms));
  if (flatAt === -1) return { kind: 'growing', intervalsMs };
  if (intervalsMs.at(-1)! >= OVERALL_GROWTH_FACTOR * intervalsMs[0]!) return { kind: 'growing-overall', intervalsMs, flatAt };
  return { kind: 'irregular', intervalsMs, flatAt };
}
