// §4.1, §5, §7: what the reference service accepts and refuses, with which code, in which order.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { signBody, SUITE_PROFILE } from '../../harness/signing/index.ts';
import { readStatusAnswer } from '../../harness/status/index.ts';
import { MAX_TRANSACTIONS, REJECTIONS, TransactionStore } from '../../harness/simulator/index.ts';
import {
  CLIENT, OK_NUMBER, TOKEN, collect, collectFields, post, withSimulator, newId,
} from './helpers.ts';

const CB = 'https://merchant.example/cb';
const COLLECT = '/api/v1.0/collect/';

function expectRejected(answer: { status: number; json: Record<string, unknown> }, code: keyof typeof REJECTIONS): void {
  expect(answer.json['success'], JSON.stringify(answer.json)).toBe(false);
  expect(answer.json['error_code']).toBe(code);
  expect(typeof answer.json['error_message']).toBe('string');
  expect(answer.status).toBe(REJECTIONS[code].status);
}

describe('§4.1 collect: a signed, valid request is accepted PENDING', () => {
  it('answers 200 {success: true, transaction_id, status: PENDING}', async () => {
    await withSimulator({}, async (sim) => {
      const fields = collectFields(CB);
      const answer = await collect(sim, fields);
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ success: true, transaction_id: fields['transaction_id'], status: 'PENDING' });
    });
  });
  it('accepts a Content-Type with charset=utf-8 and extra fields beyond the six (signed too)', async () => {
    await withSimulator({}, async (sim) => {
      const answer = await collect(sim, collectFields(CB, { description: 'a & b', z_extra: 1 }), { contentType: 'Application/JSON; charset=UTF-8' });
      expect(answer.status).toBe(200);
    });
  });
});

describe('§4.1 routing: unknown paths 404, wrong methods 405', () => {
  it('refuses /api/v1.0/collect (no slash) and /nothing with NOT_FOUND', async () => {
    await withSimulator({}, async (sim) => {
      expectRejected(await post(sim.url, '/api/v1.0/collect', JSON.stringify(collectFields(CB))), 'NOT_FOUND');
      expectRejected(await post(sim.url, '/nothing', '{}'), 'NOT_FOUND');
    });
  });
  it.each(['PUT', 'DELETE', 'PATCH'])('refuses %s on the collect path with METHOD_NOT_ALLOWED', async (method) => {
    await withSimulator({}, async (sim) => {
      expectRejected(await post(sim.url, COLLECT, '{}', { method, authorization: 'HMAC a:b' }), 'METHOD_NOT_ALLOWED');
    });
  });
});

describe('§4 bodies: JSON, UTF-8, size, content type', () => {
  it('refuses a wrong or absent Content-Type with 415', async () => {
    await withSimulator({}, async (sim) => {
      const body = JSON.stringify(collectFields(CB));
      expectRejected(await post(sim.url, COLLECT, body, { contentType: 'text/plain' }), 'UNSUPPORTED_MEDIA_TYPE');
      expectRejected(await post(sim.url, COLLECT, body, { contentType: null }), 'UNSUPPORTED_MEDIA_TYPE');
      expectRejected(await post(sim.url, COLLECT, body, { contentType: 'application/json; charset=latin1' }), 'UNSUPPORTED_MEDIA_TYPE');
    });
  });
  it('refuses a body over maxBodyBytes with 413, also one far over the limit', async () => {
    await withSimulator({ maxBodyBytes: 1024 }, async (sim) => {
      const big = JSON.stringify(collectFields(CB, { pad: 'x'.repeat(2000) }));
      expectRejected(await post(sim.url, COLLECT, big), 'BODY_TOO_LARGE');
      const huge = Buffer.alloc(3 * 1024 * 1024, 0x20);
      const answer = await post(sim.url, COLLECT, huge, { authorization: 'HMAC a:b' }).catch((e: Error) => ({ status: -1, json: {}, text: e.message }));
      // Cut off early: the client may see the 413 or a closed connection, never a 5xx.
      if (answer.status !== -1) expectRejected(answer, 'BODY_TOO_LARGE');
      // The simulator still serves afterwards.
      expect((await collect(sim, collectFields(CB))).status).toBe(200);
    });
  });
  it('refuses bytes that are not UTF-8 with INVALID_ENCODING', async () => {
    await withSimulator({}, async (sim) => {
      const bytes = Buffer.concat([Buffer.from('{"transaction_id":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
      expectRejected(await post(sim.url, COLLECT, bytes, { authorization: 'HMAC ck:00' }), 'INVALID_ENCODING');
    });
  });
  it.each([
    ['malformed JSON', '{"amount": "10.00",'],
    ['an array', '[1,2]'],
    ['empty', ''],
    ['a byte-order mark', '\uFEFF{"a":"1"}'],
  ])('refuses %s with INVALID_BODY', async (_label, body) => {
    await withSimulator({}, async (sim) => {
      expectRejected(await post(sim.url, COLLECT, body, { authorization: `HMAC ${CLIENT.clientKey}:00` }), 'INVALID_BODY');
    });
  });
  it('refuses a duplicated key with DUPLICATE_KEY even when the signature is valid (parser differential)', async () => {
    await withSimulator({}, async (sim) => {
      const fields = collectFields(CB);
      const body = JSON.stringify(fields).replace('{', `{"customer_number":"0244999999",`);
      const answer = await post(sim.url, COLLECT, body); // signed by the canonical signer (last wins)
      expectRejected(answer, 'DUPLICATE_KEY');
      expect(answer.json['error_message']).toMatch(/customer_number/);
    });
  });
});

describe('§5.2 Authorization header', () => {
  it('refuses a request without it (MISSING_AUTHORIZATION)', async () => {
    await withSimulator({}, async (sim) => {
      expectRejected(await collect(sim, collectFields(CB), { authorization: null }), 'MISSING_AUTHORIZATION');
    });
  });
  it.each(['Bearer abc', 'HMAC nocolon', 'hmac ck:sig', 'HMAC ck:sig extra'])('refuses %j (MALFORMED_AUTHORIZATION)', async (header) => {
    await withSimulator({}, async (sim) => {
      expectRejected(await collect(sim, collectFields(CB), { authorization: header }), 'MALFORMED_AUTHORIZATION');
    });
  });
  it('refuses two Authorization headers, the valid one first (MALFORMED_AUTHORIZATION), as its README says', async () => {
    await withSimulator({}, async (sim) => {
      const body = JSON.stringify(collectFields(CB));
      const valid = signBody(body, CLIENT.secretKey, { clientKey: CLIENT.clientKey }).authorization!;
      const response = await request(`${sim.url}${COLLECT}`, {
        method: 'POST',
        headers: ['content-type', 'application/json', 'authorization', valid, 'authorization', 'HMAC ck_other:00'],
        body,
      });
      const json = await response.body.json() as Record<string, unknown>;
      expectRejected({ status: response.statusCode, json }, 'MALFORMED_AUTHORIZATION');
      expect(String(json['error_message'])).toContain('more than once');
    });
  });
  it('refuses an unknown client_key (UNKNOWN_CLIENT_KEY), even with the right secret', async () => {
    await withSimulator({}, async (sim) => {
      expectRejected(await collect(sim, collectFields(CB), { clientKey: 'ck_someone_else' }), 'UNKNOWN_CLIENT_KEY');
    });
  });
});

describe('§5.1/§5.2/§7 signature over the raw body', () => {
  it('refuses a wrong secret and says no canonicalisation matches', async () => {
    await withSimulator({}, async (sim, lines) => {
      const answer = await collect(sim, collectFields(CB), { secret: 'not-the-secret' });
      expectRejected(answer, 'INVALID_SIGNATURE');
      expect(answer.json['error_message']).toMatch(/no known canonicalisation/);
      expect(lines.some((l) => l.includes('INVALID_SIGNATURE') && l.includes('no known canonicalisation'))).toBe(true);
    });
  });
  it('names the alternative a signature follows (values percent-encoded)', async () => {
    await withSimulator({}, async (sim, lines) => {
      // A space and ~ make encodeURIComponent differ from PHP urlencode() and URLSearchParams.
      const body = JSON.stringify(collectFields('https://m.example/cb?a=1&b=x y~'));
      const { authorization } = signBody(body, CLIENT.secretKey, { clientKey: CLIENT.clientKey, profile: { ...SUITE_PROFILE, valueEncoding: 'encodeURIComponent' } });
      const answer = await post(sim.url, COLLECT, body, { authorization: authorization! });
      expectRejected(answer, 'INVALID_SIGNATURE');
      expect(answer.json['error_message']).toMatch(/your signature matches the message of `url-encoded-values` \(JavaScript: values percent-encoded with encodeURIComponent/);
      expect(lines.join('\n')).toMatch(/url-encoded-values/);
    });
  });
  it('tells a PHP client that signed the float 1.1*3 as 3.3 but sent 3.3000000000000003 exactly that', async () => {
    await withSimulator({}, async (sim) => {
      // What PHP does: json_encode() writes the float with 17 digits, "$k=$v" with 14.
      const body = JSON.stringify({ ...collectFields(CB), amount: 1.1 * 3 });
      expect(body).toContain('"amount":3.3000000000000003');
      const { authorization } = signBody(body, CLIENT.secretKey, { clientKey: CLIENT.clientKey, profile: { ...SUITE_PROFILE, numbers: 'php' } });
      const answer = await post(sim.url, COLLECT, body, { authorization: authorization! });
      expectRejected(answer, 'INVALID_SIGNATURE');
      expect(answer.json['error_message']).toContain('`php-float-precision` (PHP: JSON numbers through json_decode() and PHP string conversion');
      expect(answer.json['error_message']).toContain('signed `amount=3.3`, the body has `amount=3.3000000000000003`');
      expect(answer.json['error_message']).not.toMatch(/secret is wrong/);
    });
  });
  it('refuses a body changed after signing', async () => {
    await withSimulator({}, async (sim) => {
      const body = JSON.stringify(collectFields(CB));
      const { authorization } = signBody(body, CLIENT.secretKey, { clientKey: CLIENT.clientKey });
      expectRejected(await post(sim.url, COLLECT, body.replace('10.00', '11.00'), { authorization: authorization! }), 'INVALID_SIGNATURE');
    });
  });
  it('verifies the raw text: amount "15.0" and a reordered body are accepted with their own signature', async () => {
    await withSimulator({}, async (sim) => {
      const fields = collectFields(CB, { amount: '15.0' });
      const reordered = Object.fromEntries(Object.entries(fields).reverse());
      expect((await collect(sim, reordered)).status).toBe(200);
    });
  });
  it('refuses upper-case hex (lower-case hex is §5.1 step 5)', async () => {
    await withSimulator({}, async (sim) => {
      const body = JSON.stringify(collectFields(CB));
      const { signature } = signBody(body, CLIENT.secretKey);
      const answer = await post(sim.url, COLLECT, body, { authorization: `HMAC ${CLIENT.clientKey}:${signature.toUpperCase()}` });
      expectRejected(answer, 'INVALID_SIGNATURE');
      expect(answer.json['error_message']).toMatch(/upper-case/);
    });
  });
});

describe('§5.4 source-IP whitelist (checked before the signature)', () => {
  it('refuses a validly signed request from 127.0.0.2 with IP_NOT_WHITELISTED', async () => {
    await withSimulator({}, async (sim, lines) => {
      const answer = await collect(sim, collectFields(CB), { localAddress: '127.0.0.2' });
      expectRejected(answer, 'IP_NOT_WHITELISTED');
      expect(lines.some((l) => / 127\.0\.0\.2 POST \/api\/v1\.0\/collect\/ 403 IP_NOT_WHITELISTED/.test(l))).toBe(true);
    });
  });
  it('refuses a bad signature from a bad address with IP_NOT_WHITELISTED, not INVALID_SIGNATURE', async () => {
    await withSimulator({}, async (sim) => {
      expectRejected(await collect(sim, collectFields(CB), { localAddress: '127.0.0.2', secret: 'wrong' }), 'IP_NOT_WHITELISTED');
    });
  });
  it('normalises IPv4-mapped IPv6 peers of a dual-stack listener (::ffff:127.0.0.2 is 127.0.0.2)', async () => {
    const { startSimulator } = await import('../../harness/simulator/index.ts');
    const { testConfig } = await import('./helpers.ts');
    const sim = await startSimulator(testConfig({ whitelist: { sources: ['127.0.0.2'], customerNumbers: [OK_NUMBER] } }), { host: '::' });
    try {
      const port = new URL(sim.url).port;
      const base = `http://127.0.0.1:${port}`;
      expect((await post(base, COLLECT, JSON.stringify(collectFields(CB)), { localAddress: '127.0.0.2' })).status).toBe(200);
      expectRejected(await post(base, COLLECT, JSON.stringify(collectFields(CB)), { localAddress: '127.0.0.3' }), 'IP_NOT_WHITELISTED');
    } finally {
      await sim.close();
    }
  });
});

describe('§2.1 fields and their types', () => {
  it.each(['transaction_id', 'amount', 'client_id', 'customer_number', 'network_code', 'callback_url'])('refuses a body without %s (MISSING_FIELD)', async (name) => {
    await withSimulator({}, async (sim) => {
      const fields = collectFields(CB);
      delete fields[name];
      const answer = await collect(sim, fields);
      expectRejected(answer, 'MISSING_FIELD');
      expect(answer.json['error_message']).toContain(name);
    });
  });
  it.each([
    ['amount', 10], ['amount', '1e3'], ['amount', '-1.00'], ['amount', '0'], ['amount', ''],
    ['client_id', '2'], ['client_id', 2.5], ['client_id', 2e0 === 2 ? '2.0' : 0],
    ['customer_number', 244000001], ['customer_number', '+233244000001'], ['customer_number', null],
    ['callback_url', '/relative/path'], ['callback_url', 'ftp://x.example/cb'], ['callback_url', 'javascript:alert(1)'],
    ['network_code', true], ['transaction_id', 7], ['transaction_id', ''],
  ])('refuses %s = %j (INVALID_FIELD)', async (name, value) => {
    await withSimulator({}, async (sim) => {
      const answer = await collect(sim, collectFields(CB, { [name]: value }));
      expectRejected(answer, 'INVALID_FIELD');
      expect(answer.json['error_message']).toContain(name);
    });
  });
  it('refuses client_id that is not the client of the client_key (CLIENT_ID_MISMATCH)', async () => {
    await withSimulator({}, async (sim) => {
      expectRejected(await collect(sim, collectFields(CB, { client_id: 3 })), 'CLIENT_ID_MISMATCH');
    });
  });
});

describe('§5.3 sandbox Numbers whitelist (text, leading zeros matter)', () => {
  it('refuses a number not on the list, and the same digits without the leading zero', async () => {
    await withSimulator({}, async (sim) => {
      expectRejected(await collect(sim, collectFields(CB, { customer_number: '0244999999' })), 'NUMBER_NOT_WHITELISTED');
      expectRejected(await collect(sim, collectFields(CB, { customer_number: '244000001' })), 'NUMBER_NOT_WHITELISTED');
    });
  });
  it('does not check numbers in production mode', async () => {
    await withSimulator({ mode: 'production' }, async (sim) => {
      expect((await collect(sim, collectFields(CB, { customer_number: '0244999999' }))).status).toBe(200);
    });
  });
});

describe('§2.1/§6 Transport: production refuses http callback URLs at collect time', () => {
  it('refuses http:// with CALLBACK_URL_NOT_HTTPS in production, accepts it in sandbox', async () => {
    await withSimulator({ mode: 'production' }, async (sim) => {
      expectRejected(await collect(sim, collectFields('http://merchant.example/cb')), 'CALLBACK_URL_NOT_HTTPS');
      expect((await collect(sim, collectFields(CB))).status).toBe(200);
    });
    await withSimulator({}, async (sim) => {
      expect((await collect(sim, collectFields('http://merchant.example/cb'))).status).toBe(200);
    });
  });
});

describe('§2.1 "https://" in production: the scheme is case-insensitive (RFC 3986 §3.1)', () => {
  it('accepts HTTPS:// and refuses HTTP:// in production', async () => {
    await withSimulator({ mode: 'production' }, async (sim) => {
      expect((await collect(sim, collectFields('HTTPS://merchant.example/cb'))).status).toBe(200);
      expectRejected(await collect(sim, collectFields('HTTP://merchant.example/cb')), 'CALLBACK_URL_NOT_HTTPS');
    });
  });
});

describe('§2.1 transaction_id is unique per client', () => {
  it('refuses a reused transaction_id with DUPLICATE_TRANSACTION', async () => {
    await withSimulator({}, async (sim) => {
      const fields = collectFields(CB);
      expect((await collect(sim, fields)).status).toBe(200);
      expectRejected(await collect(sim, { ...fields, amount: '20.00' }), 'DUPLICATE_TRANSACTION');
    });
  });
});

describe('§4.2 transaction status (POST /api/v1.0/transaction_status/, signed)', () => {
  it('answers pending, then the terminal status, in lower case; an unknown id 200 {"success": false, "error_code": 421} (the reference form, docs/positions.md)', async () => {
    await withSimulator({ processingDelayMs: 30_000 }, async (sim) => {
      const fields = collectFields('https://127.0.0.1:9/unreachable');
      await collect(sim, fields);
      const ask = (id: unknown) => post(sim.url, '/api/v1.0/transaction_status/', JSON.stringify({ transaction_id: id, client_id: CLIENT.clientId }));
      expect((await ask(fields['transaction_id'])).json).toMatchObject({ success: true, status: 'pending' });
      let answer = await ask(fields['transaction_id']);
      for (const started = Date.now(); answer.json['status'] === 'pending' && Date.now() - started < 5000;) {
        await new Promise((r) => setTimeout(r, 50));
        answer = await ask(fields['transaction_id']);
      }
      expect(answer.json).toMatchObject({ success: true, status: 'success' });
      expect(readStatusAnswer(answer.status, answer.text)).toEqual({ kind: 'status', status: 'SUCCESS', letterCase: 'lower', transactionId: fields['transaction_id'] });
      const unknown = await ask(newId('unknown'));
      expect(unknown.status).toBe(200);
      expect(unknown.json).toMatchObject({ success: false, error_code: 421 });
      expect(readStatusAnswer(unknown.status, unknown.text)).toEqual({ kind: 'unknown-id', httpStatus: 200, form: 421 });
    });
  });
  it('statusForm upper/404: answers PENDING, then the terminal status; 404 TRANSACTION_NOT_FOUND for an unknown id', async () => {
    // Processing 300 ms (scaled): the first query comes well before it ends, also on a loaded machine.
    await withSimulator({ processingDelayMs: 30_000, statusForm: { letterCase: 'upper', unknownId: 404 } }, async (sim) => {
      const fields = collectFields('https://127.0.0.1:9/unreachable');
      await collect(sim, fields);
      const ask = (id: unknown) => post(sim.url, '/api/v1.0/transaction_status/', JSON.stringify({ transaction_id: id, client_id: CLIENT.clientId }));
      expect((await ask(fields['transaction_id'])).json).toMatchObject({ success: true, status: 'PENDING' });
      // Then asked until it is terminal (at most 5 s): the answer the transaction ends with.
      let answer = await ask(fields['transaction_id']);
      for (const started = Date.now(); answer.json['status'] === 'PENDING' && Date.now() - started < 5000;) {
        await new Promise((r) => setTimeout(r, 50));
        answer = await ask(fields['transaction_id']);
      }
      expect(answer.json).toMatchObject({ success: true, status: 'SUCCESS', message: 'Payment of GHS 10.00 received' });
      expect(readStatusAnswer(answer.status, answer.text)).toEqual({ kind: 'status', status: 'SUCCESS', letterCase: 'upper', transactionId: fields['transaction_id'] });
      const unknown = await ask(newId('unknown'));
      expectRejected(unknown, 'TRANSACTION_NOT_FOUND');
      expect(readStatusAnswer(unknown.status, unknown.text).kind).toBe('unknown-id');
    });
  });
  it('refuses an unsigned status request', async () => {
    await withSimulator({}, async (sim) => {
      const body = JSON.stringify({ transaction_id: 'x', client_id: CLIENT.clientId });
      expectRejected(await post(sim.url, '/api/v1.0/transaction_status/', body, { secret: 'wrong' }), 'INVALID_SIGNATURE');
    });
  });
});

describe('logging: one line per request, never a secret', () => {
  it('logs time, source, path, verdict and reason with the credentials redacted', async () => {
    await withSimulator({}, async (sim, lines) => {
      await collect(sim, collectFields(CB));
      await collect(sim, collectFields(CB), { authorization: `HMAC ${CLIENT.clientKey}:${CLIENT.secretKey}` });
      const requestLines = lines.filter((l) => l.includes('POST /api/v1.0/collect/'));
      expect(requestLines).toHaveLength(2);
      expect(requestLines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z 127\.0\.0\.1 POST \/api\/v1\.0\/collect\/ 200 accepted /);
      expect(requestLines[1]).toMatch(/ 401 INVALID_SIGNATURE the signature does not match/);
      const all = lines.join('\n');
      for (const secret of [CLIENT.clientKey, CLIENT.secretKey, TOKEN]) expect(all).not.toContain(secret);
    });
  });
});

describe('serving the API over https (config.tls)', () => {
  it('accepts a signed collect over https from a client that trusts the certificate', async () => {
    const { generate } = await import('selfsigned');
    const { Agent } = await import('undici');
    const { startSimulator } = await import('../../harness/simulator/index.ts');
    const { testConfig } = await import('./helpers.ts');
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    });
    const sim = await startSimulator(testConfig({ tls: { key: pems.private, cert: pems.cert } }));
    const agent = new Agent({ connect: { ca: pems.cert } });
    try {
      expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const answer = await post(sim.url, COLLECT, JSON.stringify(collectFields(CB)), { dispatcher: agent });
      expect(answer.status).toBe(200);
      await expect(post(sim.url, COLLECT, JSON.stringify(collectFields(CB)))).rejects.toThrow();
    } finally {
      await agent.close();
      await sim.close();
    }
  });
});

describe('the store is bounded (README "Limits")', () => {
  const tx = (id: string) => ({
    internalId: id, clientId: 2, transactionId: id, amount: '1.00', customerNumber: '0244000001',
    callbackUrl: CB, status: 'PENDING' as const, message: '', createdAt: 0,
  });
  it('beyond its limit the oldest transaction is forgotten (its id usable again), the newest kept', () => {
    const store = new TransactionStore(2);
    for (const id of ['a', 'b', 'c']) expect(store.insert(tx(id))).toBe(true);
    expect([store.size, store.get(2, 'a'), store.get(2, 'c')?.transactionId]).toEqual([2, undefined, 'c']);
    expect(store.insert(tx('c'))).toBe(false);
    expect(store.insert(tx('a'))).toBe(true);
    expect(MAX_TRANSACTIONS).toBe(100_000);
  });
});
