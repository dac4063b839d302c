// §6 Retry: the back-off judgement (harness/cases/service/backoff.ts) and its jitter tolerance.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVICE_CASES, seededRandom } from '../../harness/cases/index.ts';
import { judgeBackoff } from '../../harness/cases/service/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import { runChecked } from '../../harness/preflight/index.ts';
import { fakeService } from '../support/fake-service.ts';

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
    [[50, 250, 450, 650], 'constant'],
    [[50, 52, 55, 57], 'constant'],
    [[50, 450, 650, 850], 'irregular'],
    [[50, 404, 904, 1036], 'irregular'],
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
  it('a constant schedule of 200 ms or more is judged constant (FAIL) under ±10 ms jitter', () => {
    fc.assert(fc.property(
      fc.integer({ min: 200, max: 60_000 }),
      fc.array(fc.integer({ min: -10, max: 10 }), { minLength: 2, maxLength: 5 }),
      (base, jitter) => {
        const kind = judgeBackoff(offsets(jitter.map((j) => base + j))).kind;
        expect(['constant', 'single-retry']).toContain(kind);
      },
    ), { seed, numRuns });
  });
});

describe('§6 Retry: back-off with full jitter is never a coin flip', () => {
  // Full jitter: each wait random in [0, min(cap, base·2^k)]. How often does it look constant
  // (a FAIL) by chance? The case watches 5 intervals before a "constant" FAIL when it can.
  const CALIBRATION_SEED = 20261123;
  function constantRate(intervals: number, runs: number, capFactor: number): number {
    const random = seededRandom(CALIBRATION_SEED);
    let constant = 0;
    for (let run = 0; run < runs; run++) {
      const waits = Array.from({ length: intervals }, (_, k) => Math.round(random() * 1000 * Math.min(capFactor, 2 ** k)));
      if (judgeBackoff(offsets(waits)).kind === 'constant') constant += 1;
    }
    return constant / runs;
  }
  it(`looks constant in about 1 % of runs with 3 intervals, under 0.05 % with 5 (seed ${CALIBRATION_SEED})`, () => {
    // A cap of 2 × base (reached at the second wait) is the worst case; 1024 is none in effect.
    for (const cap of [2, 1024]) {
      const three = constantRate(3, 100_000, cap);
      const five = constantRate(5, 100_000, cap);
      console.log(`full jitter, cap ${cap} × base: looks constant in ${(100 * three).toFixed(3)} % of runs with 3 intervals, ${(100 * five).toFixed(4)} % with 5`);
      expect(three).toBeLessThan(0.015);
      expect(five).toBeLessThan(0.0005);
    }
  });
  it('an irregular full-jitter schedule is not judged (SKIP), never FAIL: 354, 500, 132 ms', () => {
    expect(judgeBackoff(offsets([354, 500, 132])).kind).toBe('irregular');
  });
});

/** Delivers the callback, then again after each of `intervals` (ms) while the answer is not 2xx. */
function scheduledService(intervals: readonly number[]) {
  return fakeService({
    message: 'Paid in full',
    onCollect: (deliver) => {
      const next = async (k: number): Promise<void> => {
        const status = await deliver();
        if (status !== undefined && status < 300) return;
        if (k < intervals.length) setTimeout(() => void next(k + 1), intervals[k]);
      };
      void next(0);
    },
  });
}

describe('service.callback.retry-back-off against services with their own schedules', () => {
  async function judged(intervals: readonly number[]) {
    const fake = await scheduledService(intervals);
    const reference = await startEmbeddedService({ timing: { retryWindowMs: 4000 } });
    try {
      const target = { ...reference.target, baseUrl: fake.url };
      const { results } = await runChecked({ cases: SERVICE_CASES, target, seed: 4, only: 'service.callback.retry-back-off' });
      return results[0]!;
    } finally {
      await reference.close();
      await fake.close();
    }
  }
  it('full jitter that happened to shrink (354, 500, 132 ms at half scale): SKIP with the schedule as evidence, not FAIL', async () => {
    const result = await judged([177, 250, 66, 400, 800]);
    expect(result).toMatchObject({ verdict: 'SKIP', reason: expect.stringMatching(/^not judged: intervals \d+, \d+, \d+ ms neither grow .* full jitter/) });
    expect(result.evidence?.timeline?.intervalsMs).toHaveLength(3);
  });
  it('a fixed 150 ms delay: the first two intervals look constant, two more deliveries are watched, then FAIL on five', async () => {
    const result = await judged([150, 150, 150, 150, 150, 150]);
    expect(result).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/^intervals (\d+, ){4}\d+ ms stay about the same .* a fixed retry delay/) });
    expect(result.evidence?.notes).toEqual(expect.arrayContaining([expect.stringContaining('then (the first intervals looking constant) 500, 500, 200')]));
  });
});
