// §6 Retry: service.callback.retry-back-off against live services of the tests' own making, each
// with its own retry schedule (split from backoff.test.ts, which proves the judgement on schedules
// given as numbers). Each run goes through runSide, the layer the command and the library use;
// the reference service is started only for its target (the listener's timing), the collect goes
// to the fake service.
import { describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { runSide } from '../../harness/run/index.ts';
import { fakeService } from '../support/fake-service.ts';
import { expectBackoff } from './fixtures/callback-answers.ts';

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
  /** `retryWindowMs`: how long the case watches for retries (a service that stops early is watched to its end). */
  async function judged(intervals: readonly number[], retryWindowMs = 4000) {
    const fake = await scheduledService(intervals);
    const reference = await startEmbeddedService({ timing: { retryWindowMs } });
    try {
      const target = { ...reference.target, baseUrl: fake.url };
      const { results } = await runSide({ cases: SERVICE_CASES, target, seed: 4, only: 'service.callback.retry-back-off' });
      return results[0]!;
    } finally {
      await reference.close();
      await fake.close();
    }
  }
  it('full jitter that happened to shrink (354, 500, 132 ms at half scale): SKIP with the schedule as evidence, not FAIL', async () => {
    const result = await judged([177, 250, 66, 400, 800]);
    // The fake's timers share this process: at load 8 with four workers its 66 ms interval once
    // arrived long enough that the three read as growing overall (PASS). Such a run did not send
    // the schedule under test, and the case is held to what arrived (expectBackoff).
    if (!expectBackoff(result, [177, 250, 66], ['SKIP', /^not judged: intervals \d+, \d+, \d+ ms neither grow .* full jitter/])) return;
    expect(result.evidence?.timeline?.intervalsMs).toHaveLength(3);
  });
  // 300 ms: the band of "about the same" (× 1.1 + 10 ms) leaves 40 ms for a loaded machine's jitter.
  it('a fixed 300 ms delay: the first two intervals look constant, two more deliveries are watched, then FAIL on five', async () => {
    const result = await judged([300, 300, 300, 300, 300, 300]);
    if (!expectBackoff(result, [300, 300, 300, 300, 300], ['FAIL', /^intervals (\d+, ){4}\d+ ms stay about the same .* a fixed retry delay/])) return;
    expect(result.evidence?.notes).toEqual(expect.arrayContaining([expect.stringContaining('then (the first intervals looking constant) 500, 500, 200')]));
  });
  it('a fixed 300 ms delay from a service that gives up after three retries: SKIP, likely a fixed delay, too few intervals to tell from full jitter', async () => {
    // Its four deliveries end about 1 s in; the window it is watched to the end of is 2.5 s, not 4.
    const result = await judged([300, 300, 300], 2500);
    expectBackoff(result, [300, 300, 300], ['SKIP', /^not judged: intervals \d+, \d+, \d+ ms stay about the same .* likely a fixed retry delay, but back-off with full jitter .* up to 1\.6 % of runs with 3 intervals/]);
  });
  // Immediate retries are judged on offsets above (intervals of 10 ms or less): live, on loopback,
  // each interval is a round trip that a busy two-core runner stretches past 10 ms and at times
  // makes look growing, so no live test here holds it to FAIL.
});
