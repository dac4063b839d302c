// §6 Retry: the back-off judgement (harness/cases/service/backoff.ts) and its jitter tolerance.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeBackoff } from '../../harness/cases/service/index.ts';

const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
const numRuns = 300;

function offsets(intervals: readonly number[], start = 50): number[] {
  const out = [start];
  for (const i of intervals) out.push(out.at(-1)! + i);
  return out;
}

describe('§6 Retry: exponential back-off means growing intervals', () => {
  it.each([
    [[], 'no-delivery'],
    [[50], 'no-retry'],
    [[50, 250], 'single-retry'],
    [[50, 250, 650, 1450], 'growing'],
    [[50, 250, 450, 650], 'not-growing'],
    [[50, 450, 650, 850], 'not-growing'],
    [[50, 250, 700, 1000, 2000], 'growing-overall'],
  ] as const)('offsets %j → %s', (given, kind) => {
    expect(judgeBackoff(given).kind).toBe(kind);
  });
  it('exponential back-off with ±25 % jitter is judged growing, step by step or overall: never a FAIL, the same verdict every run', () => {
    fc.assert(fc.property(
      fc.integer({ min: 100, max: 60_000 }), fc.array(fc.double({ min: 0.75, max: 1.25, noNaN: true }), { minLength: 3, maxLength: 5 }),
      (base, jitter) => {
        const intervals = jitter.map((j, k) => Math.round(base * 2 ** k * j));
        expect(['growing', 'growing-overall']).toContain(judgeBackoff(offsets(intervals)).kind);
      },
    ), { seed, numRuns });
  });
  it('a doubling schedule stays "growing" under ±10 ms jitter', () => {
    console.log(`fast-check seed ${seed} (set FC_SEED to repeat)`);
    fc.assert(fc.property(
      fc.integer({ min: 100, max: 60_000 }), fc.double({ min: 1.5, max: 3, noNaN: true }),
      fc.array(fc.integer({ min: -10, max: 10 }), { minLength: 3, maxLength: 3 }),
      (base, factor, jitter) => {
        const intervals = jitter.map((j, k) => Math.round(base * factor ** k) + j);
        expect(judgeBackoff(offsets(intervals)).kind).toBe('growing');
      },
    ), { seed, numRuns });
  });
  it('a constant schedule of 200 ms or more is never judged growing under ±10 ms jitter', () => {
    fc.assert(fc.property(
      fc.integer({ min: 200, max: 60_000 }),
      fc.array(fc.integer({ min: -10, max: 10 }), { minLength: 2, maxLength: 5 }),
      (base, jitter) => {
        const kind = judgeBackoff(offsets(jitter.map((j) => base + j))).kind;
        expect(['not-growing', 'single-retry']).toContain(kind);
      },
    ), { seed, numRuns });
  });
});
