// service.status (§4.2) against answers no fault switch of the reference gives: how an answer is
// read (known answers, no service), and each status case against a front of the tests' own
// making (suites/service/fixtures/front.ts) that answers status queries otherwise while collect
// and callbacks stay the reference's. Correct answers unlike the reference PASS; a finding FAILs
// naming it; a rule not exercised SKIPs saying why; what says nothing about the rule is ERROR.
import { describe, expect, it } from 'vitest';
import type { SentAnswer } from '../../harness/client/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { describeStatusReading, failureOf, notReadReason, statusReading, STATUS_NOT_READ } from '../../harness/cases/service/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import type { SimulatorFault } from '../../harness/simulator/index.ts';
import { STATUS_POSITION, type StatusReading } from '../../harness/status/index.ts';
import type { ResolvedServiceTarget } from '../../harness/targets/index.ts';
import { Pace, parseRate } from '../../harness/wire/index.ts';
import { startFront, type FrontHandler } from './fixtures/front.ts';
import { leastMeasured } from '../support/timing.ts';
import { runCases } from '../../harness/runner/index.ts';

const SEED = 3131;

function sent(judgement: SentAnswer['judgement'], status: number | undefined, bodyText?: string, error?: string): SentAnswer {
  let json: unknown;
  try {
    json = bodyText === undefined ? undefined : JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  return {
    judgement, sentAt: 0, ...(status !== undefined ? { status } : {}), ...(bodyText !== undefined ? { bodyText, json } : {}),
    exchange: { ...(error ? { error } : {}), ...(status !== undefined ? { response: { status, bodyExcerpt: bodyText ?? '' } } : {}) },
  } as unknown as SentAnswer;
}

describe('statusReading: an answer read as a status answer', () => {
  it('nothing answered: no reading', () => {
    expect(statusReading(sent('no-answer', undefined, undefined, 'ECONNRESET'), STATUS_POSITION)).toBeUndefined();
  });
  it('refused by the target\'s rejection rules though its body carries a status: refused, not that status', () => {
    expect(statusReading(sent('rejected-candidate', 200, '{"code":"E5","status":"FAILED"}'), STATUS_POSITION)).toStrictEqual({ kind: 'refused', httpStatus: 200 });
  });
  it('refused otherwise: as the body reads (unknown id, a refusal, a server error)', () => {
    expect(statusReading(sent('rejected-candidate', 404, '{"success":false}'), STATUS_POSITION)).toStrictEqual({ kind: 'unknown-id', httpStatus: 404, form: 404 });
    expect(statusReading(sent('rejected-candidate', 401, '{"message":"no"}'), STATUS_POSITION)).toStrictEqual({ kind: 'refused', httpStatus: 401 });
    expect(statusReading(sent('rejected-candidate', 503, '<html>'), STATUS_POSITION)).toStrictEqual({ kind: 'server-error', httpStatus: 503 });
  });
  it('accepted: the status at the endpoint\'s pointer, and the transaction it names when that is a string', () => {
    expect(statusReading(sent('accepted', 200, '{"status":"PENDING","transaction_id":"cc-1"}'), STATUS_POSITION)).toStrictEqual({ kind: 'status', status: 'PENDING', letterCase: 'upper', transactionId: 'cc-1' });
    expect(statusReading(sent('accepted', 200, '{"status":"FAILED","transaction_id":7}'), STATUS_POSITION)).toStrictEqual({ kind: 'status', status: 'FAILED', letterCase: 'upper' });
    // Either letter case (docs/positions.md status.answer-values), the case it came in noted.
    expect(statusReading(sent('accepted', 200, '{"status":"failed"}'), STATUS_POSITION)).toStrictEqual({ kind: 'status', status: 'FAILED', letterCase: 'lower' });
    expect(statusReading(sent('accepted', 200, '{"data":{"state":"SUCCESS"}}'), { ...STATUS_POSITION, pointer: '/data/state' })).toStrictEqual({ kind: 'status', status: 'SUCCESS', letterCase: 'upper' });
  });
  it('accepted without a status there: unreadable, saying what is there', () => {
    expect(statusReading(sent('accepted', 200, 'OK'), STATUS_POSITION)).toStrictEqual({ kind: 'unreadable', httpStatus: 200, why: 'the body is not JSON' });
    expect(statusReading(sent('accepted', 200, '{"success":true}'), STATUS_POSITION)).toStrictEqual({ kind: 'unreadable', httpStatus: 200, why: '/status holds nothing, not PENDING, SUCCESS or FAILED (in either letter case)' });
    expect(statusReading(sent('accepted', 201, '{"status":"DONE"}'), STATUS_POSITION)).toStrictEqual({ kind: 'unreadable', httpStatus: 201, why: '/status holds "DONE", not PENDING, SUCCESS or FAILED (in either letter case)' });
  });
});

describe('describeStatusReading and notReadReason: what a case says of a query that got no status', () => {
  const readings: Array<[StatusReading, string]> = [
    // The letter case it came in, when not the position's (docs/positions.md status.answer-values).
    [{ kind: 'status', status: 'SUCCESS', letterCase: 'upper' }, 'SUCCESS'],
    [{ kind: 'status', status: 'SUCCESS', letterCase: 'lower' }, 'SUCCESS (spelled in lower case)'],
    [{ kind: 'status', status: 'FAILED', letterCase: 'mixed' }, 'FAILED (spelled in mixed case)'],
    [{ kind: 'unknown-id', httpStatus: 404 }, 'unknown id (HTTP 404)'],
    // The 421 form (status.unknown-id), under whatever HTTP status it came with.
    [{ kind: 'unknown-id', httpStatus: 200, form: 421 }, 'unknown id (HTTP 200, "error_code": 421)'],
    [{ kind: 'refused', httpStatus: 401 }, 'refused (HTTP 401)'],
    [{ kind: 'server-error', httpStatus: 502 }, 'a server error (HTTP 502)'],
    [{ kind: 'unreadable', httpStatus: 200, why: 'the body is not JSON' }, 'unreadable (HTTP 200: the body is not JSON)'],
  ];
  it.each(readings)('%j → %s', (reading, words) => {
    expect(describeStatusReading(reading)).toBe(words);
  });

  const session = { target: { status: { method: 'POST', path: '/status/', pointer: '/status' } } } as unknown as Parameters<typeof notReadReason>[0];
  const reason = (status: number, body: string) => notReadReason(session, { answer: sent('rejected-candidate', status, body), reading: statusReading(sent('rejected-candidate', status, body), STATUS_POSITION), at: 0 });
  it('failureOf: the exchange\'s error, or a bare "error" when it recorded none', () => {
    expect(failureOf(sent('no-answer', undefined, undefined, 'ECONNRESET'))).toBe('ECONNRESET');
    expect(failureOf(sent('no-answer', undefined))).toBe('error');
  });
  it('no answer: the error, or "error" when none was given', () => {
    expect(notReadReason(session, { answer: sent('no-answer', undefined, undefined, 'ECONNRESET'), reading: undefined, at: 0 })).toBe(`${STATUS_NOT_READ}: no answer (ECONNRESET)`);
    expect(notReadReason(session, { answer: sent('no-answer', undefined), reading: undefined, at: 0 })).toBe(`${STATUS_NOT_READ}: no answer (error)`);
  });
  it.each([401, 403])('%i: likely signed or whitelisted otherwise, naming the query as sent', (status) => {
    expect(reason(status, '{}')).toBe(`${STATUS_NOT_READ}: it was answered HTTP ${status} {}, read as refused (HTTP ${status}); likely the service signs or authenticates status queries otherwise than collect (the status query's signature: POST /status/ with {"transaction_id", "client_id"} signed as §5.1), or whitelists another source for it`);
  });
  it('405: likely another method, to state in the target file', () => {
    expect(reason(405, '{}')).toMatch(/read as refused \(HTTP 405\); likely the endpoint takes another method than POST: state it as "status": \{"method"\}/);
  });
  it('another refusal (400) and a server error: no guess', () => {
    expect(reason(400, '{}')).toBe(`${STATUS_NOT_READ}: it was answered HTTP 400 {}, read as refused (HTTP 400)`);
    expect(reason(500, '{}')).toBe(`${STATUS_NOT_READ}: it was answered HTTP 500 {}, read as a server error (HTTP 500)`);
  });
  it('an unknown id: not known, or not there; an unreadable answer: the pointer to state', () => {
    expect(reason(404, '{}')).toMatch(/read as unknown id \(HTTP 404\); either the service does not know a transaction it accepted, or its status endpoint is not at POST \/status\/: state it/);
    const unreadable = sent('accepted', 200, '{}');
    expect(notReadReason(session, { answer: unreadable, reading: statusReading(unreadable, STATUS_POSITION), at: 0 }))
      .toMatch(/read as unreadable \(HTTP 200: \/status holds nothing, not PENDING, SUCCESS or FAILED \(in either letter case\)\); if the service puts the status elsewhere, state it as "status": \{"pointer"\}/);
  });
});

/**
 * What the front answers a status query of the suite's position: `nth` counts the queries (from 1),
 * `reference` is the reference's own reading, `calledBack` settles once the reference's callback
 * for the id was answered (the harness has received it: no sleep to guess at).
 */
type StatusAnswerer = (query: {
  transactionId: string; source: string; authorised: boolean; nth: number; reference: () => Promise<StatusReading>; calledBack: () => Promise<void>;
}) => Promise<{ status: number; body: unknown } | 'silent' | 'forward'>;

/** Settles when a line of `lines` says the callback for `transactionId` was answered; throws after `limitMs`. */
async function answeredCallback(lines: readonly string[], transactionId: string, limitMs = 5000): Promise<void> {
  const started = performance.now();
  const said = (line: string) => line.includes(' callback ') && line.includes(`transaction_id=${encodeURIComponent(transactionId)}`) && line.includes(' -> ');
  while (!lines.some(said)) {
    if (performance.now() - started > limitMs) throw new Error(`the reference's callback for ${transactionId} was not answered within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface FrontOptions {
  faults?: SimulatorFault[]; collect?: (nth: number) => { status: number; body: unknown } | undefined; processingDelayMs?: number;
  timing?: { callbackTimeoutMs: number }; sources?: ResolvedServiceTarget['sources'];
  /** The run's pace; `collects` gets the time (performance.now()) each collect reached the front. */
  pace?: Pace; collects?: number[];
  /** The answer to any path but collect and the status endpoint (default: the reference's, 404 NOT_FOUND). */
  elsewhere?: { status: number; body: unknown };
}

/**
 * `caseId` against the reference service (with `faults`) behind a front answering status queries
 * as `answerer` says; `collect` may refuse the n-th collect instead of forwarding it.
 * `processingDelayMs` (the reference's, before timeScale): longer keeps a query right after the
 * acceptance ahead of the callback on a loaded machine.
 */
async function runBehindFront(caseId: string, answerer: StatusAnswerer, options: FrontOptions = {}): Promise<CaseResult> {
  return (await runAllBehindFront(caseId, answerer, options))[0]!;
}

/** The cases `only` names (comma-separated ids), at once, behind one front as runBehindFront's; their results in case order. */
async function runAllBehindFront(only: string, answerer: StatusAnswerer, options: FrontOptions = {}): Promise<CaseResult[]> {
  const log: string[] = [];
  const service = await startEmbeddedService({
    faults: options.faults ?? [], log: (line) => log.push(line), ...(options.processingDelayMs ? { processingDelayMs: options.processingDelayMs } : {}),
    ...(options.timing ? { timing: options.timing } : {}),
  });
  let queries = 0;
  let collects = 0;
  const handle: FrontHandler = async ({ url, body, source }, t) => {
    if (options.elsewhere && url.pathname !== STATUS_POSITION.path && url.pathname !== '/api/v1.0/collect/') return t.json(options.elsewhere.status, options.elsewhere.body);
    if (url.pathname !== STATUS_POSITION.path) {
      options.collects?.push(performance.now());
      const refused = options.collect?.(++collects);
      return refused ? t.json(refused.status, refused.body) : t.forward();
    }
    const parsed = JSON.parse(body.toString('utf8')) as { transaction_id: string; client_id: number };
    const authorised = t.signedAsBody(body.toString('utf8'));
    const answer = await answerer({
      transactionId: parsed.transaction_id, source, authorised, nth: ++queries,
      reference: () => t.referenceStatus(parsed.transaction_id), calledBack: () => answeredCallback(log, parsed.transaction_id),
    });
    if (answer === 'silent') return t.silent();
    if (answer === 'forward') return t.forward();
    return t.json(answer.status, answer.body);
  };
  const front = await startFront(service.target, handle, { sources: 'handler' });
  try {
    const target: ResolvedServiceTarget = { ...service.target, baseUrl: front.url, ...(options.sources ? { sources: options.sources } : {}) };
    return await runCases({ cases: SERVICE_CASES, target, seed: SEED, only, ...(options.pace ? { pace: options.pace } : {}) });
  } finally {
    await front.close();
    await service.close();
  }
}

/** A pace that keeps when it let each request go (performance.now() at each charge). */
class ChargedAt extends Pace {
  readonly chargedAt: number[] = [];
  override charge(): void {
    this.chargedAt.push(performance.now());
    super.charge();
  }
}

/** A status answer of the suite's position: 200, the status at /status. */
function answered(transactionId: string, status: string) {
  return { status: 200, body: { success: true, transaction_id: transactionId, status } };
}
/** The reference's answer as the suite's position words it. */
async function asReference(transactionId: string, reference: () => Promise<StatusReading>) {
  const reading = await reference();
  return reading.kind === 'status'
    ? answered(transactionId, reading.status)
    : { status: 404, body: { success: false, error_code: 404 } };
}
/** The first query held until its transaction's callback was answered, then the reference's answer; later ones answered `status` at once. */
function heldOnFirstThen(status: string): StatusAnswerer {
  return async (q) => {
    if (q.nth > 1) return answered(q.transactionId, status);
    await q.calledBack();
    return asReference(q.transactionId, q.reference);
  };
}
/** The reference's answer to an authorised query; 401 to any other. */
const referenceAnswers: StatusAnswerer = async (q) => (q.authorised ? asReference(q.transactionId, q.reference) : { status: 401, body: { success: false } });

describe('service.status.unknown-id-not-success', () => {
  // Either letter case (docs/positions.md status.answer-values): the reading and the form it came in noted.
  it.each([
    ['FAILED', 'FAILED', 'upper case ("FAILED")'],
    ['failed', 'FAILED (spelled in lower case)', 'lower case ("failed")'],
    ['Pending', 'PENDING (spelled in mixed case)', 'mixed case ("PENDING", read case-insensitively)'],
  ])('an unknown id answered 200 %s (a correct service, unlike the reference\'s 404): PASS, noting it read as %s', async (status, read, spelled) => {
    const result = await runBehindFront('service.status.unknown-id-not-success', async (q) => answered(q.transactionId, status));
    expect([result.verdict, result.reason]).toEqual(['PASS', undefined]);
    expect(result.evidence?.notes).toEqual([
      expect.stringMatching(new RegExp(`^answered HTTP 200 \\{.*\\}: ${read.replace(/[()]/g, '\\$&')}$`)),
      `the answer spelled the status in ${spelled}; the kit reads either letter case (docs/positions.md, status.answer-values)`,
    ]);
  });
  it('an unknown id refused (400, the service\'s own error_code): PASS, noting the refusal and no form (it has no letter case, and says nothing of an unknown id)', async () => {
    const result = await runBehindFront('service.status.unknown-id-not-success', async () => ({ status: 400, body: { success: false, error_code: 'INVALID_TRANSACTION' } }));
    expect(result.verdict).toBe('PASS');
    expect(result.evidence?.notes).toEqual(['answered HTTP 400 {"success":false,"error_code":"INVALID_TRANSACTION"}: refused (HTTP 400)']);
  });
  it('no answer at all: ERROR, saying so', async () => {
    const result = await runBehindFront('service.status.unknown-id-not-success', async () => 'silent');
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^the status query got no answer: \S/);
  });
});

describe('service.status.success-agrees', () => {
  it('answered for another transaction: FAIL, naming both ids', async () => {
    const result = await runBehindFront('service.status.success-agrees', async (q) => {
      const answer = await asReference(q.transactionId, q.reference);
      return { ...answer, body: { ...answer.body, transaction_id: 'someone-else' } };
    });
    expect(result.verdict).toBe('FAIL');
    expect(result.reason).toMatch(/^the status query for "[^"]+" was answered for "someone-else": the answer names another transaction/);
  });
  it('the reference\'s own answer: PASS, noting the callback\'s status and the answer, and nothing else', async () => {
    const result = await runBehindFront('service.status.success-agrees', referenceAnswers);
    expect(result.verdict).toBe('PASS');
    expect(result.evidence?.notes).toEqual([
      expect.stringMatching(/^callback status=SUCCESS; status answer HTTP 200 \{"success":true,/),
      expect.stringMatching(/^the answer spelled the status in (lower|upper) case \("(success|SUCCESS)"\); the kit reads either letter case/),
    ]);
  });
  it('PENDING right after the callback, then the outcome (a store updated a moment later): PASS, noting the second query', async () => {
    // callbackTimeoutMs 1500: the second query waits the lesser, 1000 ms.
    const result = await runBehindFront('service.status.success-agrees', async (q) => (q.nth === 1
      ? answered(q.transactionId, 'PENDING')
      : asReference(q.transactionId, q.reference)), { timing: { callbackTimeoutMs: 1500 } });
    expect(result.verdict).toBe('PASS');
    expect(result.evidence?.notes?.[0]).toBe('the first query, right after the callback, was answered PENDING: asked again after 1000 ms');
  });
  it('FAILED after a SUCCESS callback: FAIL, the contradiction', async () => {
    const result = await runBehindFront('service.status.success-agrees', async (q) => answered(q.transactionId, 'FAILED'));
    expect(result.verdict).toBe('FAIL');
    expect(result.reason).toMatch(/^the callback said status=SUCCESS; the status endpoint answers FAILED for the same transaction: a receiver confirming/);
  });
  it('PENDING to the query and to the one a moment later: FAIL, saying both were asked', async () => {
    // callbackTimeoutMs 500: the second query 500 ms after the first, not 1000, waited for an answer that stays PENDING (the reference calls back after 50).
    const result = await runBehindFront('service.status.success-agrees', async (q) => answered(q.transactionId, 'PENDING'), { timing: { callbackTimeoutMs: 500 } });
    expect(result.verdict).toBe('FAIL');
    expect(result.reason).toMatch(/^the callback said status=SUCCESS; the status endpoint answers PENDING for the same transaction, also a moment later: /);
  });
  it('no callback at all (the reference with no-callback): ERROR, the precondition, under the shared cause', async () => {
    // callbackTimeoutMs 500 (no callback comes; the reference's would after 50 ms): waited out for nothing.
    const result = await runBehindFront('service.status.success-agrees', referenceAnswers, { faults: ['no-callback'], timing: { callbackTimeoutMs: 500 } });
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^precondition: no callback arrived within timing\.callbackTimeoutMs \(500 ms\)/);
    expect(result.stated?.causes).toEqual(['no-callback']);
  });
  it('a callback whose status is neither SUCCESS nor FAILED (the reference with lowercase-status): SKIP, its own cases judge it', async () => {
    const result = await runBehindFront('service.status.success-agrees', referenceAnswers, { faults: ['lowercase-status'] });
    expect(result.verdict).toBe('SKIP');
    expect(result.reason).toMatch(/^not exercised: the callback's status "success" is neither SUCCESS nor FAILED/);
  });
  it('no answer to the query: ERROR, saying so', async () => {
    const result = await runBehindFront('service.status.success-agrees', async () => 'silent');
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^the status query got no answer: \S/);
  });
});

describe('service.status.pending-not-terminal', () => {
  const id = 'service.status.pending-not-terminal';
  it('the outcome known before the callback, and the callback then says the same, three times: SKIP (the service was faster than a query)', async () => {
    // Processing 300 ms (not 50): the query right after the acceptance stays ahead of the callback on a loaded machine.
    const result = await runBehindFront(id, async (q) => (answered(q.transactionId, 'FAILED')), { processingDelayMs: 6000 });
    expect(result.verdict).toBe('SKIP');
    const before = 'answered FAILED \\d+ ms after the acceptance, before its callback, which said the same';
    expect(result.reason).toMatch(new RegExp(`^not exercised: every one of 3 transactions was already terminal when queried right after its acceptance \\(${before}; ${before}; ${before}\\)`));
  });
  it('answered only after its callback (a query held until the outcome), three times: SKIP, each attempt after its callback', async () => {
    const result = await runBehindFront(id, async (q) => {
      await q.calledBack();
      return asReference(q.transactionId, q.reference);
    });
    expect(result.verdict).toBe('SKIP');
    expect(result.reason).toMatch(/answered FAILED \d+ ms after the acceptance, after its callback; answered FAILED/);
  });
  it('held on the first transaction, PENDING on the second: PASS, noting the first attempt', async () => {
    const result = await runBehindFront(id, heldOnFirstThen('PENDING'));
    expect(result.verdict).toBe('PASS');
    expect(result.evidence?.notes).toEqual([
      expect.stringMatching(/^attempt 1: answered FAILED \d+ ms after the acceptance, after its callback$/), expect.stringMatching(/^queried \d+ ms after the acceptance: PENDING$/),
      // The form the answer came in (docs/positions.md status.answer-values).
      expect.stringMatching(/^the answer spelled the status in (lower|upper) case/),
    ]);
    // Times from the acceptance: within the case's own duration.
    for (const ms of result.evidence!.notes!.slice(0, 2).map((n) => Number(/(\d+) ms after/.exec(n)![1]))) expect(ms).toBeLessThanOrEqual(result.durationMs);
  });
  it('under a pace, an attempt\'s collect and query (a burst of two) start once two turns went unused', async () => {
    // 4/s: turns 250 ms apart. Attempt 1's collect and query take two turns; attempt 2 starts after
    // the turn they left next and one more unused (750 ms after attempt 1's collect), not after one (500 ms).
    // Timed when the pace let each collect go (its charge), not when the front read it: on a loaded
    // machine the first collect reached the front late and the gap read there was 691.3 ms.
    const collects: number[] = [];
    const pace = new ChargedAt(parseRate('4/s'));
    const result = await runBehindFront(id, heldOnFirstThen('PENDING'), { pace, collects });
    expect(result.verdict).toBe('PASS');
    expect(collects).toHaveLength(2);
    // A collect's query goes only after its answer: the last charge before the front read a collect is the collect's own.
    const sent = collects.map((read) => pace.chargedAt.filter((at) => at <= read).at(-1)!);
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(leastMeasured(750));
  });
  it('SUCCESS at once for a transaction that ends FAILED: FAIL, with when its callback came', async () => {
    const result = await runBehindFront(id, async (q) => (answered(q.transactionId, 'SUCCESS')), { processingDelayMs: 6000 });
    expect(result.verdict).toBe('FAIL');
    const found = /^a transaction that ends FAILED \(its callback, (\d+) ms after the acceptance\) was answered SUCCESS by the status endpoint (\d+) ms after the acceptance, before its callback/.exec(result.reason ?? '');
    expect(found, result.reason).not.toBeNull();
    expect(Number(found![2])).toBeLessThan(Number(found![1]));
    expect(Number(found![1])).toBeLessThanOrEqual(result.durationMs);
  });
  it('held on the first transaction, SUCCESS at once on the second (which ends FAILED): FAIL, the late first attempt changes nothing', async () => {
    const result = await runBehindFront(id, heldOnFirstThen('SUCCESS'), { processingDelayMs: 6000 });
    expect(result.verdict).toBe('FAIL');
    expect(result.reason).toMatch(/^a transaction that ends FAILED .* was answered SUCCESS/);
  });
  it('terminal at once and no callback ever (the reference with no-callback): SKIP, nothing to compare it with', async () => {
    const result = await runBehindFront(id, async (q) => (answered(q.transactionId, 'FAILED')), { faults: ['no-callback'] });
    expect(result.verdict).toBe('SKIP');
    expect(result.reason).toMatch(/^not exercised: answered FAILED \d+ ms after the acceptance, and no callback came within timing\.callbackTimeoutMs/);
  });
  it('its collect refused: ERROR, the precondition', async () => {
    const result = await runBehindFront(id, referenceAnswers, { collect: () => ({ status: 400, body: { success: false, error_code: 'E1' } }) });
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^precondition: /);
    // No status query follows a refused collect.
    expect(result.evidence?.exchanges?.map((e) => e.label)).toEqual(['attempt 1: a correctly signed collect (a transaction that ends FAILED)']);
  });
  it('no answer to the query: ERROR, saying so', async () => {
    const result = await runBehindFront(id, async () => 'silent');
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^the status query got no answer: \S/);
  });
});

describe('service.status refusals', () => {
  it('a tampered query answered 200 with no status and no rejection the rules read: FAIL, rejections-unread', async () => {
    const result = await runBehindFront('service.status.wrong-signature', async (q) => (q.authorised ? asReference(q.transactionId, q.reference) : { status: 200, body: { message: 'invalid signature' } }));
    expect(result.verdict).toBe('FAIL');
    expect(result.reason).toMatch(/^a status query signed with a wrong secret \(the right client key\) was answered HTTP 200 .*which reads as accepted \(2xx, no rejection rule met\) though no status was found \(unreadable/);
    expect(result.stated?.causes).toEqual(['rejections-unread']);
  });
  it('a tampered query met with silence from a whitelisted source: ERROR (no answer says nothing)', async () => {
    const result = await runBehindFront('service.status.wrong-signature', async (q) => (q.authorised ? asReference(q.transactionId, q.reference) : 'silent'));
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^the status query got no answer: \S/);
  });
  it('a non-whitelisted source met with silence, the whitelisted one answered: PASS, a refusal at the network', async () => {
    const result = await runBehindFront('service.status.ip-not-whitelisted', async (q) => (q.source === '127.0.0.1' ? referenceAnswers(q) : 'silent'));
    expect(result.verdict).toBe('PASS');
    expect(result.evidence?.notes?.join('\n')).toMatch(/^no HTTP answer \(.+\): counted as a refusal at the network; the same query from the whitelisted source was answered HTTP 200 \{"success":true,/);
  });
  it('silence to both sources: ERROR, the silence says nothing about the whitelist', async () => {
    const result = await runBehindFront('service.status.ip-not-whitelisted', async () => 'silent');
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^a correctly signed status query from a non-whitelisted source got no HTTP answer \(.+\), and the same query from the whitelisted source got none either \(.+\): the silence says nothing about the whitelist/);
    expect(result.evidence?.exchanges?.map((e) => e.label).slice(1)).toEqual(['a correctly signed status query from a non-whitelisted source', 'control: the same query from the whitelisted source']);
  });
  it.each([
    ['service.status.ip-not-whitelisted', 'a correctly signed status query from a non-whitelisted source', '§5.2, §5.4'],
    ['service.status.missing-header', 'a status query without an Authorization header', '§5.2'],
  ])('%s answered with the status: FAIL, it disclosed it', async (caseId, what, rules) => {
    const result = await runBehindFront(caseId, async (q) => asReference(q.transactionId, q.reference));
    expect(result.verdict).toBe('FAIL');
    expect(result.reason).toMatch(new RegExp(`^${what} was answered HTTP 200 .*: it disclosed the transaction's status \\((PENDING|FAILED|SUCCESS)\\); the status endpoint is authenticated like collect \\(${rules}\\)`));
  });
  it('a non-whitelisted source the harness cannot bind: ERROR, the query never reached the service', async () => {
    const result = await runBehindFront('service.status.ip-not-whitelisted', referenceAnswers, { sources: { notWhitelisted: { localAddress: '192.0.2.1' } } });
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^the local address 192\.0\.2\.1 \(sources\.notWhitelisted\.localAddress\) cannot be used on this machine \(\w+\): the query never reached the service, so its whitelist could not be tested$/);
  });
});


describe('service.status: a 404 with no unknown-id body, and the endpoint asked after (docs/positions.md status.endpoint-absent)', () => {
  const NOT_FOUND = { status: 404, body: { message: 'Not Found' } };
  const CONTROL = 'control: a correctly signed status query for an accepted transaction';
  const PROBE = 'the same status query to a path no API has (is the status endpoint there at all?)';
  const labels = (r: CaseResult) => r.evidence?.exchanges?.map((e) => e.label) ?? [];
  const bodyId = (body: string | undefined) => (JSON.parse(body ?? '{}') as { transaction_id?: string }).transaction_id;

  it('a service answering 404 Not Found to whatever it does not disclose (an unknown id, a spoiled query), as to a path no API has: the control query for the case\'s accepted transaction is answered its status, so the endpoint is there: PASS', async () => {
    const results = await runAllBehindFront('service.status.unknown-id-not-success,service.status.wrong-signature', async (q) => {
      const reading = await q.reference();
      return q.authorised && reading.kind === 'status' ? answered(q.transactionId, reading.status) : NOT_FOUND;
    }, { elsewhere: NOT_FOUND });
    expect(results.map((r) => [r.id, r.verdict, r.reason])).toEqual([
      ['service.status.unknown-id-not-success', 'PASS', undefined], ['service.status.wrong-signature', 'PASS', undefined],
    ]);
    for (const r of results) {
      const exchanges = r.evidence?.exchanges ?? [];
      const collect = exchanges.find((e) => e.label === 'a correctly signed collect, for a transaction to query');
      const control = exchanges.find((e) => e.label === CONTROL);
      expect(bodyId(control?.request.body), r.id).toBe(bodyId(collect?.request.body));
      expect(control?.response?.status, r.id).toBe(200);
      expect(labels(r), r.id).not.toContain(PROBE);
    }
  });
  it('an accepted transaction answered 404 Not Found, a path no API has 403 (an API gateway\'s missing route): the endpoint is there, answering otherwise; ERROR, the status not read', async () => {
    const result = await runBehindFront('service.status.success-agrees', async () => NOT_FOUND, { elsewhere: { status: 403, body: { message: 'Missing Authentication Token' } } });
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^a correctly signed status query got no status: it was answered HTTP 404 \{"message":"Not Found"\}, read as unknown id \(HTTP 404\); either the service does not know a transaction it accepted, or its status endpoint is not at POST /);
    expect(result.stated?.causes).toEqual(['status-not-read']);
    const probe = result.evidence?.exchanges?.find((e) => e.label === PROBE);
    expect([probe?.request.url, probe?.response?.status]).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\.0\/transaction_status-collect-conformance-no-such-path\/$/), 403]);
  });
  it('an accepted transaction answered 404 with the unknown-id body ("error_code": 404), as every other path is: an unknown id, as the body says, not asked after; ERROR, the status not read', async () => {
    const unknown = { status: 404, body: { success: false, error_code: 404, error_message: 'not found' } };
    const result = await runBehindFront('service.status.success-agrees', async () => unknown, { elsewhere: unknown });
    expect(result.verdict).toBe('ERROR');
    expect(result.reason).toMatch(/^a correctly signed status query got no status: it was answered HTTP 404 .*read as unknown id \(HTTP 404\); either the service does not know a transaction it accepted/);
    expect(labels(result)).not.toContain(PROBE);
  });
  it('an unknown id answered 200 FAILED on a service answering any other path 200 {} (a mock\'s catch-all): not a 404, not asked after; PASS', async () => {
    const result = await runBehindFront('service.status.unknown-id-not-success', async (q) => answered(q.transactionId, 'FAILED'), { elsewhere: { status: 200, body: {} } });
    expect([result.verdict, result.reason]).toEqual(['PASS', undefined]);
    expect(labels(result)).toEqual(['status query for an id never used in a collect']);
  });
});
