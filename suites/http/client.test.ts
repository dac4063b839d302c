// harness/http/client.ts on its own: what an exchange records of the request as sent (headers as
// shown, the body, the curl line), what it keeps of the answer (redacted as read, even what the
// target echoes of a value sent but not shown), and each way an exchange fails (a time limit, a
// refused connection, the case stopping before it was sent, a client closed), against servers of
// this file's own making on 127.0.0.1.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand, HttpClient, tokenHeader, type HttpClientOptions } from '../../harness/http/index.ts';
import { listenerTls } from '../../harness/listener/index.ts';
import { REDACTED } from '../../harness/secrets/index.ts';
import type { Wire } from '../../harness/wire/index.ts';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
let handler: Handler = (_req, res) => res.end('ok');
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => { body += c.toString('utf8'); }).on('end', () => handler(req, res, body));
});
let url = '';
const clients: HttpClient[] = [];
const client = (options: Partial<HttpClientOptions> = {}) => {
  const c = new HttpClient({ requestTimeoutMs: 2000, ...options });
  clients.push(c);
  return c;
};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('curlCommand: the request as a command to run again', () => {
  it('a POST with headers and a body: -X, -H per header (a shell word when given), --data-binary, quoted', () => {
    expect(curlCommand({ method: 'POST', url: "http://h/p?q='1'", headers: [{ name: 'A', value: "it's" }, tokenHeader('secret', 'MY_TOKEN')], body: '{"a":1}', timeoutMs: 5000 }))
      .toBe(`curl -sS -i --max-time 5 -X POST -H 'A: it'\\''s' -H "X-Callback-Token: $MY_TOKEN" --data-binary '{"a":1}' 'http://h/p?q='\\''1'\\'''`);
  });
  it('a GET without headers or a body: no -X, no -H, no data; a limit under a second is one second', () => {
    expect(curlCommand({ url: 'http://h/', timeoutMs: 200 })).toBe("curl -sS -i --max-time 1 'http://h/'");
  });
  it('headers as a record, secrets as environment references, the source and CA options, no limit: the URL last', () => {
    const secrets = [{ value: 'ck-123', envName: 'COLLECT_CLIENT_KEY' }];
    expect(curlCommand({ method: 'POST', url: 'http://h/c', headers: { Authorization: 'HMAC ck-123:ab' }, body: '{}', localAddress: '127.0.0.2', proxy: 'http://p:1', caFile: 'ca.pem' }, secrets))
      .toBe(`curl -sS -i -X POST -H 'Authorization: HMAC '"\${COLLECT_CLIENT_KEY}"':ab' --data-binary '{}' --interface '127.0.0.2' --proxy 'http://p:1' --cacert 'ca.pem' 'http://h/c'`);
  });
});

describe('an exchange records the request as shown', () => {
  it('the label, the method, headers as shown (the token by its name in any case, a given `shown`), a name sent again joining the first, the body', async () => {
    handler = (_req, res) => res.end('ok');
    const c = client();
    const r = await c.send({ label: 'one', method: 'POST', url, body: 'b=1', headers: [
      { name: 'x-callback-token', value: 'tok-secret' }, { name: 'X-Near', value: 'tok-secre', shown: '(the token minus its last character)' },
      { name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }, { name: 'X-a', value: '3' }, { name: 'X-Plain', value: 'visible' },
    ] });
    expect(r.ok).toBe(true);
    expect(c.exchanges).toEqual([r.exchange]);
    expect(r.exchange.label).toBe('one');
    expect(r.exchange.request).toEqual({
      method: 'POST', url, body: 'b=1',
      headers: { 'x-callback-token': REDACTED, 'X-Near': '(the token minus its last character)', 'X-A': ['1', '2', '3'], 'X-Plain': 'visible' },
    });
  });
  it('without a label, a method or a body: none shown, GET; a send not recorded stays out of the exchanges', async () => {
    const c = client();
    const r = await c.send({ url }, false);
    expect(r.exchange).not.toHaveProperty('label');
    expect(r.exchange.request).toEqual({ method: 'GET', url, headers: {} });
    expect(r.exchange.request).not.toHaveProperty('body');
    expect(c.exchanges).toEqual([]);
  });
});

describe('the answer is kept redacted as read', () => {
  // Two spaces each side: the Redactor finds a secret less one character at either end, not less two.
  it('a target echoing what it got: values sent but not shown (as sent and trimmed) are redacted, shown ones stay', async () => {
    handler = (req, res) => {
      const echoed = `${String(req.headers['x-near'])} ${String(req.headers['x-plain'])}`;
      res.setHeader('x-echo', echoed);
      res.end(echoed);
    };
    const r = await client().send({ url, headers: [{ name: 'X-Near', value: '  near-miss-value  ', shown: '(a near miss)' }, { name: 'X-Plain', value: 'visible' }] });
    if (!r.ok) throw new Error(r.failure.message);
    expect(r.answer.body).toBe(`${REDACTED} visible`);
    expect(r.answer.headers['x-echo']).toBe(`${REDACTED} visible`);
    expect(r.exchange.response?.bodyExcerpt).toBe(`${REDACTED} visible`);
  });
});

describe('a 429 on the way', () => {
  it('retried once where the wire allows: the first exchange and its Retry-After kept, the retry labelled', async () => {
    let n = 0;
    handler = (_req, res) => (n++ === 0 ? res.writeHead(429, { 'retry-after': '0' }).end() : res.end('ok'));
    const asked: Array<{ retry?: boolean } | undefined> = [];
    const wire: Wire = { exchange: (send, options) => { asked.push(options); return send(); }, throttled: () => undefined, pace: '2/s' };
    const c = client({ wire });
    const r = await c.send({ url, label: 'asked' });
    expect(r.ok && r.answer.status).toBe(200);
    expect(r.retried).toEqual({ exchange: c.exchanges[0], retryAfter: '0', waitedMs: expect.any(Number) });
    expect(c.exchanges.map((e) => [e.label, e.response?.status])).toEqual([['asked', 429], ['asked (sent again after 429)', 200]]);
    expect(r).not.toHaveProperty('final429');
    expect(c.pace).toBe('2/s');
    // The retry goes ahead of the exchanges waiting at the wire: the wire is told which one it is.
    expect(asked).toEqual([{ retry: false }, { retry: true }]);
  });
  it('outside a run a 429 is not sent again: final429 says why', async () => {
    handler = (_req, res) => res.writeHead(429, { 'retry-after': '1' }).end();
    const c = client();
    const r = await c.send({ url });
    expect(r.final429).toEqual({ kind: 'not-retried', why: 'outside-a-run', retryAfter: '1' });
    expect(r).not.toHaveProperty('retried');
    expect(c.pace).toBe('unpaced');
  });
});

describe('each way an exchange fails', () => {
  it('no answer within the limit: timeout, with the limit, timed', async () => {
    handler = () => undefined; // never answers
    const before = performance.now();
    const r = await client().send({ url, timeoutMs: 150 });
    const elapsed = performance.now() - before;
    if (r.ok) throw new Error('answered');
    expect(r.failure).toEqual({ code: 'timeout', message: 'no answer within 150 ms', limitMs: 150 });
    expect(r.exchange.failure).toEqual(r.failure);
    expect(r.exchange.error).toBe('no answer within 150 ms');
    expect(r.durationMs).toBeGreaterThanOrEqual(140);
    expect(r.durationMs).toBeLessThanOrEqual(Math.round(elapsed));
  });
  it('a refused connection: refused, no limit named', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await client().send({ url: `http://127.0.0.1:${port}/` });
    if (r.ok) throw new Error('answered');
    expect(r.failure).toEqual({ code: 'refused', message: 'the connection was refused (ECONNREFUSED)' });
  });
  it('the case stopped while the exchange waited for the wire: not sent, recorded as such', async () => {
    const wire: Wire = { exchange: () => Promise.reject(new Error('the case reached its time limit')), throttled: () => undefined, pace: '1/s' };
    const c = client({ wire });
    const r = await c.send({ url, label: 'late' });
    expect(r).toEqual({ ok: false, exchange: c.exchanges[0], failure: { code: 'not-sent', message: 'not sent: the case reached its time limit' }, durationMs: 0 });
    expect(c.exchanges[0]).toMatchObject({ label: 'late', error: 'not sent: the case reached its time limit', failure: { code: 'not-sent' } });
  });
  it('a client closed sends nothing more', async () => {
    handler = (_req, res) => res.end('ok');
    const c = client();
    expect((await c.send({ url })).ok).toBe(true);
    await c.close();
    expect((await c.send({ url })).ok).toBe(false);
  });
});

describe('caCert: a target certificate signed by the CA given is trusted, and only then', () => {
  it('https with the CA: answered; without it: a TLS failure', async () => {
    const tls = await listenerTls();
    const secure = https.createServer({ key: tls.key, cert: tls.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    try {
      const at = `https://127.0.0.1:${(secure.address() as AddressInfo).port}/`;
      const trusted = await client({ caCert: tls.caCert }).send({ url: at });
      expect(trusted.ok && trusted.answer.body).toBe('ok');
      const untrusted = await client().send({ url: at });
      expect(!untrusted.ok && untrusted.failure.code).toBe('tls');
    } finally {
      secure.closeAllConnections();
      await new Promise((resolve) => secure.close(resolve));
    }
  });
});
