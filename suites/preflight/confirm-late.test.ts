// §6 rule 5 and the kit's own delay: a confirming receiver asks the harness's status endpoint
// (harness/status) before it applies a SUCCESS. When that endpoint answers only after the
// receiver gave up on its query (its own time limit; on a loaded machine the kit is the slow
// one), what the receiver did next says nothing of it: the preflight's confirmation control is
// not judged (not-run) and names the kit's endpoint, the preflight is ERROR, the cases resting on
// it are not run and a case whose own query came back too late is ERROR, never FAIL. The same
// receiver with a prompt endpoint PASSes; a receiver that had its answer in time and still left
// the record pending (it reads one letter case only, or answers 503 whatever it heard) still
// FAILs with the guess. The endpoint is made late on purpose (StatusEndpointOptions.delayFor).
import { describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { runChecked, runPreflight } from '../../harness/preflight/index.ts';
import { lateForReceiver, type ReceivedQuery } from '../../harness/status/index.ts';
import { startConfirmingReceiver, type Asked, type ConfirmPolicy } from '../receiver/fixtures/confirming-receiver.ts';

const WHAT = 'the preflight\'s valid SUCCESS callback, which the harness\'s status endpoint confirms';
/**
 * The receiver's own limit on a status query (a correct one: the kit answers in a few ms, 400 ms
 * with four runs at once at load 15), and how late the endpoint answers: far apart, so a loaded
 * machine keeps their order.
 */
const QUERY_LIMIT_MS = 1000;
const DELAY_MS = 2500;
const TIMING = { replyDeadlineMs: 300 };
const KIT_LATE = /^the harness's status endpoint answered after \d+ ms, after the receiver had given up on its query \(it closed the connection after \d+ ms\) and answered its callback 503: the delay is the kit's \(a loaded machine\?\), not the receiver's, so what the receiver did with this callback is not judged$/;

/** The endpoint late for the first query only (the preflight's), or for every one. */
const firstLate = (): ((id: string) => number) => {
  let n = 0;
  return () => (n++ === 0 ? DELAY_MS : 0);
};
const allLate = () => DELAY_MS;

async function withReceiver<R>(policy: ConfirmPolicy, use: (target: Awaited<ReturnType<typeof startConfirmingReceiver>>['target']) => Promise<R>): Promise<R> {
  const receiver = await startConfirmingReceiver({ queryLimitMs: QUERY_LIMIT_MS, ...policy }, { timing: TIMING });
  try {
    return await use(receiver.target);
  } finally {
    await receiver.close();
  }
}

const preflightWith = (policy: ConfirmPolicy) => withReceiver(policy, (target) => runPreflight({ target, seed: 45, perRequestTimeoutMs: 5000 }));

/** Confirms only a SUCCESS spelled in upper case: the real service's lower case is "not confirmed". */
const readsOnlyUpper: ConfirmPolicy = {
  apply: (r: Asked, held) => (typeof r === 'object' && r.kind === 'status' && r.status === 'SUCCESS' && r.letterCase === 'upper' ? { state: 'SUCCESS', actions: held.actions + 1 } : held),
  reply: (r: Asked) => (typeof r === 'object' && r.kind === 'status' && r.letterCase === 'upper' ? 200 : 503),
};

describe.concurrent('receiver.confirm: the preflight beside a status endpoint that answered after the receiver gave up', () => {
  it('a correct receiver (its own 1 s limit), the endpoint 2.5 s late once: ERROR naming the kit\'s endpoint; both controls not run; one finding', async () => {
    const { preflight, result } = await preflightWith({ endpointDelayFor: firstLate() });
    expect(result.verdict, result.reason).toBe('ERROR');
    expect(result.reason).toMatch(KIT_LATE);
    expect(result.stated?.causes).toEqual(['status-answer-late']);
    expect(preflight.controls.confirmation).toEqual({ state: 'not-run', what: WHAT, observed: expect.stringMatching(KIT_LATE) });
    expect(preflight.controls.refusal).toMatchObject({ state: 'not-run', observed: expect.stringMatching(KIT_LATE), halves: { answer: 'not-run', effect: 'not-run' } });
    expect(preflight.findings).toEqual([expect.objectContaining({ id: 'receiver.status-answer-late', symptom: { kind: 'stated', cause: 'status-answer-late' } })]);
    expect(preflight.findings[0]!.summary).toContain(`${WHAT}: the harness's status endpoint answered after`);
    expect(preflight.findings[0]!.summary).not.toMatch(/letter case|lower case/);
  });
  it('the same receiver, the endpoint prompt: PASS, the control held (the positive control)', async () => {
    const { preflight, result } = await preflightWith({});
    expect(result.verdict, result.reason).toBe('PASS');
    expect(preflight.controls.confirmation?.state).toBe('held');
    expect(preflight.findings).toEqual([]);
  });
  it('a receiver reading upper case only, the endpoint prompt: the control fails with the letter-case guess, the preflight FAILs (nothing hidden)', async () => {
    const { preflight, result } = await preflightWith(readsOnlyUpper);
    expect(result.verdict).toBe('FAIL');
    expect(preflight.controls.confirmation?.state).toBe('failed');
    expect(preflight.controls.confirmation?.observed).toMatch(/answered SUCCESS, but answered 503 and the record reads pending, actions 0; likely it does not read the answer's "status"/);
  });
  it('a receiver that had its answer in time and still answered 503, the record pending: FAIL, not the kit\'s', async () => {
    const { preflight, result } = await preflightWith({ apply: (_r, held) => held, reply: () => 503 });
    expect(result.verdict).toBe('FAIL');
    expect(preflight.controls.confirmation?.state).toBe('failed');
    expect(preflight.findings.map((f) => f.id)).not.toContain('receiver.status-answer-late');
  });
  it('late once for the preflight, the receiver applied nothing: a reply 2xx after giving up is still the kit\'s delay, named as such', async () => {
    // It gave up on the query (closed it), left the record pending and acknowledged: the answer never reached it.
    const { preflight, result } = await preflightWith({ endpointDelayFor: firstLate(), reply: () => 200 });
    expect(result.verdict).toBe('ERROR');
    expect(preflight.controls.confirmation?.observed).toMatch(/it closed the connection after \d+ ms\) and answered its callback 200: the delay is the kit's/);
  });
  it('a receiver that answers 503 while its query is still open (its own reply deadline first), the endpoint late: the kit\'s delay, ERROR', async () => {
    // It stopped waiting without closing the query: the answer came after its reply.
    const { preflight, result } = await preflightWith({ endpointDelayFor: firstLate(), queryLimitMs: 5000, replyWithinMs: 200, apply: (_r, held) => held });
    expect(result.verdict, result.reason).toBe('ERROR');
    expect(preflight.controls.confirmation?.observed).toMatch(/after the receiver had stopped waiting and answered its callback 503 \(\d+ ms after its query\): the delay is the kit's/);
  });
  it('a receiver that gave up on its query and then gave no reply at all: the kit\'s delay is still named, and the reply\'s absence', async () => {
    const { preflight, result } = await withReceiver({ endpointDelayFor: firstLate(), reply: () => 'hang' }, (target) => runPreflight({ target, seed: 45, perRequestTimeoutMs: 3500 }));
    expect(result.verdict, result.reason).toBe('ERROR');
    expect(preflight.controls.confirmation?.observed).toMatch(/\(it closed the connection after \d+ ms\) and gave no reply: the delay is the kit's/);
  });
});

describe.concurrent('receiver.confirm: the cases beside a status endpoint late for every query', () => {
  const only = 'receiver.confirm.contradicted-pending,receiver.confirm.endpoint-error,receiver.outcome.success-applied';
  it('no case FAILs or PASSes on a late answer: each is ERROR naming the kit\'s endpoint', async () => {
    const run = await withReceiver({ endpointDelayFor: allLate }, (target) => runChecked({ cases: RECEIVER_CASES, target, seed: 45, only, perRequestTimeoutMs: 5000 }));
    expect(run.preflight.result.verdict).toBe('ERROR');
    expect(Object.fromEntries(run.results.map((r) => [r.id, r.verdict]))).toEqual({
      'receiver.outcome.success-applied': 'ERROR', 'receiver.confirm.contradicted-pending': 'ERROR', 'receiver.confirm.endpoint-error': 'ERROR',
    });
    for (const r of run.results) {
      expect(r.reason, r.id).toMatch(/^the harness's status endpoint answered after \d+ ms, after the receiver had given up on its query/);
      expect(r.stated?.causes, r.id).toEqual(['status-answer-late']);
    }
  });
  it('the same receiver and cases, the endpoint prompt: every case PASSes', async () => {
    const run = await withReceiver({}, (target) => runChecked({ cases: RECEIVER_CASES, target, seed: 45, only, perRequestTimeoutMs: 5000 }));
    expect(run.preflight.result.verdict).toBe('PASS');
    expect(run.results.map((r) => [r.id, r.verdict, r.reason])).toEqual(run.results.map((r) => [r.id, 'PASS', undefined]));
    expect(run.results).toHaveLength(3);
  });
});

/** A well-formed query as the endpoint records it: arrived at `at`, answered as `answer` says. */
function query(at: number, answer: ReceivedQuery['answer'], extra: Partial<ReceivedQuery> = {}): ReceivedQuery {
  return { at, method: 'GET', target: '/v1/status', headers: {}, askedId: 'id-1', answer, done: Promise.resolve(), ...extra };
}
const answered = (afterMs: number): ReceivedQuery['answer'] => ({ kind: 'answered', httpStatus: 200, body: '{}', afterMs });

describe('lateForReceiver: which evidence says the receiver gave up before the kit answered', () => {
  it('closed before the answer was ready: late, with both times', () => {
    expect(lateForReceiver([query(10, { kind: 'abandoned', afterMs: 100, answerAfterMs: 400 })], undefined)).toEqual({ how: 'closed', answerAfterMs: 400, gaveUpAfterMs: 100 });
  });
  it('answered non-2xx while the query was open, the answer written after: late ("replied")', () => {
    expect(lateForReceiver([query(10, answered(400))], { at: 160, acknowledged: false })).toEqual({ how: 'replied', answerAfterMs: 400, gaveUpAfterMs: 150 });
  });
  it('the answer written before the reply, or the reply 2xx (it replied first by design), or the query after the reply: not late', () => {
    expect(lateForReceiver([query(10, answered(100))], { at: 160, acknowledged: false })).toBeUndefined();
    expect(lateForReceiver([query(10, answered(400))], { at: 160, acknowledged: true })).toBeUndefined();
    expect(lateForReceiver([query(200, answered(400))], { at: 160, acknowledged: false })).toBeUndefined();
    expect(lateForReceiver([query(10, answered(400))], undefined)).toBeUndefined();
  });
  it('one query answered in time among late ones: the receiver had its answer, not late', () => {
    expect(lateForReceiver([query(10, { kind: 'abandoned', afterMs: 100, answerAfterMs: 400 }), query(20, answered(5))], { at: 500, acknowledged: false })).toBeUndefined();
  });
  it('a refused query, a case\'s scripted hold, a held answer given up on: not the kit\'s delay', () => {
    expect(lateForReceiver([query(10, { kind: 'abandoned', afterMs: 100, answerAfterMs: 400 }, { problem: { kind: 'body', detail: 'x' } })], undefined)).toBeUndefined();
    expect(lateForReceiver([query(10, { kind: 'abandoned', afterMs: 100 }, { heldMs: 1200 })], undefined)).toBeUndefined();
    expect(lateForReceiver([query(10, { kind: 'abandoned', afterMs: 100 })], undefined)).toBeUndefined();
    expect(lateForReceiver([], undefined)).toBeUndefined();
  });
});
