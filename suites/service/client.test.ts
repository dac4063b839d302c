// The signing client (harness/client): what it sends is what a §5 verifier must accept.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CollectClient, ownAddressTowards, UNSORTED_ORDER, COLLECT_FIELD_NAMES, judgeAnswer, judgeAnswerWhy, atPointer, DEFAULT_REJECTION, WRONG_CLIENT_KEY,
  type CollectFields, type RejectionRule,
} from '../../harness/client/index.ts';
import { parseAuthorizationHeader, verifyBody, readRawJsonObject } from '../../harness/signing/index.ts';
import { shellWord } from '../../harness/http/index.ts';

const SECRET = 'sk-test-secret-value-123';
const CLIENT_KEY = 'ck-test-client-key-456';

interface Seen { body: string; headers: IncomingMessage['headers']; remote: string | undefined }
let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let answer: { status: number; body: string } = { status: 200, body: '{"success":true}' };

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, remote: req.socket.remoteAddress });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => { await new Promise((r) => server.close(r)); });

const fields: CollectFields = {
  amount: '15.0',
  callback_url: 'https://merchant.example/cb?ref=a=b&x=1?',
  client_id: 2,
  customer_number: '0244000001',
  network_code: 'MTN',
  transaction_id: 'tx-1',
};

function client(extra: Partial<ConstructorParameters<typeof CollectClient>[0]> = {}) {
  return new CollectClient({ baseUrl, clientKey: CLIENT_KEY, secretKey: SECRET, ...extra });
}

describe('§5.1: the body is sent unsorted and signed over its exact bytes', () => {
  it('writes keys in a non-sorted order and the signature verifies over the bytes sent', async () => {
    const c = client();
    try {
      const a = await c.send({ fields });
      const last = seen.at(-1)!;
      const keys = readRawJsonObject(last.body).map((m) => m.key);
      expect(keys).toEqual([...UNSORTED_ORDER]);
      expect(keys).not.toEqual([...COLLECT_FIELD_NAMES]);
      const auth = parseAuthorizationHeader(last.headers.authorization);
      expect(auth.clientKey).toBe(CLIENT_KEY);
      expect(verifyBody(last.body, SECRET, auth.signature)).toBe(true);
      expect(last.headers['content-type']).toBe('application/json');
      expect(a.judgement).toBe('accepted');
      expect(a.exchange.request.url).toBe(`${baseUrl}/api/v1.0/collect/`);
    } finally { await c.close(); }
  });
});

describe('§5.2: tamper helpers spoil exactly one thing', () => {
  it('change-field: the body sent differs from the body signed in that field only', async () => {
    const c = client();
    try {
      const a = await c.send({ fields, tamper: { kind: 'change-field', field: 'amount', value: '16.0' } });
      const last = seen.at(-1)!;
      expect(JSON.parse(last.body).amount).toBe('16.0');
      expect(JSON.parse(a.prepared.signedBody).amount).toBe('15.0');
      expect(verifyBody(last.body, SECRET, parseAuthorizationHeader(last.headers.authorization).signature)).toBe(false);
      expect(verifyBody(a.prepared.signedBody, SECRET, a.prepared.presentedSignature)).toBe(true);
    } finally { await c.close(); }
  });
  it('drop-field and add-field change the members sent', () => {
    const c = client();
    const dropped = c.prepare({ fields, tamper: { kind: 'drop-field', field: 'network_code' } });
    expect(JSON.parse(dropped.sentBody)).not.toHaveProperty('network_code');
    expect(JSON.parse(dropped.signedBody)).toHaveProperty('network_code');
    const added = c.prepare({ fields, tamper: { kind: 'add-field', field: 'extra', value: 'x' } });
    expect(JSON.parse(added.sentBody).extra).toBe('x');
  });
  it('wrong secret, wrong client key, upper-case, truncated, missing header', () => {
    const c = client();
    const good = c.prepare({ fields });
    const wrongSecret = c.prepare({ fields, tamper: { kind: 'wrong-secret' } });
    expect(wrongSecret.presentedSignature).not.toBe(good.presentedSignature);
    expect(wrongSecret.presentedSignature).toMatch(/^[0-9a-f]{64}$/);
    expect(c.prepare({ fields, tamper: { kind: 'wrong-client-key' } }).authorization).toBe(`HMAC ${WRONG_CLIENT_KEY}:${good.presentedSignature}`);
    expect(c.prepare({ fields, tamper: { kind: 'uppercase-signature' } }).presentedSignature).toBe(good.presentedSignature.toUpperCase());
    expect(c.prepare({ fields, tamper: { kind: 'truncated-signature' } }).presentedSignature).toBe(good.presentedSignature.slice(0, 63));
    expect(c.prepare({ fields, tamper: { kind: 'missing-header' } }).authorization).toBeUndefined();
  });
  it('missing-header sends no Authorization header', async () => {
    const c = client();
    try {
      await c.send({ fields, tamper: { kind: 'missing-header' } });
      expect(seen.at(-1)!.headers.authorization).toBeUndefined();
    } finally { await c.close(); }
  });
});

describe('sources: sources.notWhitelisted binds the local address', () => {
  it('sends from 127.0.0.2 when asked, from 127.0.0.1 by default', async () => {
    const c = client({ sources: { notWhitelisted: { localAddress: '127.0.0.2' } } });
    try {
      const a = await c.send({ fields }, { source: 'notWhitelisted' });
      expect(seen.at(-1)!.remote?.replace(/^::ffff:/, '')).toBe('127.0.0.2');
      expect(a.exchange.request.localAddress).toBe('127.0.0.2');
      expect(a.exchange.curl).toContain("--interface '127.0.0.2'");
      await c.send({ fields });
      expect(seen.at(-1)!.remote?.replace(/^::ffff:/, '')).toBe('127.0.0.1');
    } finally { await c.close(); }
  });
  it('refuses the not-whitelisted source when the target names none (ERR_CLIENT_SOURCE)', async () => {
    const c = client();
    await expect(c.send({ fields }, { source: 'notWhitelisted' })).rejects.toMatchObject({ code: 'ERR_CLIENT_SOURCE' });
  });
});

describe('DESIGN.md: accepted vs rejected candidate', () => {
  it.each([
    [200, '{"success":true}', 'accepted'],
    [201, 'not json', 'accepted'],
    [200, '{"success":false,"message":"no"}', 'rejected-candidate'],
    [200, '{"success":"false"}', 'accepted'],
    [401, '{"success":true}', 'rejected-candidate'],
    [302, '', 'rejected-candidate'],
    // The shape real clients of this API check: a non-null error_code, with or without success.
    [200, '{"error_code":410,"error_message":"number not allowed"}', 'rejected-candidate'],
    [200, '{"error_code":"E17"}', 'rejected-candidate'],
    [200, '{"error_code":0}', 'rejected-candidate'],
    [200, '{"error_code":null,"transaction_id":"T1"}', 'accepted'],
    [200, '{"success":true,"error_code":null}', 'accepted'],
    [200, '[{"error_code":1}]', 'accepted'],
  ] as const)('status %i body %s → %s', (status, body, expected) => {
    expect(judgeAnswer(status, body)).toBe(expected);
  });
  it('says what made an answer a rejection, as observed', () => {
    expect(judgeAnswerWhy(403, '{}')).toEqual({ judgement: 'rejected-candidate', because: 'HTTP 403' });
    expect(judgeAnswerWhy(200, '{"error_code":410}')).toEqual({ judgement: 'rejected-candidate', because: 'HTTP 200 with error_code 410', rule: 'error_code 410' });
    expect(judgeAnswerWhy(200, '{"success":false}')).toEqual({ judgement: 'rejected-candidate', because: 'HTTP 200 with success false', rule: 'success false' });
  });
});

describe('a target\'s own rejection shape (target key "rejection") replaces the default', () => {
  const statusError: RejectionRule[] = [{ pointer: '/result/status', in: ['error', 'failed'] }];
  it.each([
    ['{"result":{"status":"error"}}', 'rejected-candidate'],
    ['{"result":{"status":"queued"}}', 'accepted'],
    ['{"success":false}', 'accepted'],
    ['{"result":"error"}', 'accepted'],
  ] as const)('/result/status in ["error","failed"]: %s → %s', (body, expected) => {
    expect(judgeAnswer(200, body, statusError)).toBe(expected);
  });
  it('notIn: error_code 0 means accepted, any other non-null code rejected', () => {
    const rules: RejectionRule[] = [{ pointer: '/error_code', notIn: [null, 0] }];
    expect(judgeAnswer(200, '{"error_code":0}', rules)).toBe('accepted');
    expect(judgeAnswer(200, '{"error_code":"0"}', rules)).toBe('rejected-candidate');
    expect(judgeAnswer(200, '{"message":"ok"}', rules)).toBe('accepted');
  });
  it('pointers follow RFC 6901 (~1 is /, ~0 is ~, array indexes)', () => {
    expect(atPointer({ 'a/b': { '~c': [1, { d: 2 }] } }, '/a~1b/~0c/1/d')).toEqual({ found: true, value: 2 });
    expect(atPointer({ a: [1] }, '/a/1')).toEqual({ found: false });
    expect(atPointer({ a: 1 }, '')).toEqual({ found: true, value: { a: 1 } });
  });
  it('the default is DESIGN.md\'s: success false or a non-null error_code', () => {
    expect(DEFAULT_REJECTION).toEqual([{ pointer: '/success', in: [false] }, { pointer: '/error_code', notIn: [null] }]);
  });
  it('a refused connection is no-answer, not an exception', async () => {
    const c = new CollectClient({ baseUrl: 'http://127.0.0.1:1', clientKey: CLIENT_KEY, secretKey: SECRET, timeoutMs: 2000 });
    try {
      const a = await c.send({ fields });
      expect(a.judgement).toBe('no-answer');
      expect(a.exchange.error).toMatch(/ECONNREFUSED/);
    } finally { await c.close(); }
  });
});

describe('secrets: exchanges and curl lines never carry the client key or the secret', () => {
  it('redacts the header and writes env placeholders in the curl line', async () => {
    answer = { status: 401, body: `{"success":false,"echo":"${CLIENT_KEY}"}` };
    const c = client();
    try {
      const a = await c.send({ fields });
      const text = JSON.stringify(a.exchange);
      expect(text).not.toContain(CLIENT_KEY);
      expect(text).not.toContain(SECRET);
      expect(a.exchange.request.headers['authorization']).toMatch(/^HMAC \[REDACTED\]:[0-9a-f]{64}$/);
      expect(a.exchange.curl).toContain('"${COLLECT_CLIENT_KEY}"');
      expect(a.judgement).toBe('rejected-candidate');
    } finally { await c.close(); answer = { status: 200, body: '{"success":true}' }; }
  });
  it('shellWord quotes single quotes and splices secrets as env references', () => {
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('a-SECRET-b', [{ value: 'SECRET', envName: 'X' }])).toBe(`'a-'"\${X}"'-b'`);
  });
});

describe('§5.4: the address ip-not-whitelisted claims in X-Forwarded-For is this machine\'s own towards the service', () => {
  it('is the source address the system picks for the base URL\'s host, and undefined when it cannot be learned', async () => {
    expect(await ownAddressTowards('http://127.0.0.1:8080')).toBe('127.0.0.1');
    // Towards any of this machine's addresses (::1 and eth0's where it has them), the connection comes from that address.
    const own = Object.values(networkInterfaces()).flat().filter((i) => i && !i.address.startsWith('fe80:')).map((i) => i!.address);
    for (const address of own) {
      expect(await ownAddressTowards(address.includes(':') ? `https://[${address}]:8443/base` : `http://${address}:9`)).toBe(address);
    }
    // Not a URL (no name is looked up: a test sends nothing off loopback, not even a DNS query).
    expect(await ownAddressTowards('not a url')).toBeUndefined();
  });
});
