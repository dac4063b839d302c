// receiver.idempotence (§6 rule 2, §6 Semantics) on receivers no fault switch of the reference
// makes (rules-fronts.ts), and receivers that apply from a queue after answering: the cases wait
// for the first callback to apply. Split from rules-answers.test.ts so the two overlap.
import { describe, expect, it } from 'vitest';
import { NOTHING_APPLIED, answering, behindFront, checked, duplicatesAnswered, handingOn, labels, queued, withReference } from './rules-fronts.ts';

withReference();

describe('receiver.idempotence: the other outcome after one was applied', () => {
  it('the first never applied: FAIL stating not-applied', async () => {
    const r = await behindFront('receiver.idempotence.conflicting-after-applied', answering(200), NOTHING_APPLIED);
    expect(r.verdict).toBe('FAIL');
    expect(r.stated?.causes).toEqual(['not-applied']);
  });
  it('applied, the late one answered 409: FAIL on the answer, no cause stated, each callback labelled', async () => {
    const r = await behindFront('receiver.idempotence.conflicting-after-applied', duplicatesAnswered(409));
    expect(r.reason).toMatch(/^the late FAILED callback was answered 409: any non-2xx makes the service retry/);
    expect(r.stated).toBeUndefined();
    expect(labels(r)).toEqual(['callback SUCCESS', 'callback FAILED, after SUCCESS']);
  });
  it('the first applied as the other outcome: FAIL, not stated as not-applied (the record is not pending)', async () => {
    const r = await behindFront('receiver.idempotence.conflicting-after-applied', handingOn(undefined, (q) => q.set('status', 'FAILED')));
    expect(r.reason).toMatch(/^the record reads state FAILED\b/);
    expect(r.stated).toBeUndefined();
  });
  it('a receiver that replies at once and applies from a queue: the case waits for the first to apply, PASS', async () => {
    // The three side by side, each behind a queue of its own and with ids of its own (a seed each):
    // each waits 300 ms of a 1,000 ms deadline.
    const ids = ['receiver.idempotence.conflicting-after-applied', 'receiver.idempotence.success-after-failed', 'receiver.idempotence.after-applied'];
    const results = await Promise.all(ids.map((id, i) => behindFront(id, queued({ restMs: 0 }), { seed: 7 + i })));
    expect(results.map((r) => [r.id, r.verdict, r.reason])).toEqual(ids.map((id) => [id, 'PASS', undefined]));
  });
});

describe('a receiver that applies every callback from a queue, 300 ms after answering', () => {
  // The whole run, preflight included: its valid callback measures how late this receiver
  // applies, and a case that expects no change reads that late, twice over.
  it('PENDING applied as SUCCESS, later: FAIL on the record (read after the settle time alone, it PASSed)', async () => {
    const [r] = await checked('receiver.outcome.unknown-status-pending', queued({ rewrite: (q) => { if (q.get('status') === 'PENDING') q.set('status', 'SUCCESS'); } }));
    expect(r!.verdict).toBe('FAIL');
    expect(r!.reason).toMatch(/^the record changed to state SUCCESS/);
    expect(r!.evidence?.notes).toContainEqual(expect.stringMatching(/^late actions were waited for \d+ ms before the record was read: this receiver took up to \d+ ms in this run to apply a valid callback after answering it$/));
  });
  it('the preflight\'s callback dropped, so nothing measured: the cases read after the settle time, not held waiting for a measure', async () => {
    let first = true;
    const queue = queued();
    const results = await checked('receiver.outcome.unknown-status-pending', (req, res, pass) => {
      if (first) { first = false; return void req.socket.destroy(); }
      queue(req, res, pass);
    });
    expect(results[0]!.durationMs).toBeLessThan(5000);
    expect(results[0]!.evidence?.notes ?? []).not.toContainEqual(expect.stringMatching(/^late actions were waited for/));
  });
  it('applying as sent, late: the cases that expect no change PASS, and the duplicate ones', async () => {
    const results = await checked('receiver.outcome.unknown-status-pending,receiver.outcome.missing-status,receiver.idempotence.after-applied', queued());
    expect(results.map((r) => [r.id, r.verdict, r.reason])).toEqual(results.map((r) => [r.id, 'PASS', undefined]));
    expect(results).toHaveLength(3);
  });
});

describe('receiver.idempotence.after-applied: the first callback must apply before a repeat is judged', () => {
  it('never applied: FAIL saying so, stating not-applied', async () => {
    const r = await behindFront('receiver.idempotence.after-applied', answering(200), NOTHING_APPLIED);
    expect(r.reason).toMatch(/^the first callback was not applied \(the record reads state pending\b.*\), so a repeat cannot be judged$/);
    expect(r.stated?.causes).toEqual(['not-applied']);
  });
  it('applied as FAILED: FAIL, no not-applied cause', async () => {
    const r = await behindFront('receiver.idempotence.after-applied', handingOn(undefined, (q) => q.set('status', 'FAILED')));
    expect(r.reason).toMatch(/^the first callback was not applied \(the record reads state FAILED\b/);
    expect(r.stated).toBeUndefined();
  });
  it('the repeat answered 500: FAIL, the callbacks labelled', async () => {
    const r = await behindFront('receiver.idempotence.after-applied', duplicatesAnswered(500));
    expect(r.verdict).toBe('FAIL');
    expect(labels(r)).toEqual(['callback', 'the same callback, after it was applied']);
  });
});
