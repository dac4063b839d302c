// receiver.confirm (§6 rule 5, §4.2) against confirming receivers of the tests' own making
// (fixtures/confirming-receiver.ts): what each case says of the queries it saw (how many, refused,
// strays), and of the record (gone, FAILED, an action while pending), where no fault switch of
// the reference receiver goes, and when the status endpoint fails. The query cases and a late
// endpoint: confirm-query-answers.test.ts (split so their waits overlap across workers).
import { describe, expect, it } from 'vitest';
import { appliesAnyway, confirmCases, DEADLINE_MS, labels, notes, one, unsigned } from './fixtures/confirm-answers.ts';
import type { Asked, ConfirmPolicy } from './fixtures/confirming-receiver.ts';
import { StallWatch } from '../../harness/cases/index.ts';

describe('a correct confirming receiver of this file\'s making', () => {
  it('every confirm case PASSes (on a loaded machine, a case whose query the kit itself was too late for is ERROR for the kit\'s delay, never FAIL)', async () => {
    const stalls = new StallWatch();
    const results = await confirmCases({});
    // This receiver gives up on its query after 300 ms (half the deadline): a stall of the kit's
    // (and this receiver's) process that long can make it give up, honestly ERROR status-answer-late.
    const stalled = stalls.stop() >= DEADLINE_MS / 2 - 50;
    const kitLate = (r: (typeof results)[number]) => stalled && r.verdict === 'ERROR' && r.stated?.causes?.includes('status-answer-late') === true;
    const judged = results.filter((r) => !kitLate(r));
    expect(judged.map((r) => [r.id, r.verdict, r.reason])).toEqual(judged.map((r) => [r.id, 'PASS', undefined]));
    expect(results).toHaveLength(9);
  });
});
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

describe('an endpoint that fails, and a callback never answered', () => {
  // A receiver that fails open on one failure of the endpoint only: each case scripts the failure it names.
  // Its query limit twice the deadline: a dropped connection or a 503 seen late on a loaded machine
  // is still that failure, not a query it gave up on (at half the deadline, a drop read as no answer).
  const appliesOn = (failure: (r: Asked) => boolean): ConfirmPolicy => ({
    apply: (r, held) => (failure(r) ? { state: 'SUCCESS', actions: held.actions + 1 } : held), reply: () => 200, queryLimitMs: 2 * DEADLINE_MS,
  });
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

describe.concurrent('a status answer the harness gave only after the receiver had given up (the kit\'s delay, a loaded machine)', () => {
  // The harness's endpoint 1.2 s late on purpose (StatusEndpointOptions.delayFor); the receiver's own limit is 300 ms.
  const late: ConfirmPolicy = { endpointDelayFor: () => 1200 };
  const only = 'receiver.confirm.contradicted-pending,receiver.confirm.endpoint-error,receiver.confirm.unconfirmed-not-acknowledged';
  it('a correct receiver: each case resting on the answer is ERROR naming the kit\'s endpoint, never PASS or FAIL; the same receiver, the endpoint prompt, PASSes', async () => {
    // receiver.outcome.success-applied: a case expecting a valid SUCCESS applied, which a confirming receiver applies once confirmed.
    const withApplied = `${only},receiver.outcome.success-applied`;
    const [slow, prompt] = await Promise.all([confirmCases(late, withApplied), confirmCases({}, withApplied)]);
    expect(slow.map((r) => [r.id, r.verdict])).toEqual(slow.map((r) => [r.id, 'ERROR']));
    expect(slow).toHaveLength(4);
    const applied = slow.find((r) => r.id === 'receiver.outcome.success-applied')!;
    expect(applied.reason).toMatch(/^the harness's status endpoint answered after \d+ ms, after the receiver had given up on its query .* not judged \(the case saw: answered 503, a valid callback must get 2xx .*; the record reads state pending, actions 0, expected state SUCCESS, actions 1 .*\)$/);
    expect(applied.stated?.causes).toEqual(['status-answer-late']);
    for (const r of slow.filter((x) => x !== applied)) {
      expect(r.reason, r.id).toMatch(/^the harness's status endpoint answered after \d+ ms, after the receiver had given up on its query \(it closed the connection after \d+ ms\) and answered its callback 503: the delay is the kit's \(a loaded machine\?\), not the receiver's, so what the receiver did with this callback is not judged \(the case saw: the record reads state pending, actions 0\)$/);
      expect(r.stated?.causes, r.id).toEqual(['status-answer-late']);
    }
    expect(prompt.map((r) => [r.id, r.verdict, r.reason])).toEqual(prompt.map((r) => [r.id, 'PASS', undefined]));
  }, 15_000);
  it('a receiver that fulfils or acknowledges without a confirmation: its FAIL (a SHOULD\'s WARN) stands, however late the answer', async () => {
    // Two receivers side by side: the endpoint's delay is waited out once.
    const [results, acknowledged] = await Promise.all([
      confirmCases({ ...late, ...appliesAnyway }, only),
      one('unconfirmed-not-acknowledged', { ...late, reply: () => 200 }),
    ]);
    expect(Object.fromEntries(results.map((r) => [r.id, r.verdict]))).toEqual({
      'receiver.confirm.contradicted-pending': 'FAIL', 'receiver.confirm.endpoint-error': 'FAIL', 'receiver.confirm.unconfirmed-not-acknowledged': 'SKIP',
    });
    // A SHOULD: its failure is a WARN, on its own evidence.
    expect(acknowledged.verdict, acknowledged.reason).toBe('WARN');
    expect(acknowledged.reason).toMatch(/^answered 200 to a SUCCESS callback it could not confirm/);
  }, 15_000);
});
