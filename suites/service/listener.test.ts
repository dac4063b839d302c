// The callback listener (harness/listener): records deliveries, answers scripts, serves https.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_DELIVERIES_PER_TAG, startListener, toDelivery, type RunningListener } from '../../harness/listener/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';

const open: RunningListener[] = [];
afterAll(async () => { await Promise.all(open.map((l) => l.close())); });

async function start(opts: Parameters<typeof startListener>[0] = {}) {
  const l = await startListener(opts);
  open.push(l);
  return l;
}

async function get(url: string, agent?: Agent, headers: Record<string, string> = {}) {
  const r = await request(url, { method: 'GET', headers, ...(agent ? { dispatcher: agent } : {}) });
  await r.body.text();
  return r.statusCode;
}

describe('records every delivery keyed by transaction_id and case tag', () => {
  it('keeps method, raw URL, headers, tag and decoded transaction_id', async () => {
    const l = await start();
    const url = l.callbackUrl('case-a', { query: 'ref=a%3Db&x=1' }) + '&transaction_id=tx+1%2F2&status=SUCCESS&message=Paid+ok';
    expect(await get(url, undefined, { 'x-callback-token': 'tok' })).toBe(200);
    const [d] = l.deliveries({ transactionId: 'tx 1/2' });
    expect(d).toBeDefined();
    expect(d!.method).toBe('GET');
    expect(d!.tag).toBe('case-a');
    expect(d!.rawUrl).toBe('/cb/case-a?ref=a%3Db&x=1&transaction_id=tx+1%2F2&status=SUCCESS&message=Paid+ok');
    expect(d!.headers['x-callback-token']).toBe('tok');
    expect(d!.overHttps).toBe(false);
    expect(l.deliveries({ tag: 'case-b' })).toHaveLength(0);
  });
  it('toDelivery times a delivery from the case start', async () => {
    const l = await start();
    const t0 = performance.now();
    await get(l.callbackUrl('t') + '?transaction_id=z');
    const d = toDelivery(l.deliveries({ tag: 't' })[0]!, t0);
    expect(d.atMs).toBeGreaterThanOrEqual(0);
    expect(d.answeredStatus).toBe(200);
  });
  it('refuses tags that are not URL-safe', async () => {
    const l = await start();
    expect(() => l.callbackUrl('a/b')).toThrow(/tag/);
  });
});

describe('answers each transaction as its case scripted', () => {
  it('500, 500, then 200 for a scripted id; 200 for others', async () => {
    const l = await start();
    l.script({ transactionId: 'r1' }, [500, 503]);
    const u = l.callbackUrl('retry') + '?transaction_id=r1';
    expect([await get(u), await get(u), await get(u), await get(u)]).toEqual([500, 503, 200, 200]);
    expect(await get(l.callbackUrl('retry') + '?transaction_id=other')).toBe(200);
    expect(l.deliveries({ transactionId: 'r1' }).map((d) => d.answeredStatus)).toEqual([500, 503, 200, 200]);
  });
  it('a scripted 204 goes out as 204 with no content (a 2xx other than 200)', async () => {
    const l = await start();
    l.script({ tag: 'no-content' }, [500, 204]);
    const u = l.callbackUrl('no-content');
    const answers = [];
    for (let i = 0; i < 2; i++) {
      const r = await request(u, { method: 'GET' });
      answers.push({ status: r.statusCode, body: await r.body.text(), type: r.headers['content-type'] });
    }
    expect(answers).toEqual([{ status: 500, body: 'scripted failure', type: 'text/plain' }, { status: 204, body: '', type: undefined }]);
    expect(l.deliveries({ tag: 'no-content' }).map((d) => d.answeredStatus)).toEqual([500, 204]);
  });
  it('a tag script applies to deliveries without a known id', async () => {
    const l = await start();
    l.script({ tag: 'by-tag' }, [418]);
    expect(await get(l.callbackUrl('by-tag'))).toBe(418);
  });
});

describe('waitFor: count, settle and time-out', () => {
  it('resolves when count arrived, keeps collecting during settleMs', async () => {
    const l = await start();
    const u = l.callbackUrl('w') + '?transaction_id=w1';
    // A settle window wide enough for a second local request on a loaded 2-core machine.
    const waiting = l.waitFor({ transactionId: 'w1' }, { count: 1, timeoutMs: 3000, settleMs: 600 });
    await get(u);
    setTimeout(() => { void get(u); }, 30);
    expect(await waiting).toHaveLength(2);
  });
  it('resolves with what arrived when the time-out passes', async () => {
    const l = await start();
    const began = performance.now();
    const got = await l.waitFor({ transactionId: 'never' }, { timeoutMs: 120 });
    expect(got).toEqual([]);
    expect(performance.now() - began).toBeGreaterThanOrEqual(110);
  });
  it('stops on abort', async () => {
    const l = await start();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    const began = performance.now();
    await l.waitFor({ tag: 'x' }, { timeoutMs: 5000, signal: ac.signal });
    expect(performance.now() - began).toBeLessThan(1000);
  });
});

describe('https with a generated CA (SANs localhost, 127.0.0.1, ::1), and a plain listener', () => {
  it('serves https that validates against the exposed CA only', async () => {
    const l = await start({ tls: true, plain: true });
    expect(l.publicUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(l.caCert).toMatch(/BEGIN CERTIFICATE/);
    const trusting = new Agent({ connect: { ca: l.caCert! } });
    try {
      expect(await get(l.callbackUrl('s') + '?transaction_id=h1', trusting)).toBe(200);
      const port = new URL(l.publicUrl).port;
      expect(await get(`https://localhost:${port}/cb/s?transaction_id=h2`, trusting)).toBe(200);
    } finally { await trusting.close(); }
    expect(l.deliveries({ transactionId: 'h1' })[0]!.overHttps).toBe(true);
    await expect(get(l.callbackUrl('s') + '?transaction_id=h3')).rejects.toThrow();
    expect(l.plainPublicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await get(l.callbackUrl('p', { plain: true }) + '?transaction_id=p1')).toBe(200);
    const [p] = l.deliveries({ transactionId: 'p1' });
    expect(p!.server).toBe('plain');
    expect(p!.overHttps).toBe(false);
  });
  it('uses publicUrl when given (a tunnel)', async () => {
    const l = await start({ publicUrl: 'https://tunnel.example/x/' });
    expect(l.callbackUrl('c', { query: 'a=1' })).toBe('https://tunnel.example/x/cb/c?a=1');
  });
});

describe('toDelivery never passes a credential header on to evidence', () => {
  // A token that differs from the configured one is typically the account's real, current token
  // (the target file holds a stale one): the Redactor does not know it, so the header is masked.
  const base = { seq: 1, receivedAt: 0, method: 'GET', rawUrl: '/cb/t?transaction_id=1', answeredStatus: 200, overHttps: false, server: 'main' as const };
  it('masks an X-Callback-Token that is not a known secret, keeping its length', () => {
    const d = toDelivery({ ...base, headers: { 'x-callback-token': 'the-current-real-token', host: 'h' } }, 0, new Redactor(['configured-token']));
    expect(JSON.stringify(d)).not.toContain('the-current-real-token');
    expect(d.headers['x-callback-token']).toBe('[REDACTED: 22 characters, not the configured token]');
    expect(d.headers['host']).toBe('h');
  });
  it('shows the configured token as [REDACTED], and masks every copy of a header sent twice', () => {
    const d = toDelivery({ ...base, headers: { 'x-callback-token': ['configured-token', 'other-secret'] } }, 0, new Redactor(['configured-token']));
    expect(d.headers['x-callback-token']).toEqual(['[REDACTED]', '[REDACTED: 12 characters, not the configured token]']);
  });
  it('masks without a redactor too, and Authorization and Cookie likewise', () => {
    const d = toDelivery({ ...base, headers: { 'x-callback-token': 'abcd', authorization: 'Bearer xyz1', cookie: 's=1' } }, 0);
    expect(JSON.stringify(d)).not.toMatch(/abcd|xyz1|s=1/);
  });
});

describe('a delivery flood keeps memory bounded (issue 10)', () => {
  it(`each tag keeps its first ${MAX_DELIVERIES_PER_TAG} deliveries; later ones are still answered`, async () => {
    const l = await start();
    const url = l.callbackUrl('flood') + '?transaction_id=f&status=SUCCESS';
    const statuses: number[] = [];
    for (let batch = 0; batch < 21; batch++) {
      statuses.push(...await Promise.all(Array.from({ length: 50 }, () => get(url))));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1050);
    expect(l.deliveries({ tag: 'flood' })).toHaveLength(MAX_DELIVERIES_PER_TAG);
    expect(l.deliveries({ tag: 'flood' })[0]!.seq).toBe(1);
  });
});
