// The storm's judgement (harness/storm/judge.ts) on known answers: an attempt log and readings
// written by hand, each case's verdict and the evidence it shows. No receiver, no network.
import { describe, expect, it } from 'vitest';
import { AttemptLog, judgeStorm, percentiles, Readings, StormPlan, type JudgeInput } from '../../harness/storm/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';

const DEADLINE = 100;

function setup(badTokensPct = 0, callbacks = 4) {
  const plan = new StormPlan({ callbacks, ratePerS: 10, duplicates: 2, badTokensPct, seed: 1, tag: 'k' });
  const log = new AttemptLog();
  const readings = new Readings(callbacks);
  for (let i = 0; i < callbacks; i++) readings.set(i, { transaction_id: plan.idOf(i), state: plan.isBadToken(i) ? 'pending' : plan.outcomeOf(i), value: null, actions: plan.isBadToken(i) ? 0 : 1 });
  /** One attempt: intended at `at`, handed over `lag` later, on the wire then, answered `status` after `wire` ms. */
  const attempt = (i: number, { at = 0, lag = 1, wire = 10, status = 200, attemptNo = 1, copy = 0, retryAfterS = Number.NaN } = {}) => {
    const row = log.start(i, copy, attemptNo, plan.tokenOf(i, copy), at, at + lag);
    log.onWire(row, at + lag);
    log.answered(row, at + lag + wire, status, retryAfterS);
    return row;
  };
  const judge = (over: Partial<JudgeInput> = {}): Record<string, CaseResult> => Object.fromEntries(judgeStorm({
    plan, log, readings, replyDeadlineMs: DEADLINE, maxAttempts: 3, countsActions: true, planned: () => true, durationMs: 1000, ...over,
  }).map((r) => [r.id, r]));
  return { plan, log, readings, attempt, judge };
}

describe('percentiles: nearest rank', () => {
  it('1…100 ms: p50 50, p99 99, max 100; none: NaN', () => {
    expect(percentiles(Float64Array.from({ length: 100 }, (_, k) => 100 - k))).toEqual({ samples: 100, p50Ms: 50, p99Ms: 99, maxMs: 100 });
    expect(percentiles(new Float64Array(0)).p99Ms).toBeNaN();
  });
});

describe('storm.exactly-once', () => {
  it('PASS when every record reads its outcome with one action; FAIL naming the first id applied twice, with its whole history', () => {
    const s = setup();
    for (let i = 0; i < 4; i++) { s.attempt(i); s.attempt(i, { copy: 1, at: 5 }); }
    expect(s.judge()['storm.exactly-once']!.verdict).toBe('PASS');
    s.readings.set(2, { transaction_id: s.plan.idOf(2), state: s.plan.outcomeOf(2), value: null, actions: 2 });
    const r = s.judge()['storm.exactly-once']!;
    expect([r.verdict, r.reason]).toEqual(['FAIL', expect.stringContaining(`1 outcome of 4 applied more than once (§6 rule 2: each outcome applied exactly once; first: ${s.plan.idOf(2)}`)]);
    const first = r.evidence!.firstIds![0]!;
    expect(first.transaction_id).toBe(s.plan.idOf(2));
    expect(first.deliveries).toHaveLength(2);
  });
  it('FAIL for a record left in the other outcome; without counted actions only that is seen, and it says so', () => {
    const s = setup();
    for (let i = 0; i < 4; i++) s.attempt(i);
    const other = s.plan.outcomeOf(0) === 'SUCCESS' ? 'FAILED' : 'SUCCESS';
    s.readings.set(0, { transaction_id: s.plan.idOf(0), state: other, value: null });
    const r = s.judge({ countsActions: false })['storm.exactly-once']!;
    expect([r.verdict, r.reason]).toEqual(['FAIL', expect.stringContaining('1 record left in a state other than the outcome sent')]);
    expect(r.evidence!.notes).toContain('the observation counts no actions: a second application of the same outcome cannot be seen, only a state other than the outcome sent');
  });
});

describe('storm.none-lost', () => {
  it('FAIL for an outcome answered 2xx and still pending; an outcome never answered 2xx is not reached, not lost', () => {
    const s = setup();
    for (let i = 0; i < 4; i++) s.attempt(i, { status: i === 3 ? 503 : 200 });
    s.readings.set(3, { transaction_id: s.plan.idOf(3), state: 'pending', value: null, actions: 0 });
    const reached = s.judge()['storm.none-lost']!;
    expect(reached.verdict).toBe('PASS');
    expect(reached.evidence!.notes).toEqual(['1 outcome never got a 2xx in 3 attempts: not reached (the service gives up on them), not lost']);
    s.readings.set(1, { transaction_id: s.plan.idOf(1), state: 'pending', value: null, actions: 0 });
    const lost = s.judge()['storm.none-lost']!;
    expect([lost.verdict, lost.reason]).toEqual(['FAIL', expect.stringContaining(`1 outcome of 4 answered 2xx and never applied`)]);
    expect(lost.evidence!.firstIds![0]!.record).toBe('pending, actions 0');
  });
});

describe('storm.bad-token-inert', () => {
  it('SKIP without bad tokens; PASS when refused and untouched; FAIL when a record changed, or a bad token got 2xx', () => {
    const none = setup(0);
    for (let i = 0; i < 4; i++) none.attempt(i);
    expect(none.judge()['storm.bad-token-inert']!).toMatchObject({ verdict: 'SKIP', reason: expect.stringMatching(/^not exercised: /) });
    const s = setup(100);
    for (let i = 0; i < 4; i++) s.attempt(i, { status: 403 });
    expect(s.judge()['storm.bad-token-inert']!.verdict).toBe('PASS');
    s.readings.set(1, { transaction_id: s.plan.idOf(1), state: 'SUCCESS', value: null, actions: 1 });
    expect(s.judge()['storm.bad-token-inert']!.reason).toContain('1 record of 4 that got only bad tokens changed (§6 rule 1');
    const answered = setup(100);
    for (let i = 0; i < 4; i++) answered.attempt(i, { status: i === 0 ? 200 : 403 });
    expect(answered.judge()['storm.bad-token-inert']!).toMatchObject({ verdict: 'FAIL', reason: expect.stringContaining('got a bad token answered 2xx, though nothing changed') });
  });
});

describe('storm.reply-deadline: from the intended send to the last byte', () => {
  it('PASS within the deadline; FAIL when the receiver is slow, its time split from the kit\'s wait', () => {
    const fast = setup();
    for (let i = 0; i < 4; i++) fast.attempt(i, { wire: 20 });
    expect(fast.judge()['storm.reply-deadline']!).toMatchObject({ verdict: 'PASS', evidence: { latency: { samples: 4, p99Ms: 21 } } });
    const slow = setup();
    for (let i = 0; i < 4; i++) slow.attempt(i, { wire: 150 });
    const r = slow.judge()['storm.reply-deadline']!;
    expect([r.verdict, r.reason]).toEqual(['FAIL', expect.stringContaining('is 151 ms, over the 100 ms deadline (§6 rule 3): 4 attempts of 4 late, 0 with no reply; the wait inside the kit p99 1 ms')]);
    expect(r.evidence!.latencySplit).toMatchObject({ onWire: { p99Ms: 150 }, kitWait: { p99Ms: 1 } });
  });
  it('a timed-out attempt counts as late with its elapsed time, never left out', () => {
    const s = setup();
    for (let i = 0; i < 3; i++) s.attempt(i, { wire: 10 });
    const row = s.log.start(3, 0, 1, 'valid', 0, 1);
    s.log.onWire(row, 1);
    s.log.failed(row, 200, 'timeout');
    const r = s.judge()['storm.reply-deadline']!;
    expect(r.evidence).toMatchObject({ latency: { samples: 4, maxMs: 200, p99Ms: 200 }, timedOut: 1, late: 1 });
    expect(r.verdict).toBe('FAIL');
  });
  it('ERROR when no valid delivery finished: no percentiles in the evidence (NaN is no number report.json takes)', () => {
    const s = setup();
    for (let i = 0; i < 4; i++) s.log.start(i, 0, 1, s.plan.tokenOf(i, 0), 0, 1);
    const r = s.judge()['storm.reply-deadline']!;
    expect([r.verdict, r.reason]).toEqual(['ERROR', 'no valid delivery finished: nothing to time']);
    expect(r.evidence).not.toHaveProperty('latency');
    expect(r.evidence).not.toHaveProperty('latencySplit');
  });
  it('ERROR when only the driver\'s own lateness put the replies over the deadline', () => {
    const s = setup();
    for (let i = 0; i < 4; i++) s.attempt(i, { lag: 150, wire: 10 });
    const r = s.judge({ loopDelay: { p99Ms: 140, maxMs: 160 } })['storm.reply-deadline']!;
    expect([r.verdict, r.reason]).toEqual(['ERROR', expect.stringContaining('only because the driver itself fell behind its schedule (without its own lateness and stalls p99 is 10 ms; its event loop\'s delay p99 140.0 ms)')]);
  });
  it('ERROR when the driver\'s loop stood still while the replies were on the wire (they may have come at once); FAIL when the receiver was late beyond the stall', () => {
    const s = setup();
    // On the wire 1 → 161 ms; the loop stood still 5 → 155 ms, so the replies were noted late.
    for (let i = 0; i < 4; i++) s.attempt(i, { lag: 1, wire: 160 });
    const stalled = s.judge({ stalls: [[5, 155]], loopDelay: { p99Ms: 150, maxMs: 150 } })['storm.reply-deadline']!;
    expect([stalled.verdict, stalled.reason]).toEqual(['ERROR', expect.stringContaining('and its event loop stood still 1 time(s), up to 150 ms, while replies were on the wire (without its own lateness and stalls p99 is 10 ms')]);
    expect(stalled.evidence!.latencySplit).toMatchObject({ driverStalls: { count: 1, longestMs: 150, withinAttemptsMs: 600 } });
    // The same attempts, with the stall before they went out: the receiver's own time.
    expect(s.judge({ stalls: [[-200, -50]] })['storm.reply-deadline']!.verdict).toBe('FAIL');
    // A stall shorter than the receiver's lateness leaves it late: p99 161 − 50 = 111 ms > 100.
    expect(s.judge({ stalls: [[10, 60]] })['storm.reply-deadline']!.verdict).toBe('FAIL');
  });
});

describe('storm.shedding (SHOULD)', () => {
  it('PASS without shedding; PASS when every shed outcome later got a 2xx (its share and time to converge); WARN when some never did', () => {
    const calm = setup();
    for (let i = 0; i < 4; i++) calm.attempt(i);
    expect(calm.judge()['storm.shedding']!).toMatchObject({ verdict: 'PASS', evidence: { notes: ['the receiver never shed load (no 429 or 503 answer)'] } });
    const s = setup();
    for (let i = 0; i < 4; i++) s.attempt(i, { status: 503, retryAfterS: 1 });
    for (let i = 0; i < 3; i++) s.attempt(i, { at: 1000, attemptNo: 2 });
    const warned = s.judge()['storm.shedding']!;
    expect([warned.verdict, warned.reason]).toEqual(['WARN', expect.stringContaining('1 outcome shed with 429 or 503 got no 2xx in 3 attempts')]);
    s.attempt(3, { at: 2000, attemptNo: 2 });
    const converged = s.judge()['storm.shedding']!;
    expect(converged).toMatchObject({ verdict: 'PASS', evidence: { counts: { shedAnswers: 4, shedOutcomes: 4, stillShed: 0, convergeMs: 2011, retryAmplification: 2 } } });
  });
});
