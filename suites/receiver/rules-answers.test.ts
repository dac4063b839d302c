// receiver.outcome (§4.3, §6 Parameters) and records gone or duplicated, on receivers no fault
// switch of the reference makes (rules-fronts.ts): what each case's verdict rests on, and what it
// states. The idempotence cases that wait for a late apply: rules-answers-late.test.ts.
import { describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { guardNegatives } from '../../harness/preflight/index.ts';
import type { Preflight } from '../../harness/preflight/index.ts';
import { NOTHING_APPLIED, answering, behindFront, duplicatesAnswered, handingOn, labels, losingRecords, withReference } from './rules-fronts.ts';

withReference();

describe('receiver.outcome: a callback that must change nothing, answered 2xx or 4xx (DESIGN.md)', () => {
  it.each([200, 299, 400, 499])('%i, nothing applied: PASS', async (status) => {
    expect((await behindFront('receiver.outcome.unknown-status-pending', answering(status))).verdict).toBe('PASS');
  });
  it.each([300, 500])('%i: FAIL naming the answer', async (status) => {
    const r = await behindFront('receiver.outcome.unknown-status-pending', answering(status));
    expect(r.reason).toMatch(new RegExp(`^answered ${status} to a callback with status=PENDING; any 2xx or 4xx is accepted there \\(DESIGN\\.md\\), a 5xx makes the service retry$`));
  });
  it('a callback without transaction_id applied (to the record just seeded): FAIL saying there is no record to apply it to', async () => {
    let seeded = '';
    const r = await behindFront('receiver.outcome.missing-transaction-id', handingOn(undefined, (q) => q.set('transaction_id', seeded)), {
      onHook: (req, _res, forward) => {
        if (req.method === 'POST') req.on('data', (c: Buffer) => { seeded = (JSON.parse(c.toString('utf8')) as { transaction_id: string }).transaction_id; });
        forward();
      },
    });
    expect(r.reason).toMatch(/ on a callback without transaction_id: with no transaction_id there is no record to apply it to \(§4\.3, §6 Parameters\), so nothing is to change$/);
  });
  it('a callback without status applied (as SUCCESS): FAIL saying there is no outcome to apply', async () => {
    const r = await behindFront('receiver.outcome.missing-status', handingOn(undefined, (q) => q.set('status', 'SUCCESS')));
    expect(r.reason).toMatch(/^the record changed to .* on a callback without status: with no status there is no outcome to apply \(§4\.3, §6 Parameters\), so nothing is to change$/);
  });
});

describe('receiver.outcome: a FAIL on the answer alone rests on the answer (the preflight guard)', () => {
  // The refusal control failed on its answer half: a valid callback got no 2xx either.
  const preflight: Preflight = {
    side: 'receiver', findings: [],
    controls: { refusal: { state: 'failed', what: 'a valid callback', observed: 'answered 500', halves: { answer: 'failed', effect: 'held' } } },
  };
  const guarded = guardNegatives(RECEIVER_CASES, preflight);
  it('500 and nothing applied: the FAIL rests on the answer, ERROR beside the failed control', async () => {
    const r = await behindFront('receiver.outcome.unknown-status-pending', answering(500), { cases: guarded });
    expect(r.verdict).toBe('ERROR');
    expect(r.reason).toMatch(/so this answer likely shares its cause$/);
  });
  it('500 and the record changed: a finding on the effect too, FAIL stands', async () => {
    const r = await behindFront('receiver.outcome.unknown-status-pending', handingOn(500, (q) => q.set('status', 'SUCCESS')), { cases: guarded });
    expect(r.verdict).toBe('FAIL');
  });
});

describe('receiver.outcome.unknown-id', () => {
  it('answered 500: FAIL naming the answer, the callback labelled, the reading before shown as 404', async () => {
    const r = await behindFront('receiver.outcome.unknown-id', answering(500));
    expect((r.evidence?.records as { before?: unknown } | undefined)?.before).toBe('404 (no such record)');
    expect(r.reason).toMatch(/^answered 500; for an unknown transaction_id any 2xx or 4xx is accepted \(DESIGN\.md\), a 5xx makes the service retry$/);
    expect(labels(r)).toEqual(['callback for an id never seeded']);
  });
  it('an id the receiver already holds before the callback: ERROR, never judged', async () => {
    const r = await behindFront('receiver.outcome.unknown-id', answering(200), {
      onHook: (req, res, forward) => {
        const id = /\/transactions\/([^/?]+)$/.exec(req.url ?? '')?.[1];
        if (req.method !== 'GET' || !id) return forward();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ transaction_id: decodeURIComponent(id), state: 'pending', actions: 0 }));
      },
    });
    expect([r.verdict, r.reason]).toEqual(['ERROR', expect.stringMatching(/^the receiver already holds "[^"]+", an id this run never seeded$/)]);
  });
});

describe('a record gone after the callbacks', () => {
  it('conflicting-after-applied: FAIL, the record gone, no not-applied cause', async () => {
    const [handler, options] = losingRecords(2, handingOn(undefined));
    const r = await behindFront('receiver.idempotence.conflicting-after-applied', handler, options);
    expect(r.reason).toMatch(/^the record reads 404/);
    expect(r.stated).toBeUndefined();
  });
  it('success-applied: FAIL, the record gone, no not-applied cause', async () => {
    const [handler, options] = losingRecords(1, handingOn(undefined));
    const r = await behindFront('receiver.outcome.success-applied', handler, { ...options, ...NOTHING_APPLIED });
    expect([r.verdict, r.stated]).toEqual(['FAIL', undefined]);
    expect(r.reason).toMatch(/^the record reads 404/);
  });
  it('after-applied: the first callback not applied (the record gone), no not-applied cause', async () => {
    const [handler, options] = losingRecords(1, handingOn(undefined));
    const r = await behindFront('receiver.idempotence.after-applied', handler, { ...options, ...NOTHING_APPLIED });
    expect(r.reason).toMatch(/^the first callback was not applied \(the record reads 404/);
    expect(r.stated).toBeUndefined();
  });
});

describe('receiver.idempotence duplicates: each callback labelled', () => {
  it('sequential: the duplicate answered 500', async () => {
    const r = await behindFront('receiver.idempotence.sequential-duplicate', duplicatesAnswered(500));
    expect(labels(r)).toEqual(['callback 1 of 2', 'callback 2 of 2 (duplicate)']);
  });
  it('concurrent: all but the first answered 500, each labelled', async () => {
    const r = await behindFront('receiver.idempotence.concurrent-duplicates', duplicatesAnswered(500));
    expect(labels(r)).toEqual(Array.from({ length: 10 }, (_, i) => `concurrent callback ${i + 1} of 10`));
  });
});
