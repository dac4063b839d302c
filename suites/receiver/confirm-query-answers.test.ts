// receiver.confirm (§6 rule 5, §4.2), the query cases (the id asked otherwise, the query's
// signature), a status endpoint that answers late, and an unknown id named in the form the
// endpoint answered it (the target's confirms.statusForm), against confirming receivers of the tests'
// own making (fixtures/confirming-receiver.ts; split from confirm-answers.test.ts so their waits
// overlap across workers).
import { describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { runCases } from '../../harness/runner/index.ts';
import { freePort } from '../support/free-port.ts';
import { appliesAnyway, confirmCases, DEADLINE_MS, labels, one, unsigned } from './fixtures/confirm-answers.ts';
import { startConfirmingReceiver, type ConfirmPolicy } from './fixtures/confirming-receiver.ts';

/**
 * receiver.confirm.contradicted-unknown against a receiver whose target states the 404 form
 * (`confirms.statusForm`), the status endpoint started by the harness on `confirms.listener`,
 * as in a run from a target file (not provided by the test).
 */
async function unknownStatedAs404(policy: ConfirmPolicy): Promise<CaseResult> {
  const receiver = await startConfirmingReceiver(policy, { timing: { replyDeadlineMs: DEADLINE_MS } }, { letterCase: 'upper', unknownId: 404 }, await freePort());
  try {
    return (await runCases({ cases: RECEIVER_CASES, target: receiver.target, seed: 11, only: 'receiver.confirm.contradicted-unknown', perRequestTimeoutMs: 2000 }))[0]!;
  } finally {
    await receiver.close();
  }
}

describe('the query cases', () => {
  it('another id altogether: named, no encoding guessed', async () => {
    const r = await one('query-names-transaction-id', { queries: (_id, signed) => [signed('some-other-id')] });
    expect(r.reason).toMatch(/^the status query asked for "some-other-id", not the callback's transaction_id /);
  });
  it('no query at all: both causes stated while the record stays pending; only no-status-query once it was applied (waited for), or is gone', async () => {
    // Applied 400 ms after its reply: the record is polled up to the deadline, here the receiver's own 1,000 ms.
    const later: ConfirmPolicy = { queries: () => [], replyFirst: true, laterMs: 400, apply: (_r, held) => ({ state: 'SUCCESS', actions: held.actions + 1 }) };
    // The three side by side, each against a receiver of its own: what each states rests on the
    // record it reads, and each waits out a deadline of its own for nothing but that.
    const [pending, applied, gone] = await Promise.all([
      one('query-signed', { queries: () => [] }),
      one('query-names-transaction-id', later, 1000),
      one('query-signed', { queries: () => [], apply: () => 'delete' }),
    ]);
    expect(pending.stated?.causes).toEqual(['no-status-query', 'not-applied']);
    expect(applied.stated?.causes).toEqual(['no-status-query']);
    expect([gone.verdict, gone.stated?.causes]).toEqual(['FAIL', ['no-status-query']]);
  });
  it('ids of a shape that cannot carry the reserved text: a plain id, noted, PASS', async () => {
    const [r] = await confirmCases({}, 'receiver.confirm.query-names-transaction-id', { transactionIds: { template: 'ORD-{uuid}' } });
    expect([r!.verdict, r!.evidence?.notes]).toEqual(['PASS', [expect.stringMatching(/^a plain id: the target's transactionIds\.template "ORD-\{uuid\}" has no \{id\}/)]]);
  });
  it('the id form-encoded: named as such', async () => {
    const r = await one('query-names-transaction-id', { queries: (id, signed) => [signed(new URLSearchParams({ x: id }).toString().slice(2))] });
    expect(r.reason).toMatch(/ \(the id form-encoded, as for a URL query\), not the callback's transaction_id /);
  });
  it('no readable id in the query: said so, with what was wrong', async () => {
    const r = await one('query-names-transaction-id', { queries: (id, signed) => [{ ...signed(id), body: '{"client_id":1}' }] });
    expect(r.reason).toBe('the status queries that arrived name no transaction_id the harness could read (the body has no transaction_id string)');
  });
  it('query-signed: the first refused query in time is the one named, stray or not', async () => {
    const r = await one('query-signed', { queries: (id, signed) => [{ ...signed('not-this-id-1'), body: 'not json' }, unsigned(signed(id))] });
    expect(r.reason).toMatch(/^the status query \(POST \/\S+\) is not one the service accepts: the body is not JSON; /);
    expect(labels(r)).toEqual(['callback SUCCESS']);
    expect(r.stated).toBeUndefined();
  });
});

describe('receiver.confirm.endpoint-late', () => {
  it('a receiver that asks, replies 503 within the deadline, and applies the late answer once it comes: the case waits for that answer, FAIL', async () => {
    const r = await one('endpoint-late', { replyWithinMs: DEADLINE_MS / 2, queryLimitMs: 4000 });
    expect(r.reason).toMatch(/^the record reads state SUCCESS, actions 1 though the status endpoint held its answer for twice the reply deadline; /);
  }, 10_000);
  it('a receiver that replies first and applies the late answer once it comes: the case waits for that answer, FAIL', async () => {
    const r = await one('endpoint-late', { replyFirst: true, queryLimitMs: 4000 });
    expect(r.reason).toMatch(/^the record reads state SUCCESS, actions 1 though the status endpoint held its answer for twice the reply deadline; /);
    expect(r.stated).toBeUndefined();
  }, 10_000);
  it('one that applies the late answer half a deadline after it comes (as a loaded machine did): the record is watched that long, FAIL', async () => {
    // Read once, the settling time (a tenth of the deadline) after the answer, it PASSed at load 14.
    const r = await one('endpoint-late', { replyWithinMs: DEADLINE_MS / 2, queryLimitMs: 4000, applyAfterMs: DEADLINE_MS / 2 });
    expect(r.reason).toMatch(/^the record reads state SUCCESS, actions 1 though the status endpoint held its answer for twice the reply deadline; /);
  }, 10_000);
  it('a receiver whose own limit on the query outlasts the reply deadline: replied over the deadline', async () => {
    // Between the deadline and the status endpoint's hold (twice the deadline).
    const r = await one('endpoint-late', { queryLimitMs: 1.5 * DEADLINE_MS });
    expect(r.reason).toMatch(new RegExp(`^replied after \\d+ ms, over the deadline \\(${DEADLINE_MS} ms\\), while the status endpoint held its answer: `));
  }, 10_000);
  it('one that gives up on its query, deletes the record it could not confirm, then replies 503: the record is gone, FAIL', async () => {
    // Its own limit 100 ms, far inside the hold (twice the deadline): the record is gone before the reply comes.
    const deletes: ConfirmPolicy = { queryLimitMs: 100, apply: (reading, held) => (reading === 'no-answer' ? 'delete' : held) };
    const r = await one('endpoint-late', deletes);
    expect([r.verdict, r.reason]).toEqual(['FAIL', 'the record is gone (404) though the status endpoint held its answer for twice the reply deadline; it asked the status endpoint (held its answer for twice the reply deadline): an outcome that could not be confirmed is not fulfilled (§6 rule 5)']);
  });
});

describe('a status answer the harness gave late to a receiver that gave no reply at all', () => {
  it('contradicted-pending: ERROR naming the kit\'s endpoint, saying the receiver gave no reply (its callback timed out)', async () => {
    // The endpoint 600 ms late on purpose, the receiver's own limit 100 ms; it never replies (the request times out).
    const r = await one('contradicted-pending', { reply: () => 'hang', queryLimitMs: 100, endpointDelayFor: () => 600 });
    expect(r.verdict, r.reason).toBe('ERROR');
    expect(r.reason).toMatch(/^the harness's status endpoint answered after \d+ ms, after the receiver had given up on its query \(it closed the connection after \d+ ms\) and gave no reply: the delay is the kit's/);
    expect(r.stated?.causes).toEqual(['status-answer-late']);
  }, 10_000);
});

describe('receiver.confirm.contradicted-unknown: the unknown id named as the status endpoint answered it', () => {
  it('"error_code 421" in the default form (the reference\'s); "404" where the target states that form (the harness\'s endpoint answering 404); a receiver that leaves the record alone PASSes', async () => {
    const [byDefault, stated, control] = await Promise.all([one('contradicted-unknown', appliesAnyway), unknownStatedAs404(appliesAnyway), unknownStatedAs404({})]);
    expect(byDefault.reason).toMatch(/^the record reads state SUCCESS, actions 1 after a SUCCESS callback the status endpoint contradicted; it asked the status endpoint \(answered error_code 421, unknown id\): §6 rule 5/);
    expect(stated.reason).toMatch(/^the record reads state SUCCESS, actions 1 after a SUCCESS callback the status endpoint contradicted; it asked the status endpoint \(answered 404, unknown id\): §6 rule 5/);
    expect(labels(stated)).toEqual(['callback SUCCESS (status endpoint answered 404, unknown id)']);
    expect(stated.evidence?.statusQueries?.map((q) => q.response?.status)).toEqual([404]);
    expect([control.verdict, control.reason]).toEqual(['PASS', undefined]);
  });
});
