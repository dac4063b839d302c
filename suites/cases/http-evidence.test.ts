// Evidence of a request: headers as sent on the wire, shown with the token redacted, and a
// curl line that reproduces it with "$COLLECT_CALLBACK_TOKEN" instead of the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { TOKEN_VARIANTS } from '../../harness/cases/index.ts';
import { seededRandom } from '../../harness/ids/index.ts';
import { HttpClient, tokenHeader } from '../../harness/http/index.ts';

const TOKEN = 'tok-Secret-12345';
let server: Server;
let base = '';
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    if (req.url?.startsWith('/echo')) {
      // A receiver that echoes the token it was given (a debug-style 403).
      const got = String(req.headers['x-callback-token'] ?? '');
      const b64 = Buffer.from(got, 'utf8').toString('base64');
      const hex = Buffer.from(got, 'utf8').toString('hex');
      res.writeHead(403, { 'content-type': 'text/plain', 'x-presented-token': encodeURIComponent(got), 'x-presented-b64': b64 })
        .end(`bad token ${JSON.stringify(got)} (base64 ${b64}, hex ${hex})`);
      return;
    }
    if (req.url?.startsWith('/late-body')) {
      // Headers at once, the body 300 ms later: the reply is complete only then.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      setTimeout(() => res.end('done'), 300);
      return;
    }
    if (req.url?.startsWith('/big')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('y'.repeat(200 * 1024));
      return;
    }
    res.writeHead(418, { 'content-type': 'text/plain' }).end(`x`.repeat(2000));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => new Promise<void>((r) => server.close(() => r())));

describe('Exchange: the request as shown, the answer, the curl line', () => {
  it('the configured token is sent, shown as [REDACTED], and written as $COLLECT_CALLBACK_TOKEN in curl', async () => {
    const http = new HttpClient({ requestTimeoutMs: 1000 });
    const result = await http.send({ label: 'cb', url: `${base}/cb?transaction_id=a%20b&message=it's`, headers: [tokenHeader(TOKEN)] });
    await http.close();
    expect(seen.at(-1)?.headers['x-callback-token']).toBe(TOKEN);
    expect(result.exchange.request.headers).toEqual({ 'X-Callback-Token': '[REDACTED]' });
    expect(result.exchange.curl).toBe(`curl -sS -i --max-time 1 -H "X-Callback-Token: $COLLECT_CALLBACK_TOKEN" '${base}/cb?transaction_id=a%20b&message=it'\\''s'`);
    expect(JSON.stringify(result.exchange)).not.toContain(TOKEN);
    expect(result.ok && result.answer.status).toBe(418);
    expect(result.exchange.response?.bodyExcerpt).toHaveLength(500);
    expect(result.exchange.response?.durationMs).toBeGreaterThan(0);
  });
});

describe('answers are timed to their last byte and read up to 64 KiB (issue 10)', () => {
  it('a reply whose body ends 300 ms after its headers took at least 300 ms', async () => {
    const http = new HttpClient({ requestTimeoutMs: 2000 });
    const result = await http.send({ url: `${base}/late-body` });
    await http.close();
    expect(result.ok && result.answer.body).toBe('done');
    expect(result.ok && result.answer.durationMs).toBeGreaterThanOrEqual(290);
  });
  it('a 200 KiB body is read up to 64 KiB, marked truncated, the excerpt says so', async () => {
    const http = new HttpClient({ requestTimeoutMs: 2000 });
    const result = await http.send({ url: `${base}/big` });
    await http.close();
    expect(result.ok && result.answer.body.length).toBe(64 * 1024);
    expect(result.ok && result.answer.bodyTruncated).toBe(true);
    expect(result.exchange.response?.bodyTruncated).toBe(true);
    expect(result.exchange.response?.bodyExcerpt).toMatch(/y{500} \[answer longer than 65536 bytes: the rest was not read\]$/);
  });
});

describe('receiver.token variants reach the receiver as intended (§6 rule 1)', () => {
  for (const variant of TOKEN_VARIANTS) {
    it(`${variant.leaf}: sent as described, never shown in clear`, async () => {
      const choice = variant.make(TOKEN, seededRandom(1), 'COLLECT_CALLBACK_TOKEN');
      expect(typeof choice).not.toBe('string');
      if (typeof choice === 'string') return;
      const http = new HttpClient({ requestTimeoutMs: 1000 });
      const result = await http.send({ url: `${base}/cb`, headers: choice.headers });
      await http.close();
      const received = seen.at(-1)!.headersDistinct['x-callback-token'];
      const expected: Record<string, string[] | undefined> = {
        'missing': undefined,
        'empty': [''],
        'one-char-short': [TOKEN.slice(0, -1)],
        'one-char-extra': [`${TOKEN}x`],
        'different-case': ['TOK-sECRET-12345'],
        'surrounding-whitespace': [`\u00a0${TOKEN}\u00a0`],
      };
      if (variant.leaf === 'wrong' || variant.leaf === 'wrong-lowercase-name') {
        expect(received?.[0]).toHaveLength(TOKEN.length);
        expect(received?.[0]).not.toBe(TOKEN);
        // The name as it came over the wire (rawHeaders keeps the client's spelling).
        const names = seen.at(-1)!.rawHeaders.filter((_, i) => i % 2 === 0 && /^x-callback-token$/i.test(seen.at(-1)!.rawHeaders[i]!));
        expect(names).toEqual([variant.leaf === 'wrong' ? 'X-Callback-Token' : 'x-callback-token']);
        // The evidence shows the name as sent too: the lower-case case is about that name.
        expect(Object.keys(result.exchange.request.headers)).toEqual(names);
      } else if (variant.leaf === 'sent-twice') {
        expect(received).toHaveLength(2);
        expect(received?.[0]).toBe(TOKEN);
      } else {
        expect(received).toEqual(expected[variant.leaf]);
      }
      // Near misses of the token leak most of it: the evidence describes them instead.
      const shown = JSON.stringify(result.exchange);
      expect(shown).not.toContain(TOKEN.slice(0, -1));
      expect(shown).not.toContain(TOKEN.toUpperCase().slice(1));
    });
    it(`${variant.leaf}: a receiver echoing the token it got does not put it in the evidence`, async () => {
      const choice = variant.make(TOKEN, seededRandom(1), 'COLLECT_CALLBACK_TOKEN');
      expect(typeof choice).not.toBe('string');
      if (typeof choice === 'string') return;
      const http = new HttpClient({ requestTimeoutMs: 1000 });
      const result = await http.send({ url: `${base}/echo`, headers: choice.headers });
      await http.close();
      expect(result.ok && result.answer.status).toBe(403);
      const shown = JSON.stringify(result.exchange);
      expect(shown).not.toContain(TOKEN.slice(0, -1));
      expect(shown).not.toContain('TOK-sECRET-1234');
      expect(shown).not.toContain(encodeURIComponent(TOKEN.slice(0, -1)));
      // Echoed base64- or hex-encoded: the same token, in a form a text search misses.
      expect(shown).not.toContain(Buffer.from(TOKEN.slice(0, -1)).toString('base64').slice(0, 16));
      expect(shown).not.toContain(Buffer.from(TOKEN.slice(0, -1)).toString('hex'));
    });
  }
  it('different-case SKIPs for a token without letters', () => {
    const variant = TOKEN_VARIANTS.find((v) => v.leaf === 'different-case')!;
    expect(variant.make('1234-5678', seededRandom(1), 'COLLECT_CALLBACK_TOKEN')).toBe('the configured token has no letters, so it has no different-case variant');
  });
});
