// service.callback.retry-back-off (§6 Retry): the evidence of the retry schedule and the words of
// each judgement, against the reference with its faults and services of the tests' own making
// (split from callback-answers.test.ts so its waits overlap with the other files').
import { beforeAll, describe, expect, it } from 'vitest';
import { judgeBackoff, judgeOnABusyMachine, BACKOFF_VERDICT } from '../../harness/cases/service/index.ts';
import { TIMING_BLURRED } from '../../harness/cases/index.ts';
import { backoffReason } from '../../harness/cases/service/retry.ts';
import { callingBack, retrying, runBehindFront } from './fixtures/run-case.ts';
import { expectBackoff, NO_RETRY, notes, one, ONE_DELIVERY, paid } from './fixtures/callback-answers.ts';

describe('service.callback.retry-back-off: the evidence of the schedule', () => {
  // Warm first: a worker's first run loads and compiles the case, the listener and fetch, and the
  // deliveries it times come late (a first callback 120-200 ms after the collect instead of 20, a
  // first interval of 376-440 ms for 250, under load), which a test of its own on a cold worker
  // read as a schedule that is not fixed. The timed tests below start warm, as they did when
  // they ran after thirty others in one file.
  beforeAll(async () => {
    await runBehindFront('service.callback.transaction-id-echoed', retrying([]));
  });
  // The schedules below are sent by this process's own timers: on a busy machine they arrive
  // stretched, and where what arrived reads otherwise the test holds the case to that reading
  // (fixtures/callback-answers.ts, expectBackoff). Their intervals are long enough that at load 16
  // most runs still arrive as sent; the words that rest on the schedule are checked on those.
  it('a repeat after the 200: not part of the failing phase, the growing schedule PASSes', async () => {
    const r = await runBehindFront('service.callback.retry-back-off', retrying([150, 300, 600], { afterMs: [5] }));
    if (!expectBackoff(r, [150, 300, 600], ['PASS', undefined])) return;
    expect(r.evidence!.timeline!.offsetsMs).toHaveLength(4);
    expect(notes(r)[0]).toBe('listener script: 500, 500, 500, 200');
  });
  it('a fixed 250 ms delay: the script extended once the first intervals look constant, FAIL on five intervals', async () => {
    // 250 ms: "about the same" allows 35 ms of spread, room for a loaded machine's timers.
    // A window the six deliveries fit in even stretched (715, 646, 869 ms for 250 were seen at load
    // 15): the case ends at the 200, so it costs nothing on a quiet machine.
    const r = await runBehindFront('service.callback.retry-back-off', retrying([250, 250, 250, 250, 250]), { target: () => ({ timing: { callbackTimeoutMs: 2000, retryWindowMs: 8000 } }) });
    // Extended or not, the listener's script and the deliveries timed agree.
    const extended = notes(r)[0] === 'listener script: 500, 500, 500, then (the first intervals looking constant) 500, 500, 200';
    expect(r.evidence!.timeline!.offsetsMs).toHaveLength(extended ? 6 : 4);
    // Five intervals that look constant need the script extended: arrived as sent, it was.
    if (!expectBackoff(r, [250, 250, 250, 250, 250], ['FAIL', /^intervals \d+, \d+, \d+, \d+, \d+ ms stay about the same \(the longest within 1\.1 × the shortest \+ 10 ms\): a fixed retry delay, not exponential back-off$/])) return;
    expect(extended).toBe(true);
  });
  it('the words of each judgement (known answers: an immediate schedule is timing-fragile end to end on a loaded machine)', () => {
    expect(backoffReason({ kind: 'immediate', intervalsMs: [1, 2, 3] }, 2500)).toBe('intervals 1, 2, 3 ms, each within 10 ms: retried immediately, not with exponential back-off');
    expect(backoffReason({ kind: 'no-retry' }, 2500)).toBe('the callback was answered 500 and not retried within timing.retryWindowMs (2500 ms)');
    expect(backoffReason({ kind: 'single-retry', intervalMs: 40 }, 2500)).toBe('a single retry, after 40 ms, then none within the window: the back-off cannot be seen to grow');
    for (const kind of ['growing', 'no-delivery'] as const) expect(backoffReason(kind === 'growing' ? { kind, intervalsMs: [1, 2] } : { kind }, 2500)).toBe('');
  });
  it('a flat step in a schedule that grows overall: PASS, naming the step', async () => {
    const r = await runBehindFront('service.callback.retry-back-off', retrying([200, 100, 600]));
    if (!expectBackoff(r, [200, 100, 600], ['PASS', undefined])) return;
    expect(notes(r)).toContain('the intervals grow overall (the last ≥ 1.5 × the first), though interval 2 does not on its own: as back-off with jitter does');
  });
  it('the kit stalled while it timed: a schedule the stall would read otherwise is not judged (SKIP), the stall noted', async () => {
    // 60, 120, 30 ms is irregular (SKIP) with 10 ms of jitter allowed, immediate (FAIL) with the
    // 300 ms stall's: the kit gives neither.
    const r = await runBehindFront('service.callback.retry-back-off', retrying([60, 120, 30], { blockMs: 300 }));
    const stalled = notes(r).find((n) => n.startsWith("the kit's event loop was seen to run up to "));
    const stallMs = Number(/up to (\d+) ms/.exec(stalled ?? '')?.[1]);
    expect(stallMs).toBeGreaterThanOrEqual(250);
    const { offsetsMs, intervalsMs } = r.evidence!.timeline!;
    // Sent by this process's timers, the schedule may arrive stretched on a busy machine (at load
    // 20, 30 ms arrived long enough that the three read as growing): where it no longer reads as
    // sent, the case judges what arrived, and the stall's blurring is what the judgement says of it.
    if (judgeBackoff(offsetsMs).kind !== 'irregular' || intervalsMs.some((ms) => ms > stallMs)) {
      console.warn(`${r.id}: the schedule arrived reshaped (intervals ${intervalsMs.join(', ')} ms for 60, 120, 30 sent): ${r.verdict} ${r.reason ?? ''}`);
      const { judgement, blurredBy } = judgeOnABusyMachine(offsetsMs, stallMs);
      if (!blurredBy) return void expect(r.verdict).toBe(BACKOFF_VERDICT[judgement.kind]);
    }
    expect(r.reason).toMatch(new RegExp(`^${TIMING_BLURRED} up to \\d+ ms late while it timed the deliveries`));
  });
  it('a callback only at another tag: no callback, the case never times a schedule of nothing', async () => {
    const r = await runBehindFront('service.callback.retry-back-off',
      callingBack(paid, undefined, (url, query) => `${url.replace(/\/cb\/[^/?#]+/, '/cb/stray')}?${query}`),
      { target: () => ({ timing: { callbackTimeoutMs: 300, retryWindowMs: 600 } }) });
    expect(r.reason).toBe('no callback arrived within timing.callbackTimeoutMs (300 ms) of an accepted transaction (§3: reaching a terminal state triggers one callback)');
  });

  it('the reference: PASS, the failing phase timed from the collect (up to the 200), the script and the rule noted', async () => {
    const r = await one('service.callback.retry-back-off');
    // The reference's retries after 200, 400, 800 ms run on this process's timers: on a busy
    // machine they arrive stretched (419, 440 ms for 200, 400 at load 16, the script then extended
    // for a schedule that looked constant); the evidence is the same.
    const asSent = expectBackoff(r, [200, 400, 800], ['PASS', undefined]);
    const { offsetsMs, intervalsMs } = r.evidence!.timeline!;
    if (asSent) expect(offsetsMs).toHaveLength(4);
    // From the collect: the first callback comes after the reference's 50 ms of processing, within the case.
    expect(offsetsMs[0]).toBeGreaterThanOrEqual(25);
    expect(offsetsMs.at(-1)).toBeLessThanOrEqual(r.durationMs);
    expect(intervalsMs).toEqual(offsetsMs.slice(1).map((o, i) => o - offsetsMs[i]!));
    if (asSent) expect(notes(r).filter((n) => !n.startsWith('the kit\'s event loop was seen'))).toEqual(['listener script: 500, 500, 500, 200', `offsets ${offsetsMs.join(', ')} ms; intervals ${intervalsMs.join(', ')} ms`, expect.stringMatching(/^rule: a step grows when/)]);
    else expect(notes(r).slice(1, 3)).toEqual([`offsets ${offsetsMs.join(', ')} ms; intervals ${intervalsMs.join(', ')} ms`, expect.stringMatching(/^rule: a step grows when/)]);
  });
  it('one delivery, then none: the stop noted, intervals none', async () => {
    const r = await one('service.callback.retry-back-off', ['no-retry'], NO_RETRY);
    expect(notes(r)).toContain(`offsets ${r.evidence!.timeline!.offsetsMs[0]} ms; intervals none ms`);
    expect(notes(r)[0]).toBe('listener script: 500, 500, 500, 200');
    expect(notes(r)).toContainEqual(expect.stringMatching(/^the service stopped after 1 delivery within timing\.retryWindowMs \(\d+ ms\) while the listener still answered 500$/));
  });
  it('a single retry: stopped after 2 deliveries', async () => {
    const r = await one('service.callback.retry-back-off', ['single-retry'], ONE_DELIVERY);
    expect(notes(r)).toContainEqual(expect.stringMatching(/^the service stopped after 2 deliveries within/));
    // One interval is no sign of a fixed delay: the script is not extended.
    expect(notes(r)[0]).toBe('listener script: 500, 500, 500, 200');
  });
});
