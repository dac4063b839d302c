// service.auth (§5.2, §5.4) against answers no fault switch of the reference gives: a front of the
// tests' own making (suites/service/fixtures/front.ts) answers collect per source and per header,
// the reference behind it processes what the front passes on. What each case sends (the changed
// values), what its PASS notes, and which words its FAIL or ERROR uses. Here the source
// whitelist; the rejection cases' words and the changed values: auth-changed-answers.test.ts
// (split from here so that the two overlap across workers).
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../harness/results/index.ts';
import { startConnectProxy, type RunningConnectProxy } from './fixtures/connect-proxy.ts';
import { NO_CALLBACK } from './fixtures/callback-answers.ts';
import { runBehindFront } from './fixtures/run-case.ts';

/** Whether this machine can listen on the IPv6 loopback address. */
const IPV6_LOOPBACK = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

const IP_CASE = 'service.auth.ip-not-whitelisted';
const CONTROL = 'control: the same request from the whitelisted source';
const PLAIN = 'a correctly signed request from a non-whitelisted source';
const CLAIMING = 'the same request from the non-whitelisted source claiming';
const REFUSED = { status: 403, body: { success: false, error_code: 'IP_NOT_WHITELISTED' } };

const labels = (r: CaseResult) => (r.evidence?.exchanges ?? []).map((x) => x.label);
const notes = (r: CaseResult) => r.evidence?.notes ?? [];
const claims = (headers: Record<string, unknown>) => headers['x-forwarded-for'] !== undefined;
/**
 * Where no request the case sends is processed (refused, or answered by the front alone), its
 * rejection watches (timing.callbackTimeoutMs) are waited out for nothing: 500 ms instead of the
 * embedded target's 1,000. Where a refused request is processed all the same, the default stays.
 */
const WATCHED = { target: () => NO_CALLBACK };

describe('service.auth.ip-not-whitelisted', () => {
  it('refused (403) from the non-whitelisted source, claiming or not: PASS, no reason, no control sent, each refusal noted once', async () => {
    const r = await runBehindFront(IP_CASE, async ({ source }, t) => (source === '127.0.0.2' ? t.json(REFUSED.status, REFUSED.body) : t.forward()), WATCHED);
    expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
    expect(labels(r)).not.toContain(CONTROL);
    expect(notes(r).filter((n) => n.startsWith(`${PLAIN}: HTTP 403`))).toHaveLength(1);
    expect(notes(r).filter((n) => n.startsWith(`${CLAIMING} 127.0.0.1 in X-Forwarded-For`))).toHaveLength(1);
    // The claimed address is the loopback one the service whitelists: nothing to say about a NAT.
    expect(notes(r).join('\n')).not.toMatch(/NAT|not repeated/);
  });

  it('silent to the non-whitelisted source, answering the whitelisted one: PASS, the control\'s answer noted once', async () => {
    const r = await runBehindFront(IP_CASE, async ({ source }, t) => (source === '127.0.0.2' ? t.silent() : t.forward()), WATCHED);
    expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
    expect(labels(r).filter((l) => l === CONTROL)).toHaveLength(1);
    expect(notes(r).filter((n) => n.startsWith(`${CONTROL} was answered HTTP 200`))).toHaveLength(1);
    expect(notes(r).filter((n) => n.includes('counted as a rejection at the network'))).toHaveLength(2);
    expect(notes(r).filter((n) => n.startsWith(`${PLAIN}: no answer (`))).toHaveLength(1);
    expect(new Set(notes(r)).size, notes(r).join('\n')).toBe(notes(r).length);
  });

  it('silent to every source: ERROR, the silence says nothing about the whitelist', async () => {
    const r = await runBehindFront(IP_CASE, async (_request, t) => t.silent(), WATCHED);
    expect(r.verdict).toBe('ERROR');
    expect(r.reason).toMatch(/^a correctly signed request from a non-whitelisted source got no HTTP answer \(.+\), and the same request from the whitelisted source got none either/);
    expect(r.reason).toContain('the service answered neither, so the silence says nothing about its whitelist');
    expect(labels(r)).toContain(CONTROL);
  });

  it('accepted from the non-whitelisted source without a forwarding header: FAIL, the source not checked', async () => {
    const r = await runBehindFront(IP_CASE, async (_request, t) => t.forward());
    expect(r.verdict).toBe('FAIL');
    expect(r.reason).toMatch(new RegExp(`^${PLAIN} was answered HTTP 200`));
    expect(r.reason).toMatch(/\. The harness wrote no forwarding header into it, so the service likely checks no source address at all$/);
  });

  it('refused without the forwarding headers, accepted with them: FAIL, the header trusted', async () => {
    const r = await runBehindFront(IP_CASE, async ({ source, req }, t) => (source === '127.0.0.2' && !claims(req.headers) ? t.json(REFUSED.status, REFUSED.body) : t.forward()), WATCHED);
    expect(r.verdict).toBe('FAIL');
    expect(r.reason).toMatch(new RegExp(`^${CLAIMING} 127\\.0\\.0\\.1 in X-Forwarded-For, X-Real-IP and Forwarded was answered HTTP 200`));
    expect(r.reason).toMatch(/\. Without those headers it was rejected: the service likely takes the client's address from a header the client writes/);
  });

  it('answered 403 without the forwarding headers, but processed all the same (its whitelist checked after it queued the request): FAIL for the callback, no guess about headers', async () => {
    const r = await runBehindFront(IP_CASE, async ({ source, req }, t) => {
      if (source !== '127.0.0.2') return t.forward();
      return claims(req.headers) ? t.json(REFUSED.status, REFUSED.body) : t.forward(REFUSED);
    });
    expect(r.verdict).toBe('FAIL');
    expect(r.reason).toMatch(new RegExp(`^${PLAIN} was answered HTTP 403`));
    expect(r.reason).toContain('yet a callback for it arrived');
    expect(r.reason).not.toMatch(/forwarding header|Without those headers/);
  });

  // A machine (a container) may have IPv6 switched off: then this one test cannot run, and says so.
  if (!IPV6_LOOPBACK) console.warn('skipped: the [::1] test of service.auth.ip-not-whitelisted (this machine cannot listen on ::1)');
  describe.skipIf(!IPV6_LOOPBACK)('the service at [::1], the non-whitelisted route a proxy whose connections it does not whitelist', () => {
    let proxy: RunningConnectProxy;
    beforeAll(async () => {
      proxy = await startConnectProxy();
    });
    afterAll(async () => {
      await proxy.close();
    });
    it('the claimed address is ::1, loopback: PASS, and no NAT note', async () => {
      const r = await runBehindFront(IP_CASE, async ({ req }, t) => (proxy.ports.has(req.socket.remotePort!) ? t.json(REFUSED.status, REFUSED.body) : t.forward()), {
        host: '::1', target: () => ({ ...NO_CALLBACK, sources: { notWhitelisted: { proxy: proxy.url } } }),
      });
      expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
      const forged = r.evidence!.exchanges!.find((x) => x.request.headers['x-forwarded-for'] !== undefined);
      expect(forged?.request.headers).toMatchObject({ 'x-forwarded-for': '::1', forwarded: 'for="[::1]"' });
      expect(notes(r).join('\n')).not.toMatch(/NAT/);
    });
  });

  describe('a service this machine reaches only through the proxy (its host name resolves there, not here)', () => {
    let proxy: RunningConnectProxy;
    beforeAll(async () => {
      proxy = await startConnectProxy({ localAddress: '127.0.0.2', rewrite: (host) => (host === 'collect.invalid' ? '127.0.0.1' : host) });
    });
    afterAll(async () => {
      await proxy.close();
    });
    it('its own address towards the service cannot be learned: the plain request judged alone, and the note says the claim was not sent', async () => {
      const r = await runBehindFront(IP_CASE, async ({ source }, t) => (source === '127.0.0.2' ? t.json(REFUSED.status, REFUSED.body) : t.forward()), {
        target: (front) => ({ ...NO_CALLBACK, baseUrl: front.replace('127.0.0.1', 'collect.invalid'), sources: { notWhitelisted: { proxy: proxy.url } } }),
      });
      expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
      expect(notes(r)).toContain('not repeated with X-Forwarded-For: this machine\'s own address towards the service could not be learned');
      expect(labels(r).filter((l) => l?.startsWith(CLAIMING))).toEqual([]);
    });
  });
});
