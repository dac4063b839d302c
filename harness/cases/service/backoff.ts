// §6 Retry: "delivery is retried with exponential back-off". The number of attempts and the
// intervals are not shown, so the suite judges only the shape of what it observes, tolerant of
// timer jitter:
//   - a step grows when   interval[k] ≥ 1.2 × interval[k−1] − 10 ms
//     (1.2 is well below any back-off factor in use, 1.5–2; the 10 ms absorb scheduler jitter);
//   - every step grows                       → PASS  (exponential back-off);
//   - not every step, but last ≥ 1.5 × first → PASS  with a note (grows overall: back-off with
//     jitter, the common practice, has steps that do not grow; judging it by its steps would give
//     one service PASS on one run and WARN on the next);
//   - otherwise (constant or shrinking)      → FAIL;
//   - one retry only                         → WARN  (it retried; growth cannot be seen);
//   - no retry, no delivery                  → FAIL.

export const GROWTH_FACTOR = 1.2;
export const GROWTH_TOLERANCE_MS = 10;
export const OVERALL_GROWTH_FACTOR = 1.5;

export type BackoffJudgement =
  | { kind: 'no-delivery' }
  | { kind: 'no-retry' }
  | { kind: 'single-retry'; intervalMs: number }
  | { kind: 'growing'; intervalsMs: number[] }
  | { kind: 'growing-overall'; intervalsMs: number[]; flatAt: number }
  | { kind: 'not-growing'; intervalsMs: number[]; flatAt: number };

export function intervalsOf(offsetsMs: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < offsetsMs.length; i++) out.push(Math.round(offsetsMs[i]! - offsetsMs[i - 1]!));
  return out;
}

export function stepGrows(previousMs: number, nextMs: number): boolean {
  return nextMs >= GROWTH_FACTOR * previousMs - GROWTH_TOLERANCE_MS;
}

/** Judges the offsets of the deliveries of one transaction, up to and including the first 2xx. */
export function judgeBackoff(offsetsMs: readonly number[]): BackoffJudgement {
  if (offsetsMs.length === 0) return { kind: 'no-delivery' };
  if (offsetsMs.length === 1) return { kind: 'no-retry' };
  const intervalsMs = intervalsOf(offsetsMs);
  if (intervalsMs.length === 1) return { kind: 'single-retry', intervalMs: intervalsMs[0]! };
  const flatAt = intervalsMs.findIndex((ms, k) => k > 0 && !stepGrows(intervalsMs[k - 1]!, ms));
  if (flatAt === -1) return { kind: 'growing', intervalsMs };
  const overall = intervalsMs.at(-1)! >= OVERALL_GROWTH_FACTOR * intervalsMs[0]!;
  return overall ? { kind: 'growing-overall', intervalsMs, flatAt } : { kind: 'not-growing', intervalsMs, flatAt };
}
