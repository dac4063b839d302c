// receiver.token (§6 rule 1), judged on answers no fault of the embedded receiver gives: a stand-in
// receiver answers by the header it got, the stand-in records read as the test says. What each
// variant sends is proven on the wire in suites/cases/http-evidence.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIVER_CASES, TOKEN_VARIANTS, type CaseOutcome } from '../../harness/cases/index.ts';
import { applied, pending, receiverContext, startStandInReceiver, TOKEN, type ContextOptions, type StandInReceiver } from './fixtures/probe-context.ts';
import { seededRandom } from '../../harness/ids/index.ts';

let receiver: StandInReceiver;
beforeAll(async () => { receiver = await startStandInReceiver(); });
afterAll(async () => receiver.close());

function run(id: string, options: ContextOptions = {}): Promise<CaseOutcome> {
  const found = RECEIVER_CASES.find((c) => c.id === id);
  if (!found) throw new Error(`no receiver case ${id}`);
  return found.run(receiverContext(receiver.base, options).ctx);
}

/** Answers `exact` to the token under the name X-Callback-Token, `lower` under x-callback-token, `other` to anything else. */
function answerBy(statuses: { exact?: number; lower?: number; other?: number }): void {
  receiver.answer = (req, res) => {
    const i = req.rawHeaders.findIndex((h, n) => n % 2 === 0 && /^x-callback-token$/i.test(h));
    const name = i >= 0 ? req.rawHeaders[i] : undefined;
    const right = i >= 0 && req.rawHeaders[i + 1] === TOKEN;
    const status = !right ? statuses.other ?? 403 : name === 'x-callback-token' ? statuses.lower ?? 404 : statuses.exact ?? 404;
    res.writeHead(status).end();
  };
}

describe('§6 rule 1: a wrong token is random, as long as the configured one, never the configured one', () => {
  const wrong = TOKEN_VARIANTS.find((v) => v.leaf === 'wrong')!;
  const sent = (token: string, random: () => number): string => {
    const choice = wrong.make(token, random, 'T');
    if (typeof choice === 'string') throw new Error(choice);
    return choice.headers[0]!.value;
  };
  it('a token shorter than 8 characters gets a wrong one of 8', () => {
    expect(sent('ab1', seededRandom(3))).toMatch(/^[a-z0-9]{8}$/);
  });
  it('drawn again when the draw is the configured token', () => {
    // The first eight draws spell "aaaaaaaa" (index 0), the next eight "bbbbbbbb".
    let n = 0;
    const draws = () => (n++ < 8 ? 0 : 1 / 36);
    expect(sent('aaaaaaaa', draws)).toBe('bbbbbbbb');
  });
  it('the same seed draws the same wrong token', () => {
    expect(sent(TOKEN, seededRandom(5))).toBe(sent(TOKEN, seededRandom(5)));
    expect(sent(TOKEN, seededRandom(5))).toHaveLength(TOKEN.length);
  });
  it('different-case swaps every letter\'s case and keeps the rest', () => {
    const choice = TOKEN_VARIANTS.find((v) => v.leaf === 'different-case')!.make('aB-3c', seededRandom(1), 'T');
    expect(typeof choice !== 'string' && choice.headers[0]!.value).toBe('Ab-3C');
  });
});

describe('§6 rule 1: a refused token gets exactly 403 and the record stays untouched (receiver.token.wrong)', () => {
  it('403, record untouched: PASS resting on the record, read once after the settle time (no change expected, none polled for)', async () => {
    answerBy({ other: 403 });
    const made = receiverContext(receiver.base, { records: { reads: [pending('a', 0)] } });
    const outcome = await RECEIVER_CASES.find((c) => c.id === 'receiver.token.wrong')!.run(made.ctx);
    expect(outcome).toMatchObject({ verdict: 'PASS', restsOn: 'effect' });
    expect(made.counts.reads).toBe(2);
  });
  it('no header at all: the evidence says which variant was sent', async () => {
    answerBy({ other: 401 });
    const outcome = await run('receiver.token.missing');
    expect(outcome.evidence?.notes).toContain('X-Callback-Token sent: no header');
    expect(outcome.evidence?.exchanges?.[0]?.label).toBe('callback with no header');
  });
  it('403, but the outcome applied: FAIL on the record, not on the answer', async () => {
    answerBy({ other: 403 });
    const outcome = await run('receiver.token.wrong', { records: { reads: [pending('a', 0), applied('a', 1)] } });
    expect(outcome.verdict).toBe('FAIL');
    expect(outcome.reason).toBe('the record changed to state SUCCESS ("paid"), actions 1: §6 rule 1 says the receiver takes no action');
    expect(outcome.restsOn).toBeUndefined();
  });
  it('401, record untouched: FAIL resting on the answer alone', async () => {
    answerBy({ other: 401 });
    const outcome = await run('receiver.token.wrong', { records: { reads: [pending('a', 0)] } });
    expect(outcome).toMatchObject({ verdict: 'FAIL', reason: 'answered 401; §6 rule 1 says 403', restsOn: 'answer' });
  });
  it('200 and applied: FAIL naming both, resting on more than the answer', async () => {
    answerBy({ other: 200 });
    const outcome = await run('receiver.token.wrong', { records: { reads: [pending('a', 0), applied('a', 1)] } });
    expect(outcome.verdict).toBe('FAIL');
    expect(outcome.reason).toMatch(/^answered 200; §6 rule 1 says 403; the record changed to state SUCCESS/);
    expect(outcome.restsOn).toBeUndefined();
  });
  it('a black-box receiver: 403 is a PASS on the answer, noting that no record was watched', async () => {
    answerBy({ other: 403 });
    const outcome = await run('receiver.token.wrong');
    expect(outcome).toMatchObject({ verdict: 'PASS', restsOn: 'answer' });
    expect(outcome.evidence?.notes?.[0]).toMatch(/^no seeded record .*: only the answer is judged, not whether the receiver acted$/);
  });
  it('a token without letters: different-case is SKIP, and nothing is sent', async () => {
    receiver.received.length = 0;
    const outcome = await run('receiver.token.different-case', { token: '1234-5678' });
    expect(outcome).toStrictEqual({ verdict: 'SKIP', reason: 'the configured token has no letters, so it has no different-case variant' });
    expect(receiver.received).toEqual([]);
  });
});

describe('§6 rule 1: the configured token is accepted and the outcome applied exactly once (receiver.token.valid)', () => {
  it('2xx and applied once: PASS', async () => {
    answerBy({ exact: 200 });
    await expect(run('receiver.token.valid', { records: { reads: [pending('a', 0), applied('a', 1)] } })).resolves.toMatchObject({ verdict: 'PASS' });
  });
  it('2xx and left pending: FAIL, stating the cause not-applied', async () => {
    answerBy({ exact: 200 });
    const outcome = await run('receiver.token.valid', { records: { reads: [pending('a', 0)] } });
    expect(outcome).toMatchObject({ verdict: 'FAIL', causes: ['not-applied'] });
    expect(outcome.reason).toBe('the record reads state pending, actions 0, expected state SUCCESS, actions 1 (§6 rule 1: applied exactly once)');
  });
  it('2xx and applied twice: FAIL, no cause stated (it was applied)', async () => {
    answerBy({ exact: 200 });
    const outcome = await run('receiver.token.valid', { records: { reads: [pending('a', 0), applied('a', 2)] } });
    expect(outcome.verdict).toBe('FAIL');
    expect(outcome).not.toHaveProperty('causes');
  });
  it('500 though applied: FAIL on the answer', async () => {
    answerBy({ exact: 500 });
    const outcome = await run('receiver.token.valid', { records: { reads: [pending('a', 0), applied('a', 1)] } });
    expect(outcome).toMatchObject({ verdict: 'FAIL', reason: 'answered 500, a valid callback must get 2xx (§4.3: any non-2xx causes a retry)' });
  });
});

describe('§6 rule 1, RFC 9110 §5.1: the configured token under the lower-case name is accepted (receiver.token.valid-lowercase-name)', () => {
  describe('a black-box receiver: the id is unknown to it, so any 2xx or 4xx but a refusal passes', () => {
    it.each([200, 204, 299, 400, 404, 422, 499])('answered %i: PASS', async (status) => {
      answerBy({ lower: status });
      await expect(run('receiver.token.valid-lowercase-name')).resolves.toMatchObject({ verdict: 'PASS' });
    });
    it.each([302, 399, 500, 503])('answered %i: FAIL, with no control sent', async (status) => {
      answerBy({ lower: status });
      receiver.received.length = 0;
      const outcome = await run('receiver.token.valid-lowercase-name');
      expect(outcome).toMatchObject({ verdict: 'FAIL', reason: `answered ${status}, neither 2xx nor a 4xx other than 401/403` });
      expect(receiver.received).toHaveLength(1);
    });
  });
  it.each([401, 403])('refused (%i) under the lower-case name, accepted under the exact one: FAIL, the name is matched case-sensitively', async (status) => {
    answerBy({ lower: status, exact: 404 });
    receiver.received.length = 0;
    const outcome = await run('receiver.token.valid-lowercase-name');
    expect(outcome.verdict).toBe('FAIL');
    expect(outcome.reason).toMatch(new RegExp(`^answered ${status}, neither 2xx nor a 4xx other than 401/403; the same callback with the token as X-Callback-Token was not refused \\(answered 404\\): the header name is likely matched case-sensitively`));
    expect(receiver.received.map((r) => r.rawHeaders.find((h) => /^x-callback-token$/i.test(h)))).toEqual(['x-callback-token', 'X-Callback-Token']);
    expect(outcome.evidence?.exchanges?.map((e) => e.label)).toEqual(['callback with the configured token as x-callback-token', 'control: the same callback as X-Callback-Token']);
  });
  it.each([401, 403])('refused under both names (control %i): ERROR, the token itself is refused, nothing said about the name', async (control) => {
    answerBy({ lower: 403, exact: control });
    const outcome = await run('receiver.token.valid-lowercase-name');
    expect(outcome.verdict).toBe('ERROR');
    expect(outcome.reason).toMatch(new RegExp(`^answered 403, neither 2xx nor a 4xx other than 401/403; but the configured token was refused as X-Callback-Token too \\(answered ${control}\\)`));
    expect(outcome.evidence?.exchanges).toHaveLength(2);
  });
  it('with records: refused and not applied, the control callback gets a seeded record of its own', async () => {
    answerBy({ lower: 403, exact: 200 });
    const made = receiverContext(receiver.base, { records: { reads: [pending('a', 0)] } });
    const found = RECEIVER_CASES.find((c) => c.id === 'receiver.token.valid-lowercase-name')!;
    const outcome = await found.run(made.ctx);
    expect(outcome.verdict).toBe('FAIL');
    expect(outcome.reason).toMatch(/^answered 403, a valid callback must get 2xx .*; the record reads state pending, actions 0, expected state SUCCESS, actions 1 .*; the same callback with the token as X-Callback-Token was not refused \(answered 200\)/);
    // Seeded and read back for the case's record, polled, then seeded and read back for the control's.
    expect(made.counts.reads).toBeGreaterThan(3);
  });
  it('with records: accepted and applied once is a PASS, and no control is sent', async () => {
    answerBy({ lower: 200 });
    receiver.received.length = 0;
    await expect(run('receiver.token.valid-lowercase-name', { records: { reads: [pending('a', 0), applied('a', 1)] } })).resolves.toMatchObject({ verdict: 'PASS' });
    expect(receiver.received).toHaveLength(1);
  });
});
