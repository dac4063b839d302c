// service.callback.token-present and duplicates-consistent (§4.3, §3, §6): each delivery's token,
// the first and the retry after a 500, and the outcomes of repeated deliveries (split from
// callback-answers.test.ts so its waits overlap with the other files').
import { describe, expect, it } from 'vitest';
import { callingBack, retrying, runBehindFront } from './fixtures/run-case.ts';
import { FIRST_ONLY, LONG_WINDOW, NO_RETRY, notes, one, paid, TOKEN } from './fixtures/callback-answers.ts';

describe('service.callback.token-present', () => {
  it('the reference: PASS, every delivery checked', async () => {
    expect(notes(await one('service.callback.token-present'))).toEqual(['2 deliveries (the first answered 500), each with the configured token']);
  });
  it('the 500 not retried: PASS on the first only, saying so', async () => {
    expect(notes(await one('service.callback.token-present', ['no-retry'], NO_RETRY))).toEqual([expect.stringMatching(/^only the first delivery was checked: the 500 answer was not retried within timing\.retryWindowMs \(\d+ ms\)$/)]);
  });
  it('no token on the first delivery: WARN; on the retry only: FAIL naming delivery 2', async () => {
    expect((await one('service.callback.token-present', ['no-token'])).verdict).toBe('WARN');
    expect((await one('service.callback.token-present', ['token-first-attempt-only'])).reason)
      .toBe('delivery 2 (a retry after the 500) carries no X-Callback-Token; the first delivery carried it, so a receiver checking the token refuses the retry');
  });
  it('the token sent twice: FAIL saying how often, not that it differs', async () => {
    const r = await runBehindFront('service.callback.token-present', callingBack(paid, [TOKEN, TOKEN]), { target: () => ({ callbackToken: TOKEN, ...FIRST_ONLY }) });
    expect(r.reason).toBe('X-Callback-Token is sent 2 times on the first delivery');
  });
  it('a stale token: FAIL naming the lengths, never the token', async () => {
    const r = await runBehindFront('service.callback.token-present', callingBack((f) => `transaction_id=${encodeURIComponent(f.transaction_id)}&status=SUCCESS&message=Paid+in+full`, 'stale'), {
      target: () => ({ callbackToken: TOKEN, ...FIRST_ONLY }),
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
    expect((await one('service.callback.duplicates-consistent', ['no-retry'], NO_RETRY)).reason).toMatch(/^not exercised: the 500 answer was not retried within timing\.retryWindowMs/);
  });
});

describe('service.callback.duplicates-consistent: the watch after the retry', () => {
  it('another outcome 1.5 gaps after the retry: seen (the watch is twice the gap), and the watch ends long before the window', async () => {
    const r = await runBehindFront('service.callback.duplicates-consistent', retrying([200], { afterMs: [300], afterStatus: 'FAILED' }), { target: () => LONG_WINDOW });
    expect(r.reason).toMatch(/^delivery 3 of 3 carries "\S+ FAILED" after "\S+ SUCCESS"/);
    expect(r.durationMs).toBeLessThan(5000);
  });
});
