// service.callback.retries-stop-after-2xx (§4.3, §6 Retry) and the production transport
// (https-only-in-production, delivered-over-https: §6 Transport), against the reference with its
// faults and services of the tests' own making (split from callback-answers.test.ts so its waits
// overlap with the other files').
import { describe, expect, it } from 'vitest';
import type { ResolvedServiceTarget } from '../../harness/targets/index.ts';
import { retrying, runAgainstReference, runBehindFront } from './fixtures/run-case.ts';
import { LONG_WINDOW, NO_CALLBACK, notes, one } from './fixtures/callback-answers.ts';

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
