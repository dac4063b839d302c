// §4.3 endpoint shape (GET at the callback path), routing, §6 rule 4 logging, https.
import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { generate } from 'selfsigned';
import { composeCallbackUrl } from '../../harness/callback/index.ts';
import { TOKEN, callback, newId, receiverPool, seed, send, stateOf, tokenHeaders } from './helpers.ts';

const start = receiverPool();

describe('§4.3: the callback endpoint is GET at the callback path', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers 405 with Allow: GET to %s, with no action', async (method) => {
    const r = await start();
    const id = newId('m');
    await seed(r, id);
    const url = composeCallbackUrl(r.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'x' });
    const answer = await send(url, { method, headers: tokenHeaders(TOKEN) });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET');
    expect(await stateOf(r, id)).toBe('pending');
  });
  it('answers 404 for other paths, including near misses', async () => {
    const r = await start();
    for (const path of ['/', '/callback/', '/Callback', '/callbackx', '/_conformance']) {
      expect((await send(r.url + path, { headers: tokenHeaders(TOKEN) })).status, path).toBe(404);
    }
  });
  it('serves callbacks at another callbackPath when configured', async () => {
    const r = await start({ callbackPath: '/payments/callback' });
    expect(r.callbackUrl).toBe(`${r.url}/payments/callback`);
    const id = newId('p');
    await seed(r, id);
    expect((await callback(r, { transaction_id: id })).status).toBe(200);
  });
});

describe('§6 rule 4: one log line per request with a timestamp and the raw query', () => {
  it('logs the raw (undecoded) query and the answer', async () => {
    const r = await start();
    const id = newId('log');
    await seed(r, id);
    const url = composeCallbackUrl(r.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'Paid in full' });
    await send(url, { headers: tokenHeaders(TOKEN) });
    const line = r.lines.find((l) => l.includes(' callback '));
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z receiver callback GET /);
    expect(line).toContain(`query="${new URL(url).search.slice(1)}"`);
    expect(line).toContain('message=Paid+in+full');
    expect(line).toMatch(/-> 200 applied$/);
  });
  it('never writes the token, even when it turns up in the query', async () => {
    const r = await start();
    await send(`${r.callbackUrl}?transaction_id=x&status=SUCCESS&message=${TOKEN}`, { headers: tokenHeaders(TOKEN) });
    await send(`${r.callbackUrl}?token=${encodeURIComponent(TOKEN)}`, { headers: tokenHeaders(`${TOKEN}x`) });
    expect(r.lines.length).toBeGreaterThanOrEqual(2);
    for (const line of r.lines) expect(line).not.toContain(TOKEN);
    expect(r.lines.join('\n')).toContain('[REDACTED]');
  });
});

describe('https (tls: {key, cert})', () => {
  it('serves callbacks and hooks over https', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    });
    const r = await start({ tls: { key: pems.private, cert: pems.cert } });
    expect(r.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const dispatcher = new Agent({ connect: { ca: pems.cert } });
    try {
      const id = newId('tls');
      const seeded = await request(`${r.hooksUrl}/transactions`, {
        method: 'POST', dispatcher, body: JSON.stringify({ transaction_id: id, amount: '1.00' }),
      });
      expect(seeded.statusCode).toBe(201);
      await seeded.body.dump();
      const url = composeCallbackUrl(r.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'ok' });
      const answer = await request(url, { dispatcher, headers: { 'x-callback-token': TOKEN } });
      expect(answer.statusCode).toBe(200);
      await answer.body.dump();
    } finally {
      await dispatcher.close();
    }
  });
});
