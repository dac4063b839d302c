// What every receiver case leans on (harness/cases/receiver/kit.ts): the probe that seeds and
// reads records, sends callbacks and assembles the evidence, and the predicates verdicts rest on.
// Known answers, against a stand-in of the records (the readings a real observer would give, in
// the order given) and a real loopback receiver of the test's own making.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerText, ApplyTimes, appliedOnce, CaseError, expectedOnce, ReceiverProbe, receiverCase, untouched } from '../../harness/cases/index.ts';
import { sleep } from '../../harness/cases/receiver/kit.ts';
import { ObserveError, type ObservedStep } from '../../harness/observe/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';
import type { ReceivedQuery } from '../../harness/status/index.ts';
import {
  ANSWER_200, applied, pending, receiverContext, startStandInReceiver, TOKEN, type ContextOptions, type MadeContext, type StandInReceiver,
} from './fixtures/probe-context.ts';
import { leastMeasured } from '../support/timing.ts';
import { isSuccess } from '../../harness/http/index.ts';

let receiver: StandInReceiver;
beforeAll(async () => { receiver = await startStandInReceiver(); });
afterAll(async () => receiver.close());

/** Every probe a test made, closed after it (as receiverCase closes a case's). */
const made: ReceiverProbe[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((p) => p.close()));
});

interface Made extends MadeContext { probe: ReceiverProbe }
function probeFor(options: ContextOptions = {}): Made {
  const context = receiverContext(receiver.base, options);
  const probe = new ReceiverProbe(context.ctx);
  made.push(probe);
  return { ...context, probe };
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e);
}
async function caseError(promise: Promise<unknown>): Promise<CaseError> {
  const error = await thrown(promise);
  expect(error).toBeInstanceOf(CaseError);
  return error as CaseError;
}
const SUCCESS = { transaction_id: 'cc-probe-x', status: 'SUCCESS' as const, message: 'Payment received' };

describe('the verdict predicates: applied exactly once, untouched, what was expected', () => {
  it.each([
    ['SUCCESS, actions 1', applied('a', 1), true],
    ['SUCCESS, no count observed', applied('a'), true],
    ['SUCCESS, actions 2 (applied twice)', applied('a', 2), false],
    ['SUCCESS, actions 0', applied('a', 0), false],
    ['pending', pending('a', 0), false],
    ['no record', null, false],
  ])('appliedOnce: %s → %s', (_, reading, expected) => {
    expect(appliedOnce(reading, 'SUCCESS')).toBe(expected);
  });
  it('appliedOnce compares the state asked for', () => {
    expect(appliedOnce(applied('a', 1), 'FAILED')).toBe(false);
  });
  it.each([
    ['pending, actions 0', pending('a', 0), true],
    ['pending, no count observed', pending('a'), true],
    ['pending, actions 1 (acted on, state kept)', pending('a', 1), false],
    ['SUCCESS, actions 0', applied('a', 0), false],
    ['no record (deleted)', null, false],
  ])('untouched: %s → %s', (_, reading, expected) => {
    expect(untouched(reading)).toBe(expected);
  });
  it('expectedOnce names the count only when it is observed', () => {
    expect(expectedOnce(applied('a'), 'SUCCESS')).toBe('state SUCCESS');
    expect(expectedOnce(applied('a', 2), 'SUCCESS')).toBe('state SUCCESS, actions 1');
    expect(expectedOnce(null, 'FAILED')).toBe('state FAILED, actions 1');
  });
  it.each([[199, false], [200, true], [204, true], [299, true], [300, false], [403, false]])('isSuccess(%i) → %s', (status, expected) => {
    expect(isSuccess(status)).toBe(expected);
  });
  it('answerText: the status and the body on one line, redacted before it is cut', () => {
    const redactor = new Redactor([TOKEN]);
    expect(answerText({ status: 204, body: '' }, redactor)).toBe('204');
    expect(answerText({ status: 400, body: '  {"error":\n\t"bad"}  ' }, redactor)).toBe('400 {"error": "bad"}');
    expect(answerText({ status: 403, body: `token ${TOKEN} refused` }, redactor)).not.toContain(TOKEN);
  });
});

describe('the probe\'s settle time: a tenth of the reply deadline, from 20 to 300 ms', () => {
  it.each([[100, 20], [400, 40], [1000, 100], [3000, 300], [10_000, 300]])('replyDeadlineMs %i → %i ms', (replyDeadlineMs, settle) => {
    expect(probeFor({ replyDeadlineMs }).probe.settleMs).toBe(settle);
  });
});

describe('what a PASS and a FAIL carry', () => {
  it('a PASS carries what it judged (issue 41): its requests and answers, what it measured, its notes; with nothing, no evidence', () => {
    const { probe } = probeFor();
    expect(probe.pass()).toStrictEqual({ verdict: 'PASS' });
    const latency = { samples: 3, p50Ms: 1, p99Ms: 2, maxMs: 2 };
    expect(probe.pass({ latency })).toStrictEqual({ verdict: 'PASS', evidence: { latency } });
    probe.notes.push('no seeded record: …');
    expect(probe.pass()).toStrictEqual({ verdict: 'PASS', evidence: { notes: ['no seeded record: …'] } });
    const exchange = { label: 'callback SUCCESS', request: { method: 'GET', url: 'http://127.0.0.1:1/cb', headers: {} }, response: { status: 404, durationMs: 3 } };
    probe.http.exchanges.push(exchange);
    expect(probe.pass()).toStrictEqual({ verdict: 'PASS', evidence: { exchanges: [exchange], notes: ['no seeded record: …'] } });
  });
  it('a FAIL joins its reasons, names each stated cause once, and states none when it has none', () => {
    const { probe } = probeFor();
    const failed = probe.fail(['answered 401', 'the record changed'], undefined, ['not-applied', 'not-applied']);
    expect(failed).toMatchObject({ verdict: 'FAIL', reason: 'answered 401; the record changed', causes: ['not-applied'] });
    expect(probe.fail('answered 401')).not.toHaveProperty('causes');
  });
  it('the evidence: exchanges always; records only once something was seeded or read; the probe\'s notes after the caller\'s', async () => {
    const { probe } = probeFor({ records: { reads: [pending('cc-probe-1', 0)], seed: () => [] } });
    expect(probe.evidence()).toStrictEqual({ exchanges: [] });
    await probe.seedOnly('cc-probe-1');
    expect(probe.evidence()).not.toHaveProperty('records');
    probe.notes.push('from the probe');
    expect(probe.evidence().notes).toEqual(['from the probe']);
    expect(probe.evidence({ notes: ['from the case'] }).notes).toEqual(['from the case', 'from the probe']);
    await probe.seed('cc-probe-1');
    expect(probe.evidence().records).toStrictEqual({ way: 'stand-in records', before: pending('cc-probe-1', 0) });
  });
  it('seeding steps pile up in the evidence, in the order they ran', async () => {
    let n = 0;
    const step = (): ObservedStep => ({ request: { seed: ++n }, answer: 'ok', ms: 1 });
    const { probe } = probeFor({ records: { seed: () => [step()] } });
    await probe.seedOnly('a');
    await probe.seedOnly('b');
    expect(probe.readings.seeded).toEqual([{ request: { seed: 1 }, answer: 'ok', ms: 1 }, { request: { seed: 2 }, answer: 'ok', ms: 1 }]);
  });
  it('a black-box receiver\'s probe reads its records as "none"', () => {
    const { probe } = probeFor();
    expect(probe.readings).toStrictEqual({ way: 'none' });
    expect(probe.seeds).toBe(false);
  });
});

describe('seeding: a fresh record must read pending with nothing applied (DESIGN.md)', () => {
  it('pending with actions 0 is kept as "before"', async () => {
    const { probe } = probeFor({ records: { reads: [pending('a', 0)] } });
    await expect(probe.seed('a')).resolves.toEqual(pending('a', 0));
    expect(probe.readings.before).toEqual(pending('a', 0));
  });
  it('pending without a count observed is accepted too', async () => {
    const { probe } = probeFor({ records: { reads: [pending('a')] } });
    await expect(probe.seed('a')).resolves.toEqual(pending('a'));
  });
  it('a record missing right after seeding: ERROR naming the id and how records are read', async () => {
    const { probe } = probeFor({ records: { reads: [null] } });
    expect((await caseError(probe.seed('a'))).message).toBe('the receiver\'s records do not hold "a" right after seeding it (stand-in records)');
  });
  it.each([
    ['already applied', applied('a', 0), 'a freshly seeded record reads state SUCCESS ("paid"), actions 0, DESIGN.md expects state pending, actions 0'],
    ['pending but counted once', pending('a', 1), 'a freshly seeded record reads state pending, actions 1, DESIGN.md expects state pending, actions 0'],
    ['already applied, no count observed', applied('a'), 'a freshly seeded record reads state SUCCESS ("paid"), DESIGN.md expects state pending'],
  ])('%s: ERROR', async (_, reading, message) => {
    const { probe } = probeFor({ records: { reads: [reading] } });
    expect((await caseError(probe.seed('a'))).message).toBe(message);
    expect(probe.readings.before).toBeUndefined();
  });
  it('a case that needs records on a black-box receiver: ERROR saying what it needs', async () => {
    const { probe } = probeFor();
    expect((await caseError(probe.read('a'))).message).toBe('this case needs to see the receiver\'s records (hooksUrl or observe)');
    await caseError(probe.seedOnly('a'));
  });
});

describe('a failing observer: the case is ERROR with its own evidence and what the observer saw', () => {
  const exchange = { label: 'hooks: read', request: { method: 'GET', url: '/records/a', headers: {} } };
  it('an ObserveError keeps its message, its stated cause, and adds its exchanges and records to the case\'s', async () => {
    const failure = new ObserveError('ERR_OBSERVE_HOOK', 'the hooks answered 500', { exchanges: [exchange], records: { way: 'stand-in records', failed: { request: { read: 'a' }, answer: null, ms: 1 } } }, { causes: ['rate-limited'] });
    const { probe } = probeFor({ records: { reads: [pending('a', 0), failure] } });
    await probe.seed('a');
    const error = await caseError(probe.read('a'));
    expect(error.message).toBe('the hooks answered 500');
    expect(error.stated).toEqual({ causes: ['rate-limited'] });
    expect(error.evidence?.exchanges).toEqual([exchange]);
    expect(error.evidence?.records).toEqual({ way: 'stand-in records', before: pending('a', 0), failed: { request: { read: 'a' }, answer: null, ms: 1 } });
  });
  it('an ObserveError without evidence: the case\'s own evidence, nothing added', async () => {
    const { probe } = probeFor({ records: { seed: () => new ObserveError('ERR_OBSERVE_SQL', 'relation "payments" does not exist') } });
    const error = await caseError(probe.seedOnly('a'));
    expect(error.message).toBe('relation "payments" does not exist');
    expect(error.evidence).toStrictEqual({ exchanges: [] });
  });
  it('any other failure is not the observer\'s: it passes through as it was thrown', async () => {
    const bug = new TypeError('a bug of ours');
    const { probe } = probeFor({ records: { reads: [bug] } });
    expect(await thrown(probe.read('a'))).toBe(bug);
  });
});

describe('the settled reading: polled until no longer pending, within the reply deadline', () => {
  it('expecting a change: reads until the record leaves pending, then once more after the settle time, kept as "after"', async () => {
    const { probe, counts } = probeFor({ records: { reads: [pending('a', 0), pending('a', 0), applied('a', 1), applied('a', 2)] } });
    await expect(probe.settledReading('a', true)).resolves.toEqual(applied('a', 2));
    expect(counts.reads).toBe(4);
    expect(probe.readings.after).toEqual(applied('a', 2));
  });
  it('a record that stays pending: polled up to the reply deadline, not beyond', async () => {
    const { probe, counts } = probeFor({ replyDeadlineMs: 200, records: { reads: [pending('a', 0)] } });
    const started = performance.now();
    await expect(probe.settledReading('a', true)).resolves.toEqual(pending('a', 0));
    const took = performance.now() - started;
    // 200 ms of polling every 20 ms, then the 20 ms settle; the upper bound only says it stopped (a loaded machine polls less often).
    expect(took).toBeGreaterThanOrEqual(200);
    expect(took).toBeLessThan(4000);
    expect(counts.reads).toBeGreaterThan(2);
  });
  it('a record read missing mid-way is polled on (a receiver may rewrite it: delete, then insert)', async () => {
    const { probe, counts } = probeFor({ replyDeadlineMs: 2000, records: { reads: [null, null, applied('a', 1)] } });
    await expect(probe.settledReading('a', true)).resolves.toEqual(applied('a', 1));
    expect(counts.reads).toBe(4);
  });
  it('a record missing to the end: "404 (no such record)"', async () => {
    const { probe } = probeFor({ replyDeadlineMs: 100, records: { reads: [null] } });
    await expect(probe.settledReading('a', true)).resolves.toBeNull();
    expect(probe.readings.after).toBe('404 (no such record)');
  });
  it('not expecting a change: one read after the settle time', async () => {
    const { probe, counts } = probeFor({ replyDeadlineMs: 5000, records: { reads: [pending('a', 0), applied('a', 1)] } });
    await expect(probe.settledReading('a', false)).resolves.toEqual(pending('a', 0));
    expect(counts.reads).toBe(1);
  });
  it('time the readings waited at the gate (another case measuring) does not count against the deadline', async () => {
    // Waited 3000 ms before the polling began: the deadline is still 100 ms of polling. Counting the
    // wait the wrong way round stops at the first read, or polls 6 s more.
    const { probe, counts } = probeFor({ replyDeadlineMs: 100, waitedMs: 3000, records: { reads: [pending('a', 0)] } });
    const started = performance.now();
    await probe.settledReading('a', true);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(100);
    expect(took).toBeLessThan(3000);
    expect(counts.reads).toBeGreaterThan(2);
  });
  it('an aborted case stops waiting at once, within a wait too', async () => {
    // One wait of 300 ms (the settle time), aborted after 30: not waited out, then read.
    const abort = new AbortController();
    const { probe, counts } = probeFor({ replyDeadlineMs: 3000, signal: abort.signal, records: { reads: [pending('a', 0)] } });
    setTimeout(() => abort.abort(), 30);
    expect(await thrown(probe.settledReading('a', false))).toMatchObject({ message: 'the case was aborted' });
    expect(counts.reads).toBe(0);
  });
  it('an aborted case stops polling at once', async () => {
    const abort = new AbortController();
    const { probe } = probeFor({ replyDeadlineMs: 60_000, signal: abort.signal, records: { reads: [pending('a', 0)] } });
    const started = performance.now();
    setTimeout(() => abort.abort(), 50);
    expect(await thrown(probe.settledReading('a', true))).toMatchObject({ message: 'the case was aborted' });
    expect(performance.now() - started).toBeLessThan(5000);
    // Already aborted: no read at all.
    await expect(thrown(probe.settledReading('a', false))).resolves.toMatchObject({ message: 'the case was aborted' });
  });
});

describe('the wait for late actions: as long as the receiver takes to apply, twice over (a receiver applying from a queue)', () => {
  const timed = async (read: Promise<unknown>) => { const started = performance.now(); await read; return performance.now() - started; };
  it('a change first seen on the first read: 0 ms measured, the wait stays the settle time, no note', async () => {
    const applyTimes = new ApplyTimes();
    const { probe } = probeFor({ replyDeadlineMs: 1000, applyTimes, records: { reads: [applied('a', 1)] } });
    await probe.settledReading('a', true);
    expect(applyTimes.longestOf(probe.target)).toBeLessThan(20);
    expect(await probe.quietMs()).toBe(100);
    expect(probe.notes).toEqual([]);
  });
  it('a change seen after polling: measured from the answer to the read that showed it', async () => {
    const applyTimes = new ApplyTimes();
    const { probe } = probeFor({ replyDeadlineMs: 1000, applyTimes, records: { reads: [pending('a', 0), pending('a', 0), pending('a', 0), applied('a', 1)] } });
    await probe.settledReading('a', true);
    // Three polls of 20 ms at least before the fourth read, each timer up to a millisecond early (support/timing.ts).
    expect(applyTimes.longestOf(probe.target)).toBeGreaterThanOrEqual(leastMeasured(60, 3));
  });
  it('a receiver seen applying 100 ms late: a case expecting no change reads 200 ms after the answer (not the settle time, 100 ms), and says why', async () => {
    const applyTimes = new ApplyTimes();
    const { probe, counts } = probeFor({ replyDeadlineMs: 1000, applyTimes, records: { reads: [pending('a', 0)] } });
    applyTimes.measured(probe.target, 100);
    applyTimes.measured(probe.target, 60);
    // One 200 ms timer (support/timing.ts: it may end a millisecond early).
    expect(await timed(probe.settledReading('a', false))).toBeGreaterThanOrEqual(leastMeasured(200));
    expect(counts.reads).toBe(1);
    expect(probe.notes).toEqual(['late actions were waited for 200 ms before the record was read: this receiver took up to 100 ms in this run to apply a valid callback after answering it']);
    // Said once per case.
    await probe.settledReading('a', false);
    expect(probe.notes).toHaveLength(1);
  });
  it('at most twice the reply deadline', async () => {
    const applyTimes = new ApplyTimes();
    const { probe } = probeFor({ replyDeadlineMs: 200, applyTimes, records: { reads: [pending('a', 0)] } });
    applyTimes.measured(probe.target, 5000);
    expect(await probe.quietMs()).toBe(400);
  });
  it('a measure under way (the preflight\'s): the wait is decided once it ends, with what it saw', async () => {
    const applyTimes = new ApplyTimes();
    const { probe } = probeFor({ replyDeadlineMs: 1000, applyTimes, records: { reads: [pending('a', 0)] } });
    const end = applyTimes.beginMeasure(probe.target);
    const quiet = probe.quietMs();
    setTimeout(() => applyTimes.measured(probe.target, 300), 50);
    expect(await quiet).toBe(600);
    end();
    // Ended without a measure (no change seen): the settle time.
    const other = probeFor({ replyDeadlineMs: 1000, applyTimes: new ApplyTimes(), records: { reads: [pending('a', 0)] } });
    const stop = other.probe.ctx.resources.applyTimes.beginMeasure(other.probe.target);
    setTimeout(stop, 30);
    expect(await other.probe.quietMs()).toBe(100);
  });
  it('time the reads waited at the gate (another case measuring) is not counted as the receiver\'s', async () => {
    const applyTimes = new ApplyTimes();
    const { probe } = probeFor({ replyDeadlineMs: 1000, waitedMs: 3000, applyTimes, records: { reads: [applied('a', 1)] } });
    await probe.settledReading('a', true);
    expect(applyTimes.longestOf(probe.target)).toBeLessThan(20);
  });
  it('a case already aborted, the measure under way: rejects at once', async () => {
    const applyTimes = new ApplyTimes();
    const { probe } = probeFor({ replyDeadlineMs: 1000, applyTimes, signal: AbortSignal.abort(), records: { reads: [pending('a', 0)] } });
    applyTimes.beginMeasure(probe.target);
    expect(await thrown(probe.quietMs())).toMatchObject({ message: 'the case was aborted' });
  });
  it('sleep: an already aborted case does not wait at all', async () => {
    const started = performance.now();
    expect(await thrown(sleep(5000, AbortSignal.abort()))).toMatchObject({ message: 'the case was aborted' });
    expect(performance.now() - started).toBeLessThan(1000);
  });
  it('a case aborted while the measure is under way stops waiting', async () => {
    const abort = new AbortController();
    const applyTimes = new ApplyTimes();
    const { probe } = probeFor({ replyDeadlineMs: 1000, applyTimes, signal: abort.signal, records: { reads: [pending('a', 0)] } });
    applyTimes.beginMeasure(probe.target);
    setTimeout(() => abort.abort(), 30);
    expect(await thrown(probe.quietMs())).toMatchObject({ message: 'the case was aborted' });
  });
});

describe('sending a callback', () => {
  it('the configured token, labelled by its status, composed on the target\'s URL', async () => {
    receiver.received.length = 0;
    const { probe } = probeFor();
    const sent = await probe.callback(SUCCESS);
    expect(sent.answer.status).toBe(200);
    expect(receiver.received[0]?.headers['x-callback-token']).toBe(TOKEN);
    expect(receiver.received[0]?.url).toBe('/callback?transaction_id=cc-probe-x&status=SUCCESS&message=Payment+received');
    expect(probe.http.exchanges[0]?.label).toBe('callback SUCCESS');
    expect(probe.notes).toEqual([]);
  });
  it('no token: no header, whether asked for or none is configured', async () => {
    receiver.received.length = 0;
    const none = probeFor().probe;
    await none.callback(SUCCESS, { token: 'none' });
    expect(none.notes).toEqual([]);
    const { probe } = probeFor({ token: null });
    await probe.callback(SUCCESS);
    expect(receiver.received.map((r) => r.headers['x-callback-token'])).toEqual([undefined, undefined]);
    expect(probe.notes).toEqual([]);
  });
  it('a variant\'s header lines go as given, and the evidence notes which were sent', async () => {
    receiver.received.length = 0;
    const { probe } = probeFor();
    await probe.callback(SUCCESS, { token: { headers: [{ name: 'X-Callback-Token', value: 'other' }], describe: 'a wrong token' }, label: 'callback with a wrong token' });
    expect(receiver.received[0]?.headers['x-callback-token']).toBe('other');
    expect(probe.notes).toEqual(['X-Callback-Token sent: a wrong token']);
    expect(probe.http.exchanges[0]?.label).toBe('callback with a wrong token');
  });
  it('a parameter left out, and one appended', async () => {
    receiver.received.length = 0;
    const { probe } = probeFor();
    await probe.callback(SUCCESS, { omit: 'message', append: '&channel=mobile' });
    expect(receiver.received[0]?.url).toBe('/callback?transaction_id=cc-probe-x&status=SUCCESS&channel=mobile');
  });
  it('no usable answer: ERROR, unless the case tolerates it', async () => {
    const { probe } = probeFor();
    const closed = 'http://127.0.0.1:1/callback';
    expect((await caseError(probe.callback(SUCCESS, { callbackUrl: closed }))).message).toMatch(/^the callback got no usable answer: /);
    await expect(probe.callback(SUCCESS, { callbackUrl: closed }, true)).resolves.toMatchObject({ ok: false });
  });
  it('a 429 that waiting did not end: ERROR under the shared cause rate-limited, not a verdict on the rule', async () => {
    receiver.answer = (_req, res) => res.writeHead(429, { 'retry-after': '0' }).end();
    try {
      const { probe } = probeFor();
      const error = await caseError(probe.callback(SUCCESS));
      expect(error.stated).toEqual({ causes: ['rate-limited'] });
      expect(probe.notes[0]).toMatch(/^answered 429 Too Many Requests \(Retry-After: 0\); sent again once after waiting \d\.\d s$/);
    } finally {
      receiver.answer = ANSWER_200;
    }
  });
});

describe('a confirming receiver: the status endpoint is told every callback, and its queries join the evidence', () => {
  const query = (id: string, at: number): ReceivedQuery => ({
    at, method: 'POST', target: '/api/v1.0/transaction_status/', headers: {}, askedId: id,
    answer: { kind: 'answered', httpStatus: 200, body: '{"status":"SUCCESS"}', afterMs: 1 }, done: Promise.resolve(),
  });
  it('told the id and status; the queries naming it are evidence unless the case gives its own', async () => {
    const { probe, told } = probeFor({ confirms: { queries: [query('cc-probe-x', performance.now()), query('other', performance.now())] } });
    expect(probe.evidence()).not.toHaveProperty('statusQueries');
    await probe.callback(SUCCESS);
    expect(told).toEqual([['cc-probe-x', 'SUCCESS']]);
    expect(probe.evidence().statusQueries).toHaveLength(1);
    expect((probe.evidence().statusQueries as unknown[])[0]).toMatchObject({ label: 'status query received', response: { status: 200 } });
    expect(probe.evidence({ statusQueries: [] }).statusQueries).toEqual([]);
  });
  it('no query yet: no statusQueries in the evidence', async () => {
    const { probe } = probeFor({ confirms: {} });
    await probe.callback(SUCCESS);
    expect(probe.evidence()).not.toHaveProperty('statusQueries');
  });
  it('an endpoint the harness could not serve: ERROR with its reason, before any callback goes', async () => {
    receiver.received.length = 0;
    const { probe } = probeFor({ confirms: { held: { ok: false, reason: 'port 8099 is in use' } } });
    expect((await caseError(probe.callback(SUCCESS))).message).toBe('port 8099 is in use');
    expect(receiver.received).toEqual([]);
  });
  it('a target without "confirms" has no endpoint to give', async () => {
    const blackBox = probeFor();
    (blackBox.probe.ctx.resources as unknown as { statusEndpoints: { of: () => Promise<undefined> } }).statusEndpoints.of = async () => undefined;
    expect((await caseError(blackBox.probe.statusEndpoint())).message).toBe('the target file has no "confirms": the harness serves no status endpoint for it');
  });
});

describe('receiverCase: the check gets a probe, closed afterwards whatever it returns', () => {
  it('closes the probe\'s connections after a check that throws', async () => {
    let seen: ReceiverProbe | undefined;
    const failing = receiverCase({ id: 'receiver.x', title: 't', specRef: '§6', level: 'MUST', needs: [] }, async (probe) => {
      seen = probe;
      await probe.callback(SUCCESS);
      throw new Error('the check failed');
    });
    const { probe } = probeFor();
    await expect(failing.run(probe.ctx)).rejects.toThrow('the check failed');
    expect(seen).toBeDefined();
    // Closed: the client refuses further requests.
    expect(await seen!.http.send({ label: 'after close', url: `${receiver.base}/x` }).then((r) => r.ok, () => false)).toBe(false);
  });
});
