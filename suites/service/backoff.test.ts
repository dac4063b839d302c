// §6 Retry: the back-off judgement (harness/cases/service/backoff.ts) and its jitter tolerance, on
// schedules given as numbers. The case against live services with their own schedules:
// backoff-schedules.test.ts (split from here, so its waits overlap this file's CPU across workers).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeBackoff, judgeOnABusyMachine, looksConstant, stepGrows, timingTolerance, BACKOFF_VERDICT, CONSTANT_MIN_INTERVALS, FULL_JITTER_LOOKS_CONSTANT_PERCENT } from '../../harness/cases/service/index.ts';
import { assertProperty } from '../properties/fc-run.ts';
import { seededRandom } from '../../harness/ids/index.ts';

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
    [[50, 250, 700, 1000, 2000], 'growing-overall'],
    [[50, 250, 450, 650, 850, 1050], 'constant'],
    [[50, 250, 455, 650, 858], 'constant'],
    [[50, 52, 55, 57], 'immediate'],
    [[50, 250, 450, 650], 'constant-too-few'],
    [[50, 52, 55], 'constant-too-few'],
    [[50, 450, 650, 850], 'irregular'],
    [[50, 404, 904, 1036], 'irregular'],
    [[50, 850, 1250, 1450, 1550], 'irregular'],
  ] as const)('offsets %j → %s', (given, kind) => {
    expect(judgeBackoff(given).kind).toBe(kind);
  });
  it.each([
    ['constant (a fixed retry delay)', [200, 200, 200, 200], 'FAIL'],
    ['immediate retries', [2, 3, 2], 'FAIL'],
    ['no retry', [], 'FAIL'],
    ['growing', [200, 400, 800], 'PASS'],
    ['growing overall', [200, 450, 300, 900], 'PASS'],
    ['constant on too few intervals', [200, 200, 200], 'SKIP'],
    ['irregular', [354, 500, 132], 'SKIP'],
    ['shrinking', [800, 400, 200, 100], 'SKIP'],
  ] as const)('%s: intervals %j → %s', (_, intervals, verdict) => {
    expect(BACKOFF_VERDICT[judgeBackoff(offsets(intervals)).kind]).toBe(verdict);
  });
  // A delivery noted during a stall of the kit's own process (a busy CI runner): one interval
  // longer, the next shorter, by up to the stall. The tolerance allows for the stall seen.
  it.each([
    ['a fixed 250 ms delay, one delivery noted 32 ms late', [250, 257, 251, 219], 'constant'],
    ['immediate retries, one noted 44 ms late', [1, 2, 45, 1, 2], 'immediate'],
  ] as const)('%s (intervals %j): %s with the 45 ms stall allowed for, not with 10 ms', (_, intervals, kind) => {
    expect(judgeBackoff(offsets(intervals), timingTolerance(45)).kind).toBe(kind);
    expect(judgeBackoff(offsets(intervals)).kind).not.toBe(kind);
  });
  // A verdict the stall would change is not given, unless it is a PASS (retry.ts gives SKIP then).
  it.each([
    ['a fixed 250 ms delay, one delivery noted 32 ms late: irregular at 10 ms, constant at 32: blurred', [250, 257, 251, 219], 32, 'irregular', 'constant'],
    ['a doubling schedule under a 300 ms stall: growing, the PASS stands', [200, 400, 800], 300, 'growing', undefined],
    ['a slowly growing schedule that a 100 ms stall would read as constant: growing, the PASS stands', [200, 260, 320], 100, 'growing', undefined],
    ['a fixed 300 ms delay, a 5 ms stall (under the 10 ms tolerance): constant, not blurred', [300, 300, 300, 300], 5, 'constant', undefined],
    ['a fixed 300 ms delay under a 40 ms stall: constant either way, not blurred', [300, 302, 299, 301], 40, 'constant', undefined],
  ] as const)('%s', (_, intervals, stallMs, kind, blurredKind) => {
    const { judgement, blurredBy } = judgeOnABusyMachine(offsets(intervals), stallMs);
    expect([judgement.kind, blurredBy?.kind]).toEqual([kind, blurredKind]);
  });
  it('the rules at their edges: a step grows at 1.2 × the last − 10 ms; the same within 1.1 × the shortest + 10 ms; overall growth at 1.5 × the first', () => {
    expect([stepGrows(100, 110), stepGrows(100, 109), stepGrows(100, 120, 0), stepGrows(100, 119, 0)]).toEqual([true, false, true, false]);
    expect([looksConstant([100, 120]), looksConstant([100, 121]), looksConstant([120, 100, 110])]).toEqual([true, false, true]);
    expect(judgeBackoff(offsets([100, 140, 150])).kind).toBe('growing-overall');
    expect(judgeBackoff(offsets([100, 140, 149])).kind).toBe('irregular');
  });
  it('the tolerance is 10 ms, or the longest stall seen when longer (rounded up)', () => {
    expect([timingTolerance(0), timingTolerance(9.2), timingTolerance(44.1)]).toEqual([10, 10, 45]);
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
  it('a constant schedule of 200 ms or more under ±10 ms jitter: constant (FAIL) on 4 intervals or more, too few to judge (SKIP) on 2 or 3', () => {
    fc.assert(fc.property(
      fc.integer({ min: 200, max: 60_000 }),
      fc.array(fc.integer({ min: -10, max: 10 }), { minLength: 2, maxLength: 6 }),
      (base, jitter) => {
        const kind = judgeBackoff(offsets(jitter.map((j) => base + j))).kind;
        expect(kind).toBe(jitter.length >= CONSTANT_MIN_INTERVALS ? 'constant' : 'constant-too-few');
      },
    ), { seed, numRuns });
  });
});

describe('§6 Retry: back-off with full jitter is never a coin flip', () => {
  // Full jitter: wait k random in [0, min(cap, base·2^k)]; equal jitter: half of that cap plus a
  // random half; decorrelated: random in [base, 3 × the previous wait], capped (AWS's names).
  type Jitter = 'full' | 'equal' | 'decorrelated';
  function waits(jitter: Jitter, count: number, baseMs: number, capMs: number, random: () => number): number[] {
    const out: number[] = [];
    let previous = baseMs;
    for (let k = 0; k < count; k++) {
      const ceiling = Math.min(capMs, baseMs * 2 ** k);
      if (jitter === 'full') out.push(random() * ceiling);
      else if (jitter === 'equal') out.push(ceiling / 2 + random() * (ceiling / 2));
      else out.push((previous = Math.min(capMs, baseMs + random() * (3 * previous - baseMs))));
    }
    return out.map(Math.round);
  }
  // How often does full jitter FAIL by chance (looking constant, or immediate)? The figures
  // are in backoff.ts's header (from 1,000,000 runs each); this keeps them true on 200,000
  // seeded runs each, a fifth of the CPU for the test suite.
  const CALIBRATION_SEED = 20261123;
  function failRate(intervals: number, baseMs: number, capFactor: number): number {
    const random = seededRandom(CALIBRATION_SEED);
    const runs = 200_000;
    let failed = 0;
    for (let run = 0; run < runs; run++) {
      const kind = judgeBackoff(offsets(waits('full', intervals, baseMs, baseMs * capFactor, random))).kind;
      if (BACKOFF_VERDICT[kind] === 'FAIL') failed += 1;
    }
    return failed / runs;
  }
  it.each([
    // [intervals, base ms, cap as × base, FAILs at most]; base 100 ms with cap 2 × base is the
    // worst case in use, 1024 × base is no cap in effect.
    [3, 100, 2, 0.0004], [3, 1000, 2, 0.00001], [3, 1000, 1024, 0.00001],
    [4, 100, 2, 0.002], [4, 1000, 2, 0.0003], [4, 1000, 1024, 0.00005],
    [5, 100, 2, 0.0003], [5, 1000, 2, 0.00002], [5, 1000, 1024, 0.00001],
  ] as const)(`full jitter, %i intervals, base %i ms, cap %i × base: a FAIL at most in a fraction %f of runs (seed ${CALIBRATION_SEED})`, (intervals, baseMs, capFactor, most) => {
    const rate = failRate(intervals, baseMs, capFactor);
    console.log(`full jitter, ${intervals} intervals, base ${baseMs} ms, cap ${capFactor} × base: FAIL in ${(100 * rate).toFixed(4)} % of runs`);
    expect(rate).toBeLessThanOrEqual(most);
  });
  it.each([2, 3])(`full jitter looks constant on %i intervals by chance in no more runs than the reason of a "too few" SKIP says (seed ${CALIBRATION_SEED})`, (intervals) => {
    const random = seededRandom(CALIBRATION_SEED);
    const runs = 200_000;
    let constant = 0;
    for (let run = 0; run < runs; run++) {
      if (looksConstant(waits('full', intervals, 100, 200, random))) constant += 1;
    }
    console.log(`full jitter, ${intervals} intervals, base 100 ms, cap 2 × base: looks constant in ${(100 * constant / runs).toFixed(2)} % of runs`);
    expect(100 * constant / runs).toBeLessThanOrEqual(FULL_JITTER_LOOKS_CONSTANT_PERCENT[intervals]!);
  });
  it('back-off with full, equal or decorrelated jitter is never FAILed but by the immediate or the constant rule', async () => {
    await assertProperty(fc.property(
      fc.constantFrom<Jitter>('full', 'equal', 'decorrelated'),
      fc.integer({ min: 2, max: 6 }), fc.integer({ min: 100, max: 5_000 }), fc.integer({ min: 1, max: 64 }), fc.integer(),
      (jitter, count, baseMs, capFactor, randomSeed) => {
        const intervals = waits(jitter, count, baseMs, baseMs * capFactor, seededRandom(randomSeed));
        const kind = judgeBackoff(offsets(intervals)).kind;
        if (BACKOFF_VERDICT[kind] !== 'FAIL') return;
        const immediate = count >= 3 && intervals.every((ms) => ms <= 10);
        const constant = count >= CONSTANT_MIN_INTERVALS && Math.max(...intervals) <= 1.1 * Math.min(...intervals) + 10;
        expect(immediate || constant, `${jitter} jitter ${intervals.join(', ')} ms judged ${kind}`).toBe(true);
      },
    ));
  });
  it('an irregular full-jitter schedule is not judged (SKIP), never FAIL: 354, 500, 132 ms', () => {
    expect(judgeBackoff(offsets([354, 500, 132])).kind).toBe('irregular');
  });
});
