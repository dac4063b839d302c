// receiver.outcome and receiver.idempotence (§4.3, §6 rule 2, §6 Semantics) on receivers no fault
// switch of the reference makes: a front of this file's own making before the reference receiver
// (suites/preflight/front.ts; its hooks, so its records, pass through) answers each callback as
// a test says, hands it on changed, or applies it later (a receiver that replies first and applies
// from a queue). What each case's verdict rests on, and what it states.
import { URL } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIVER_CASES, type ConformanceCase } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { guardNegatives, runChecked } from '../../harness/preflight/index.ts';
import type { Preflight } from '../../harness/preflight/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { startFront, type CallbackHandler, type FrontOptions } from '../preflight/front.ts';
import { runCases } from '../../harness/runner/index.ts';

let embedded: EmbeddedReceiver;
beforeAll(async () => {
  embedded = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 1000 });
});
afterAll(async () => embedded.close());

/**
 * For a case that polls a record that never changes (nothing applied, the record gone) for the
 * whole reply deadline: a shorter one than the receiver's 1,000 ms. The front and the reference
 * answer at once; what these tests judge is what the record reads, not when.
 */
const NOTHING_APPLIED = { deadlineMs: 500 };

/** `caseId` against the reference behind a front that answers as `onCallback` says (`deadlineMs`: the target's reply deadline instead of the receiver's; `seed`: another run's ids, for runs side by side). */
async function behindFront(caseId: string, onCallback: CallbackHandler, options: FrontOptions & { cases?: ConformanceCase<ResolvedReceiverTarget>[]; deadlineMs?: number; seed?: number } = {}): Promise<CaseResult> {
  const front = await startFront(embedded, onCallback, options);
  try {
    const target = options.deadlineMs === undefined ? front.target : { ...front.target, timing: { ...front.target.timing, replyDeadlineMs: options.deadlineMs } };
    const [r] = await runCases({ cases: options.cases ?? RECEIVER_CASES, target, seed: options.seed ?? 7, only: caseId });
    return r!;
  } finally {
    await front.close();
  }
}

/** Answers `status` without handing the callback on: nothing is applied. */
const answering = (status: number): CallbackHandler => (_req, res) => void res.writeHead(status).end();
type Rewrite = (query: URLSearchParams) => void;
/** The callback's query changed by `rewrite`, before it is handed on. */
const rewritten = (req: IncomingMessage, rewrite: Rewrite) => {
  const url = new URL(req.url ?? '/', 'http://front');
  rewrite(url.searchParams);
  req.url = `${url.pathname}?${url.searchParams.toString()}`;
};
/** Hands the callback on (its query changed by `rewrite`), then answers `status` whatever the receiver said. */
const handingOn = (status: number | undefined, rewrite: Rewrite = () => undefined): CallbackHandler => (req, res, pass) => {
  rewritten(req, rewrite);
  pass().then((a) => res.writeHead(status ?? a.status).end(a.body), () => res.writeHead(502).end());
};
/** The callbacks after the first of each transaction: answered `status`, never applied; the first handed on. */
const duplicatesAnswered = (status: number): CallbackHandler => {
  const seen = new Set<string>();
  return (req, res, pass) => {
    const id = new URL(req.url ?? '/', 'http://front').searchParams.get('transaction_id') ?? '';
    if (seen.has(id)) return void res.writeHead(status).end();
    seen.add(id);
    pass().then((a) => res.writeHead(a.status).end(a.body), () => res.writeHead(502).end());
  };
};
/**
 * A receiver that replies 200 at once and applies from a queue: a transaction's first callback
 * `firstMs` later, the rest `restMs` later; `rewrite` changes what it applies.
 */
const queued = ({ firstMs = 300, restMs = 300, rewrite = () => undefined }: { firstMs?: number; restMs?: number; rewrite?: Rewrite } = {}): CallbackHandler => {
  const seen = new Set<string>();
  return (req: IncomingMessage, res: ServerResponse, pass) => {
    const id = new URL(req.url ?? '/', 'http://front').searchParams.get('transaction_id') ?? '';
    const first = !seen.has(id);
    seen.add(id);
    rewritten(req, rewrite);
    res.writeHead(200).end();
    setTimeout(() => void pass().catch(() => undefined), first ? firstMs : restMs);
  };
};
const labels = (r: CaseResult) => (r.evidence?.exchanges ?? []).map((e) => e.label).filter((l) => !l?.startsWith('hooks'));

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
  async function checked(only: string, onCallback: CallbackHandler) {
    const front = await startFront(embedded, onCallback);
    try {
      return (await runChecked({ cases: RECEIVER_CASES, target: front.target, seed: 7, only })).results;
    } finally {
      await front.close();
    }
  }
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

/** Reads of the records answered 404 once `after` callbacks reached the front: a receiver that lost the record. */
function losingRecords(after: number, onCallback: CallbackHandler): [CallbackHandler, FrontOptions] {
  let seen = 0;
  return [
    (req, res, pass) => { seen++; onCallback(req, res, pass); },
    { onHook: (req, res, forward) => (req.method === 'GET' && seen >= after ? void res.writeHead(404).end() : forward()) },
  ];
}

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
