// service.callback (§4.3, §6) on callbacks no fault switch of the reference sends, and on the
// reference's own: what each case notes when it holds, and the words of its FAIL, WARN or SKIP.
// A service of the tests' own making (callingBack) sends the callbacks a test needs.
import { describe, expect, it } from 'vitest';
import { TIMING_BLURRED } from '../../harness/cases/service/index.ts';
import { backoffReason } from '../../harness/cases/service/retry.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import type { ResolvedServiceTarget } from '../../harness/targets/index.ts';
import { callingBack, retrying, runAgainstReference, runBehindFront } from './fixtures/run-case.ts';

const notes = (r: CaseResult) => r.evidence?.notes ?? [];
const one = async (caseId: string, faults: Parameters<typeof runAgainstReference>[2] = [], patch: Partial<ResolvedServiceTarget> = {}) => (await runAgainstReference(caseId, patch, faults))[0]!;
const TOKEN = 'tok-0123456789';
const paid = (f: { transaction_id: string }) => `transaction_id=${encodeURIComponent(f.transaction_id)}&status=SUCCESS&message=Paid+in+full`;
/** A retry window long enough that a watch cut short by it would show in the case's duration. */
const LONG_WINDOW = { timing: { callbackTimeoutMs: 250, retryWindowMs: 10_000 } };
/**
 * For a case that waits out a limit for nothing, shorter limits than the embedded target's 1,000
 * and 2,500 ms: the reference retries after 200 ms, so a 1,000 ms window still tells a retry from
 * none (ONE_DELIVERY, the first callback keeping its 1,000 ms); where no callback comes at all,
 * 500 ms tell its 50 ms from never (NO_CALLBACK).
 */
const ONE_DELIVERY = { timing: { callbackTimeoutMs: 1000, retryWindowMs: 1000 } };
const NO_CALLBACK = { timing: { callbackTimeoutMs: 500, retryWindowMs: 1000 } };
/** A back-off result, or the kit's own SKIP for a machine too busy to time it (the evidence is the same). */
const unlessBlurred = (r: CaseResult, expected: [string, string | undefined | RegExp]) => {
  if (r.verdict === 'SKIP' && r.reason?.startsWith(TIMING_BLURRED)) return;
  expect(r.verdict).toBe(expected[0]);
  if (expected[1] instanceof RegExp) expect(r.reason).toMatch(expected[1]);
  else expect(r.reason).toBe(expected[1]);
};

describe('service.callback.transaction-id-echoed', () => {
  it('the reference: PASS, noting the one id', async () => {
    const r = await one('service.callback.transaction-id-echoed');
    expect(notes(r)).toEqual([expect.stringMatching(/^the callback's one transaction_id is the one sent, "\S+"$/)]);
  });
  it('no transaction_id in the callback: FAIL saying so', async () => {
    const r = await runBehindFront('service.callback.transaction-id-echoed', callingBack(() => 'status=SUCCESS&message=Paid+in+full'));
    expect([r.verdict, r.reason]).toEqual(['FAIL', 'the callback has no transaction_id parameter']);
  });
  it('twice, and another id: each named', async () => {
    expect((await one('service.callback.transaction-id-echoed', ['transaction-id-twice'])).reason).toMatch(/^transaction_id appears 2 times: \["(\S+)","\1"\]$/);
    expect((await one('service.callback.transaction-id-echoed', ['wrong-transaction-id'])).reason).toMatch(/^sent transaction_id "\S+", the callback says "SIM-/);
  });
});

describe('service.callback.status-failed and status-success', () => {
  it('lower-case status: FAIL naming the letter case', async () => {
    expect((await one('service.callback.status-failed', ['lowercase-status'])).reason).toMatch(/the callback says status="failed" \(status values are exact, upper case\)$/);
  });
  it('SUCCESS for a FAILED transaction: FAIL, nothing about letter case', async () => {
    const r = await one('service.callback.status-failed', ['failed-as-success']);
    expect(r.reason).toMatch(/ends FAILED, the callback says status="SUCCESS"$/);
  });
  it('no status at all: FAIL saying null', async () => {
    const r = await runBehindFront('service.callback.status-success', callingBack((f) => `transaction_id=${encodeURIComponent(f.transaction_id)}&message=Paid`));
    expect(r.reason).toMatch(/ends SUCCESS, the callback says status=null$/);
  });
});

describe('service.callback.message-plus-encoding', () => {
  it('the reference: PASS noting the message as sent', async () => {
    expect(notes(await one('service.callback.message-plus-encoding'))).toEqual(['message=Payment+of+GHS+1.00+received']);
  });
  it('%20 for spaces: FAIL showing the message as sent', async () => {
    expect((await one('service.callback.message-plus-encoding', ['message-percent20'])).reason).toBe('message writes spaces as %20, not +: message=Payment%20of%20GHS%201.00%20received');
  });
  it('a message without a space: SKIP, the rule not exercised', async () => {
    const r = await runBehindFront('service.callback.message-plus-encoding', callingBack((f) => `transaction_id=${encodeURIComponent(f.transaction_id)}&status=SUCCESS&message=Paid`));
    expect([r.verdict, r.reason]).toEqual(['SKIP', 'not exercised: the service\'s message (message=Paid) has no space, so the + rule could not be seen']);
  });
});

describe('service.callback.reserved-id-intact', () => {
  it('the reference: PASS, every id back', async () => {
    expect(notes(await one('service.callback.reserved-id-intact'))).toEqual(['7 id(s) came back intact']);
  });
  it('ids written raw: FAIL showing the query received', async () => {
    const r = await one('service.callback.reserved-id-intact', ['raw-transaction-id']);
    expect(r.reason).toMatch(/, the callback \?transaction_id=\S+ reads transaction_id=/);
    expect(r.stated).toBeUndefined();
  });
  it('no callback: FAIL stating no-callback', async () => {
    const r = await one('service.callback.reserved-id-intact', ['no-callback'], NO_CALLBACK);
    expect(r.reason).toMatch(/^no callback arrived for the id carrying "&status=FAILED"/);
    expect(r.stated?.causes).toEqual(['no-callback']);
  });
  it('one id accepted and never called back, the rest back intact: FAIL for that one, stating no-callback', async () => {
    const r = await runBehindFront('service.callback.reserved-id-intact', async ({ body }, t) => (
      (JSON.parse(body.toString('utf8')) as { transaction_id: string }).transaction_id.includes('#') ? t.json(200, { success: true, status: 'PENDING' }) : t.forward()));
    expect(r.reason).toMatch(/^no callback arrived for the id carrying "#x": every value is form-encoded/);
    expect(r.stated?.causes).toEqual(['no-callback']);
  });
  it('an id refused at collect: noted, the rest judged', async () => {
    const r = await runBehindFront('service.callback.reserved-id-intact', async ({ body }, t) => (
      (JSON.parse(body.toString('utf8')) as { transaction_id: string }).transaction_id.includes('#') ? t.json(400, { success: false, error_code: 'BAD_ID' }) : t.forward()));
    expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
    expect(notes(r)).toEqual(['an id carrying "#x" was refused at collect: HTTP 400 {"success":false,"error_code":"BAD_ID"}', '6 id(s) came back intact; 1 refused at collect (not exercised)']);
  });
  it('every id refused at collect: SKIP', async () => {
    const r = await runBehindFront('service.callback.reserved-id-intact', async (_request, t) => t.json(400, { success: false }));
    expect([r.verdict, r.reason]).toEqual(['SKIP', 'the service refused every id with reserved characters at collect (first: HTTP 400 {"success":false}), so none could come back']);
  });
});

describe('service.callback composition: a callback glued to the path', () => {
  it('a name glued on (…/cb/<tag>x&…): another path, not this case\'s callback; no callback', async () => {
    const r = await runBehindFront('service.callback.query-appended-with-question-mark', callingBack(paid, undefined, (url, query) => `${url}x&${query}`), { target: () => NO_CALLBACK });
    expect([r.verdict, r.stated?.causes, notes(r)]).toEqual(['FAIL', ['no-callback'], []]);
  });
  it('parameters glued with & to a URL without a query: FAIL, noting where the callback arrived', async () => {
    const r = await one('service.callback.query-appended-with-question-mark', ['always-ampersand'], ONE_DELIVERY);
    expect(r.verdict).toBe('FAIL');
    expect(notes(r)).toEqual([expect.stringMatching(/^the callback arrived at a path the supplied URL does not have: \/cb\/\S+&transaction_id=/)]);
  });
});

describe('service.callback.token-present', () => {
  it('the reference: PASS, every delivery checked', async () => {
    expect(notes(await one('service.callback.token-present'))).toEqual(['2 deliveries (the first answered 500), each with the configured token']);
  });
  it('the 500 not retried: PASS on the first only, saying so', async () => {
    expect(notes(await one('service.callback.token-present', ['no-retry'], ONE_DELIVERY))).toEqual([expect.stringMatching(/^only the first delivery was checked: the 500 answer was not retried within timing\.retryWindowMs \(\d+ ms\)$/)]);
  });
  it('no token on the first delivery: WARN; on the retry only: FAIL naming delivery 2', async () => {
    expect((await one('service.callback.token-present', ['no-token'])).verdict).toBe('WARN');
    expect((await one('service.callback.token-present', ['token-first-attempt-only'])).reason)
      .toBe('delivery 2 (a retry after the 500) carries no X-Callback-Token; the first delivery carried it, so a receiver checking the token refuses the retry');
  });
  it('the token sent twice: FAIL saying how often, not that it differs', async () => {
    const r = await runBehindFront('service.callback.token-present', callingBack(paid, [TOKEN, TOKEN]), { target: () => ({ callbackToken: TOKEN, ...ONE_DELIVERY }) });
    expect(r.reason).toBe('X-Callback-Token is sent 2 times on the first delivery');
  });
  it('a stale token: FAIL naming the lengths, never the token', async () => {
    const r = await runBehindFront('service.callback.token-present', callingBack((f) => `transaction_id=${encodeURIComponent(f.transaction_id)}&status=SUCCESS&message=Paid+in+full`, 'stale'), {
      target: () => ({ callbackToken: TOKEN, ...ONE_DELIVERY }),
    });
    expect(r.reason).toBe(`X-Callback-Token of the first delivery differs from the configured token (5 characters, expected ${TOKEN.length})`);
  });
});

describe('service.callback.duplicates-consistent', () => {
  it('the reference: PASS noting how many deliveries agreed', async () => {
    expect(notes(await one('service.callback.duplicates-consistent'))).toEqual([expect.stringMatching(/^\d+ deliveries, all "\S+ SUCCESS"$/)]);
  });
  it('a duplicate with the other outcome: FAIL naming which delivery', async () => {
    expect((await one('service.callback.duplicates-consistent', ['conflicting-duplicates'])).reason).toMatch(/^delivery 3 of 3 carries "\S+ FAILED" after "\S+ SUCCESS": a terminal state changed \(§3\)$/);
  });
  it('the 500 not retried: SKIP, nothing to agree with', async () => {
    expect((await one('service.callback.duplicates-consistent', ['no-retry'], ONE_DELIVERY)).reason).toMatch(/^not exercised: the 500 answer was not retried within timing\.retryWindowMs/);
  });
});

describe('service.callback.duplicates-consistent: the watch after the retry', () => {
  it('another outcome 1.5 gaps after the retry: seen (the watch is twice the gap), and the watch ends long before the window', async () => {
    const r = await runBehindFront('service.callback.duplicates-consistent', retrying([200], { afterMs: [300], afterStatus: 'FAILED' }), { target: () => LONG_WINDOW });
    expect(r.reason).toMatch(/^delivery 3 of 3 carries "\S+ FAILED" after "\S+ SUCCESS"/);
    expect(r.durationMs).toBeLessThan(5000);
  });
});

describe('service.callback.retry-back-off: the evidence of the schedule', () => {
  it('a repeat after the 200: not part of the failing phase, the growing schedule PASSes', async () => {
    const r = await runBehindFront('service.callback.retry-back-off', retrying([60, 120, 240], { afterMs: [5] }));
    expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
    expect(r.evidence!.timeline!.offsetsMs).toHaveLength(4);
    expect(notes(r)[0]).toBe('listener script: 500, 500, 500, 200');
  });
  it('a fixed 250 ms delay: the script extended once the first intervals look constant, FAIL on five intervals', async () => {
    // 250 ms: "about the same" allows 35 ms of spread, room for a loaded machine's timers.
    const r = await runBehindFront('service.callback.retry-back-off', retrying([250, 250, 250, 250, 250]));
    expect(notes(r)[0]).toBe('listener script: 500, 500, 500, then (the first intervals looking constant) 500, 500, 200');
    expect(r.evidence!.timeline!.offsetsMs).toHaveLength(6);
    unlessBlurred(r, ['FAIL', /^intervals \d+, \d+, \d+, \d+, \d+ ms stay about the same \(the longest within 1\.1 × the shortest \+ 10 ms\): a fixed retry delay, not exponential back-off$/]);
  });
  it('the words of each judgement (known answers: an immediate schedule is timing-fragile end to end on a loaded machine)', () => {
    expect(backoffReason({ kind: 'immediate', intervalsMs: [1, 2, 3] }, 2500)).toBe('intervals 1, 2, 3 ms, each within 10 ms: retried immediately, not with exponential back-off');
    expect(backoffReason({ kind: 'no-retry' }, 2500)).toBe('the callback was answered 500 and not retried within timing.retryWindowMs (2500 ms)');
    expect(backoffReason({ kind: 'single-retry', intervalMs: 40 }, 2500)).toBe('a single retry, after 40 ms, then none within the window: the back-off cannot be seen to grow');
    for (const kind of ['growing', 'no-delivery'] as const) expect(backoffReason(kind === 'growing' ? { kind, intervalsMs: [1, 2] } : { kind }, 2500)).toBe('');
  });
  it('a flat step in a schedule that grows overall: PASS, naming the step', async () => {
    const r = await runBehindFront('service.callback.retry-back-off', retrying([100, 60, 300]));
    unlessBlurred(r, ['PASS', undefined]);
    if (r.verdict === 'PASS') expect(notes(r)).toContain('the intervals grow overall (the last ≥ 1.5 × the first), though interval 2 does not on its own: as back-off with jitter does');
  });
  it('the kit stalled while it timed: a schedule the stall would read otherwise is not judged (SKIP), the stall noted', async () => {
    // 60, 120, 30 ms is irregular (SKIP) with 10 ms of jitter allowed, immediate (FAIL) with the
    // 300 ms stall's: the kit gives neither.
    const r = await runBehindFront('service.callback.retry-back-off', retrying([60, 120, 30], { blockMs: 300 }));
    expect(r.reason).toMatch(new RegExp(`^${TIMING_BLURRED} up to \\d+ ms late while it timed the deliveries`));
    const stalled = notes(r).find((n) => n.startsWith("the kit's event loop was seen to run up to "));
    expect(Number(/up to (\d+) ms/.exec(stalled ?? '')?.[1])).toBeGreaterThanOrEqual(250);
  });
  it('a callback only at another tag: no callback, the case never times a schedule of nothing', async () => {
    const r = await runBehindFront('service.callback.retry-back-off',
      callingBack(paid, undefined, (url, query) => `${url.replace(/\/cb\/[^/?#]+/, '/cb/stray')}?${query}`),
      { target: () => ({ timing: { callbackTimeoutMs: 300, retryWindowMs: 600 } }) });
    expect(r.reason).toBe('no callback arrived within timing.callbackTimeoutMs (300 ms) of an accepted transaction (§3: reaching a terminal state triggers one callback)');
  });

  it('the reference: PASS, the failing phase timed from the collect (up to the 200), the script and the rule noted', async () => {
    const r = await one('service.callback.retry-back-off');
    // On a busy machine the kit may not time the schedule (a SKIP that says so); the evidence is the same.
    if (r.verdict === 'SKIP') expect(r.reason).toMatch(new RegExp(`^${TIMING_BLURRED}`));
    else expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
    const { offsetsMs, intervalsMs } = r.evidence!.timeline!;
    expect(offsetsMs).toHaveLength(4);
    // From the collect: the first callback comes after the reference's 50 ms of processing, within the case.
    expect(offsetsMs[0]).toBeGreaterThanOrEqual(25);
    expect(offsetsMs.at(-1)).toBeLessThanOrEqual(r.durationMs);
    expect(intervalsMs).toEqual(offsetsMs.slice(1).map((o, i) => o - offsetsMs[i]!));
    expect(notes(r).filter((n) => !n.startsWith('the kit\'s event loop was seen'))).toEqual(['listener script: 500, 500, 500, 200', `offsets ${offsetsMs.join(', ')} ms; intervals ${intervalsMs.join(', ')} ms`, expect.stringMatching(/^rule: a step grows when/)]);
  });
  it('one delivery, then none: the stop noted, intervals none', async () => {
    const r = await one('service.callback.retry-back-off', ['no-retry'], ONE_DELIVERY);
    expect(notes(r)).toContain(`offsets ${r.evidence!.timeline!.offsetsMs[0]} ms; intervals none ms`);
    expect(notes(r)[0]).toBe('listener script: 500, 500, 500, 200');
    expect(notes(r)).toContainEqual(expect.stringMatching(/^the service stopped after 1 delivery within timing\.retryWindowMs \(\d+ ms\) while the listener still answered 500$/));
  });
  it('a single retry: stopped after 2 deliveries', async () => {
    const r = await one('service.callback.retry-back-off', ['single-retry'], ONE_DELIVERY);
    expect(notes(r)).toContainEqual(expect.stringMatching(/^the service stopped after 2 deliveries within/));
    // One interval is no sign of a fixed delay: the script is not extended.
    expect(notes(r)[0]).toBe('listener script: 500, 500, 500, 200');
  });
});

describe('service.callback.retries-stop-after-2xx', () => {
  it('deliveries 300 and 320 ms after a 204 that came 150 ms after the 500: seen (the watch is three gaps, not the 250 ms callback timeout), and the watch ends long before the window', async () => {
    const r = await runBehindFront('service.callback.retries-stop-after-2xx', retrying([150], { afterMs: [300, 20] }), { target: () => LONG_WINDOW });
    expect(r.reason).toMatch(/^2 further deliveries after the retry was answered 204, \d+ ms later/);
    expect(r.durationMs).toBeLessThan(5000);
  });
  it('the reference: PASS, noting the quiet after the 204', async () => {
    const r = await one('service.callback.retries-stop-after-2xx');
    expect(notes(r)).toEqual(['listener script: 500, 204', expect.stringMatching(/^no delivery within \d+ ms after the 204$/)]);
  });
  it('retried after the 204: WARN naming the 200-only reading', async () => {
    const r = await one('service.callback.retries-stop-after-2xx', ['only-200-success']);
    expect(r.reason).toMatch(/^\d+ further deliver(y|ies) after the retry was answered 204, \d+ ms later \(at-least-once allows repeats, but any 2xx should end the retries, §4\.3; a service that counts only 200 as delivered retries after a 204\)$/);
    expect(notes(r)).toEqual(['listener script: 500, 204']);
    const gap = Number(/, (\d+) ms later/.exec(r.reason!)![1]);
    expect(gap).toBeLessThan(r.durationMs);
  });
});

describe('production transport', () => {
  const production = async (caseId: string, faults: Parameters<typeof runAgainstReference>[2] = [], patch: Partial<ResolvedServiceTarget> = {}) => (await runAgainstReference(caseId, patch, faults, 'production'))[0]!;
  it('https-only-in-production, the reference: PASS, noting the http:// URL refused', async () => {
    expect(notes(await production('service.callback.https-only-in-production', [], NO_CALLBACK))).toEqual([expect.stringMatching(/^refused: HTTP 4\d\d /)]);
  });
  it('http:// accepted but never called: PASS saying so', async () => {
    const r = await runBehindFront('service.callback.https-only-in-production', async (_request, t) => t.json(200, { success: true, status: 'PENDING' }), {
      target: () => ({ mode: 'production', ...NO_CALLBACK }),
    });
    expect(notes(r)).toEqual(['accepted, but never called: HTTP 200 {"success":true,"status":"PENDING"}']);
  });
  it('https-only-in-production behind an https tunnel, the http:// URL refused: PASS (a refusal needs no plain tunnel)', async () => {
    const r = await production('service.callback.https-only-in-production', [], { ...NO_CALLBACK, listener: { host: '127.0.0.1', port: 0, publicUrl: 'https://127.0.0.1:9', tls: false, plainPublicUrl: null } });
    expect([r.verdict, notes(r)]).toEqual(['PASS', [expect.stringMatching(/^refused: HTTP 4\d\d /)]]);
  });
  it('delivered-over-https through a TLS tunnel that reaches nothing: no callback, no TLS handshake blamed (the listener speaks plain http)', async () => {
    const r = await production('service.callback.delivered-over-https', [], { ...NO_CALLBACK, listener: { host: '127.0.0.1', port: 0, publicUrl: 'https://127.0.0.1:9', tls: false, plainPublicUrl: null } });
    expect(r.reason).toMatch(/^no callback arrived within timing\.callbackTimeoutMs \(\d+ ms\) of an accepted transaction \(§3: reaching a terminal state triggers one callback\)$/);
  });
  it('delivered-over-https: a listener without TLS in production is SKIP, saying how to receive', async () => {
    const r = await production('service.callback.delivered-over-https', [], { listener: { host: '127.0.0.1', port: 0, publicUrl: null, tls: false, plainPublicUrl: null } });
    expect([r.verdict, r.reason]).toEqual(['SKIP', 'listener.publicUrl is http://: set listener.tls (or an https publicUrl) to receive production callbacks']);
  });
  it('delivered-over-https, called over plain http: no callback, and the TLS listener named as a likely cause', async () => {
    const r = await production('service.callback.delivered-over-https', ['https-downgrade'], NO_CALLBACK);
    expect(r.reason).toMatch(/^no callback arrived within timing\.callbackTimeoutMs \(\d+ ms\) of an accepted transaction .*; the listener speaks only TLS at https:\/\//);
  });
  it('delivered-over-https, the reference: PASS noting TLS at the listener', async () => {
    expect(notes(await production('service.callback.delivered-over-https'))).toEqual([expect.stringMatching(/^callback received over TLS at the listener after \d+ ms$/)]);
  });
});
