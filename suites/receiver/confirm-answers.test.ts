// receiver.confirm (§6 rule 5, §4.2) against confirming receivers of this file's own making
// (fixtures/confirming-receiver.ts): what each case says of the queries it saw (how many, refused,
// strays, the id asked otherwise), of the record (gone, FAILED, an action while pending) and of
// the reply, where no fault switch of the reference receiver goes.
import { describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { startConfirmingReceiver, type Asked, type ConfirmPolicy } from './fixtures/confirming-receiver.ts';
import { runCases } from '../../harness/runner/index.ts';

async function confirmCases(policy: ConfirmPolicy, only = 'receiver.confirm', targetPatch: Partial<ResolvedReceiverTarget> = {}): Promise<CaseResult[]> {
  const receiver = await startConfirmingReceiver(policy, targetPatch);
  try {
    return await runCases({ cases: RECEIVER_CASES, target: receiver.target, seed: 11, only });
  } finally {
    await receiver.close();
  }
}
const one = async (leaf: string, policy: ConfirmPolicy) => (await confirmCases(policy, `receiver.confirm.${leaf}`))[0]!;

describe('a correct confirming receiver of this file\'s making', () => {
  it('every confirm case PASSes', async () => {
    const results = await confirmCases({});
    expect(results.map((r) => [r.id, r.verdict, r.reason])).toEqual(results.map((r) => [r.id, 'PASS', undefined]));
    expect(results).toHaveLength(9);
  });
});

const notes = (r: CaseResult) => r.evidence?.notes ?? [];
const labels = (r: CaseResult) => (r.evidence?.exchanges ?? []).map((e) => e.label).filter((l) => !l?.startsWith('hooks') && !l?.startsWith('status query'));
/** Applies SUCCESS whatever the status endpoint answered, and replies 200. */
const appliesAnyway: ConfirmPolicy = { apply: (_r, held) => ({ state: 'SUCCESS', actions: held.actions + 1 }), reply: () => 200 };
const unsigned = (q: ReturnType<Parameters<NonNullable<ConfirmPolicy['queries']>>[1]>) => ({ ...q, headers: { ...q.headers, authorization: 'nonsense' } });

describe('what a contradicted case says the receiver asked', () => {
  it('asked twice, applied anyway: "asked the status endpoint 2 times", the callback labelled', async () => {
    const r = await one('contradicted-failed', { ...appliesAnyway, queries: (id, signed) => [signed(id), signed(id)] });
    expect(r.reason).toMatch(/^the record reads state SUCCESS, actions 1 after a SUCCESS callback the status endpoint contradicted; it asked the status endpoint 2 times \(answered FAILED\): §6 rule 5/);
    expect(labels(r)).toEqual(['callback SUCCESS (status endpoint answered FAILED)']);
    expect(notes(r)).toEqual([]);
    expect(r.stated).toBeUndefined();
  });
  it('asked once: "it asked the status endpoint (answered …)", no count', async () => {
    const r = await one('contradicted-failed', appliesAnyway);
    expect(r.reason).toMatch(/; it asked the status endpoint \(answered FAILED\): §6 rule 5/);
  });
  it('its one query refused: "its status query was refused", with the refusal; two: "queries were"', async () => {
    const once = await one('contradicted-pending', { ...appliesAnyway, queries: (id, signed) => [unsigned(signed(id))] });
    expect(once.reason).toMatch(/; its status query was refused \([^)]+\): §6 rule 5/);
    const twice = await one('contradicted-pending', { ...appliesAnyway, queries: (id, signed) => [unsigned(signed(id)), unsigned(signed(id))] });
    expect(twice.reason).toMatch(/; its status queries were refused \([^)]+\): §6 rule 5/);
  });
  it('one refused, one answered: it asked (answered …), not "refused"', async () => {
    const r = await one('contradicted-pending', { ...appliesAnyway, queries: (id, signed) => [unsigned(signed(id)), signed(id)] });
    expect(r.reason).toMatch(/; it asked the status endpoint 2 times \(answered PENDING\): /);
  });
  it('queries naming ids the harness never sent: counted in a note, one or more', async () => {
    const single = await one('contradicted-failed', { ...appliesAnyway, queries: (id, signed) => [signed('not-this-id-1'), signed(id)] });
    expect(notes(single)).toEqual(['1 status query naming no id the harness sent arrived meanwhile']);
    const two = await one('contradicted-failed', { ...appliesAnyway, queries: (id, signed) => [signed('not-this-id-1'), signed('not-this-id-2'), signed(id)] });
    expect(notes(two)).toEqual(['2 status queries naming no id the harness sent arrived meanwhile']);
  });
});

describe('the record after a SUCCESS the status endpoint did not confirm', () => {
  const setTo = (record: { state: string; actions: number } | 'delete'): ConfirmPolicy => ({ apply: () => record, reply: () => 200 });
  it('FAILED with one action, as the answer said: PASS where FAILED was answered, FAIL where PENDING was', async () => {
    expect((await one('contradicted-failed', setTo({ state: 'FAILED', actions: 1 }))).verdict).toBe('PASS');
    expect((await one('contradicted-pending', setTo({ state: 'FAILED', actions: 1 }))).reason).toMatch(/^the record reads state FAILED, actions 1 after a SUCCESS callback/);
  });
  it('FAILED, as none of the other answers said: FAIL for an unknown id and for an endpoint that answered 503', async () => {
    expect((await one('contradicted-unknown', setTo({ state: 'FAILED', actions: 1 }))).reason).toMatch(/^the record reads state FAILED, actions 1 after a SUCCESS callback/);
    expect((await one('endpoint-error', setTo({ state: 'FAILED', actions: 1 }))).reason).toMatch(/^the record reads state FAILED, actions 1 though the status endpoint answered 503; /);
  });
  it('FAILED with two actions: FAIL even where FAILED was answered', async () => {
    expect((await one('contradicted-failed', setTo({ state: 'FAILED', actions: 2 }))).reason).toMatch(/^the record reads state FAILED, actions 2 after a SUCCESS callback .*\(the record ends pending or FAILED, no action for SUCCESS;/);
  });
  it('pending, but an action taken: FAIL', async () => {
    expect((await one('contradicted-pending', setTo({ state: 'pending', actions: 1 }))).reason).toMatch(/^the record reads state pending, actions 1 after/);
  });
  it('deleted: FAIL, the record gone', async () => {
    expect((await one('contradicted-unknown', setTo('delete'))).reason).toMatch(/^the record is gone \(404\) after a SUCCESS callback the status endpoint contradicted/);
  });
  it('marked FAILED when the endpoint failed, and the callback answered 200: unconfirmed-not-acknowledged is not exercised', async () => {
    const r = await one('unconfirmed-not-acknowledged', setTo({ state: 'FAILED', actions: 0 }));
    expect([r.verdict, r.reason]).toEqual(['SKIP', expect.stringMatching(/^not exercised: the receiver did not leave the record unconfirmed \(it reads state FAILED, actions 0\)/)]);
  });
  it('a callback whose connection is dropped: ERROR, no usable answer', async () => {
    const r = await one('contradicted-pending', { reply: () => 'reset' });
    expect([r.verdict, r.reason]).toEqual(['ERROR', expect.stringMatching(/^the callback got no usable answer: /)]);
  });
});

describe('the query cases', () => {
  it('another id altogether: named, no encoding guessed', async () => {
    const r = await one('query-names-transaction-id', { queries: (_id, signed) => [signed('some-other-id')] });
    expect(r.reason).toMatch(/^the status query asked for "some-other-id", not the callback's transaction_id /);
  });
  it('no query at all: both causes stated while the record stays pending; only no-status-query once it was applied (waited for), or is gone', async () => {
    expect((await one('query-signed', { queries: () => [] })).stated?.causes).toEqual(['no-status-query', 'not-applied']);
    const later: ConfirmPolicy = { queries: () => [], replyFirst: true, laterMs: 400, apply: (_r, held) => ({ state: 'SUCCESS', actions: held.actions + 1 }) };
    expect((await one('query-names-transaction-id', later)).stated?.causes).toEqual(['no-status-query']);
    const gone = await one('query-signed', { queries: () => [], apply: () => 'delete' });
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

describe('an endpoint that fails, and a callback never answered', () => {
  // A receiver that fails open on one failure of the endpoint only: each case scripts the failure it names.
  const appliesOn = (failure: (r: Asked) => boolean): ConfirmPolicy => ({ apply: (r, held) => (failure(r) ? { state: 'SUCCESS', actions: held.actions + 1 } : held), reply: () => 200 });
  it('applied on a 503 only: endpoint-error FAILs (its endpoint answers 503, not nothing)', async () => {
    expect((await one('endpoint-error', appliesOn((r) => typeof r === 'object' && r.kind === 'server-error'))).verdict).toBe('FAIL');
  });
  it('applied on a dropped connection only: endpoint-dropped FAILs', async () => {
    expect((await one('endpoint-dropped', appliesOn((r) => r === 'dropped'))).verdict).toBe('FAIL');
  });
  it('answered 200 on a 503 only: unconfirmed-not-acknowledged FAILs', async () => {
    const r = await one('unconfirmed-not-acknowledged', { reply: (r) => (typeof r === 'object' && r.kind === 'server-error' ? 200 : 503) });
    expect(r.reason).toMatch(/^answered 200 to a SUCCESS callback it could not confirm \(the status endpoint answered 503;/);
  });
  it('endpoint-error: a receiver that never replies when it could not confirm, the record left alone: PASS (the reply is another case\'s)', async () => {
    expect((await one('endpoint-error', { reply: () => 'hang' })).verdict).toBe('PASS');
  }, 10_000);
});

describe('receiver.confirm.endpoint-late', () => {
  it('a receiver that asks, replies 503 within the deadline, and applies the late answer once it comes: the case waits for that answer, FAIL', async () => {
    const r = await one('endpoint-late', { replyWithinMs: 300, queryLimitMs: 4000 });
    expect(r.reason).toMatch(/^the record reads state SUCCESS, actions 1 though the status endpoint held its answer for twice the reply deadline; /);
  }, 10_000);
  it('a receiver that replies first and applies the late answer once it comes: the case waits for that answer, FAIL', async () => {
    const r = await one('endpoint-late', { replyFirst: true, queryLimitMs: 4000 });
    expect(r.reason).toMatch(/^the record reads state SUCCESS, actions 1 though the status endpoint held its answer for twice the reply deadline; /);
    expect(r.stated).toBeUndefined();
  }, 10_000);
  it('a receiver whose own limit on the query outlasts the reply deadline: replied over the deadline', async () => {
    const r = await one('endpoint-late', { queryLimitMs: 1500 });
    expect(r.reason).toMatch(/^replied after \d+ ms, over the deadline \(1000 ms\), while the status endpoint held its answer: /);
  }, 10_000);
});
