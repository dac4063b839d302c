// The hello of protocol 2 (harness/line-protocol/hello.ts), through the shared driver: a peer that
// answers it is version 2 with what it supports; one that answers otherwise, not at all, or ends on
// it is version 1, kept (or restarted transparently) for its requests, which are answered as ever.
// In-process peers over stream pairs: fast, no child processes.
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { HELLO_LINE, InProcessLineEnd, LineDriver, readHelloAnswer, type LinePeer } from '../../harness/line-protocol/index.ts';

type Behaviour = (request: Record<string, unknown>, n: number) => string | undefined | 'exit';

/** A peer answering each request line as `behave` says (a line, nothing, or its end); `received` records every line it got. */
function peer(behave: Behaviour, received: string[] = []): LinePeer {
  return async ({ input, output }) => {
    let n = 0;
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      received.push(line);
      const out = behave(JSON.parse(line) as Record<string, unknown>, ++n);
      if (out === 'exit') return;
      if (out !== undefined) output.write(`${out}\n`);
    }
  };
}

const echo = (request: Record<string, unknown>) => JSON.stringify({ id: request.id, answer: `to ${String(request.id)}` });

function driverOf(behave: Behaviour, received: string[] = [], helloLimitMs = 200) {
  return new LineDriver({
    start: () => new InProcessLineEnd(peer(behave, received)),
    words: { noun: 'adapter', unit: 'request', doing: 'handling this request' },
    timeoutMs: 2000,
    hello: { limitMs: helloLimitMs },
  });
}

const parse = (line: string) => {
  const o = JSON.parse(line) as { id: string; answer?: string };
  return typeof o.answer === 'string' ? { ok: true as const, id: o.id, answer: o.answer } : { ok: false as const, problem: `no answer in ${line}` };
};

async function first(driver: LineDriver) {
  return driver.exchange('r1', `${JSON.stringify({ id: 'r1' })}\n`, parse);
}

describe('the hello line: the shape another engineer\'s adapters answer (fixed)', () => {
  it('is {"id": "hello", "op": "hello", "protocol": 2}, one line', () => {
    expect(JSON.parse(HELLO_LINE)).toEqual({ id: 'hello', op: 'hello', protocol: 2 });
    expect(HELLO_LINE.endsWith('\n') && !HELLO_LINE.slice(0, -1).includes('\n')).toBe(true);
  });
  it.each([
    ['{"id":"hello","protocol":2,"supports":["collect","status"],"implementation":{"language":"PHP 8.2","library":"acme/collect","version":"1.4.0"}}',
      { protocol: 2, supports: ['collect', 'status'], implementation: { language: 'PHP 8.2', library: 'acme/collect', version: '1.4.0' } }],
    ['{"id":"hello","protocol":2,"supports":["sign"]}', { protocol: 2, supports: ['sign'] }],
    ['{"id":"hello","protocol":3,"supports":["collect"],"implementation":"free text"}', { protocol: 2, supports: ['collect'] }],
  ])('a version-2 answer %s', (line, expected) => {
    expect(readHelloAnswer(line)).toEqual(expected);
  });
  it.each([
    ['{"id":"hello","error":"the request has no fields"}', /an error/],
    ['{"id":"hello","outcome":"rejected"}', /no "protocol" of 2 or more/],
    ['{"id":"hello","protocol":2}', /no "supports" list of strings/],
    ['{"id":"hello","protocol":1,"supports":[]}', /no "protocol" of 2 or more/],
    ['{"id":"other","protocol":2,"supports":[]}', /an answer for another id/],
    ['garbage', /the line is not JSON/],
  ])('anything else is version 1: %s', (line, why) => {
    const greeting = readHelloAnswer(line);
    expect(greeting.protocol).toBe(1);
    expect(greeting.protocol === 1 && greeting.why).toMatch(why);
  });
});

describe('through the driver: what the peer supports, and its requests answered as ever', () => {
  it('a version-2 peer: greeted once, on its first start, then its requests', async () => {
    const received: string[] = [];
    const driver = driverOf((r) => (r.op === 'hello' ? JSON.stringify({ id: 'hello', protocol: 2, supports: ['collect', 'status'] }) : echo(r)), received);
    try {
      expect(await driver.greeting()).toEqual({ protocol: 2, supports: ['collect', 'status'] });
      expect(await first(driver)).toEqual({ ok: true, answer: 'to r1' });
      expect(received.map((l) => JSON.parse(l).id)).toEqual(['hello', 'r1']);
      expect(driver.starts).toBe(1);
    } finally {
      await driver.close();
    }
  });
  it('a version-1 peer answering the hello with an error: kept, its first request answered by the same instance', async () => {
    const driver = driverOf((r) => (r.op === 'hello' ? JSON.stringify({ id: 'hello', error: 'no fields' }) : echo(r)));
    try {
      expect(await first(driver)).toEqual({ ok: true, answer: 'to r1' });
      expect(await driver.greeting()).toMatchObject({ protocol: 1, why: expect.stringMatching(/an error/) });
      expect(driver.starts).toBe(1);
    } finally {
      await driver.close();
    }
  });
  it('a version-1 peer that ends on the hello: restarted transparently (one start counted), never greeted again', async () => {
    const received: string[] = [];
    const driver = driverOf((r) => (r.op === 'hello' ? 'exit' : echo(r)), received);
    try {
      expect(await first(driver)).toEqual({ ok: true, answer: 'to r1' });
      expect(await driver.greeting()).toMatchObject({ protocol: 1, why: expect.stringMatching(/on the hello$/) });
      expect(driver.starts).toBe(1);
      expect(received.map((l) => JSON.parse(l).id)).toEqual(['hello', 'r1']);
    } finally {
      await driver.close();
    }
  });
  it('a silent version-1 peer costs the hello limit once, then answers as ever', async () => {
    const driver = driverOf((r) => (r.op === 'hello' ? undefined : echo(r)), [], 150);
    try {
      const started = performance.now();
      expect(await first(driver)).toEqual({ ok: true, answer: 'to r1' });
      expect(await driver.exchange('r2', `${JSON.stringify({ id: 'r2' })}\n`, parse)).toEqual({ ok: true, answer: 'to r2' });
      // The limit once (a timer may fire a little early), well below one per request.
      expect(performance.now() - started).toBeGreaterThan(140);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(await driver.greeting()).toMatchObject({ protocol: 1, why: 'it did not answer the hello within 150 ms' });
    } finally {
      await driver.close();
    }
  });
  it('a version-2 peer too slow for the hello limit: its late answer, read before its first request\'s, still counts', async () => {
    // Answers the hello only when the first request comes, then that request: a slow start, not a version.
    const slow = new LineDriver({
      start: () => new InProcessLineEnd(peer((r) => (r.op === 'hello' ? undefined : `${JSON.stringify({ id: 'hello', protocol: 2, supports: ['collect'] })}\n${echo(r)}`))),
      words: { noun: 'adapter', unit: 'request', doing: 'handling this request' },
      timeoutMs: 2000,
      hello: { limitMs: 50 },
    });
    try {
      expect(await first(slow)).toEqual({ ok: true, answer: 'to r1' });
      expect(await slow.greeting()).toEqual({ protocol: 2, supports: ['collect'] });
    } finally {
      await slow.close();
    }
  });
  it('a version-1 peer too slow to end on the hello within its limit: the request it met instead goes to a fresh instance, answered', async () => {
    const received: string[] = [];
    // Every instance takes 100 ms over each line (a loaded machine), and ends on a line without an answer it can give.
    const slowV1: LinePeer = async ({ input, output }) => {
      for await (const line of createInterface({ input, crlfDelay: Infinity })) {
        received.push(line);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const request = JSON.parse(line) as Record<string, unknown>;
        if (request.op === 'hello') return;
        output.write(`${echo(request)}\n`);
      }
    };
    const driver = new LineDriver({
      start: () => new InProcessLineEnd(slowV1), words: { noun: 'adapter', unit: 'request', doing: 'handling this request' },
      timeoutMs: 2000, hello: { limitMs: 30 },
    });
    try {
      expect(await first(driver)).toEqual({ ok: true, answer: 'to r1' });
      expect(await driver.greeting()).toMatchObject({ protocol: 1, why: expect.stringMatching(/before answering the hello$/) });
      expect(driver.starts).toBe(1);
      // The first instance ended on the hello before reading r1; the fresh one got r1 and no hello.
      expect(received.map((l) => JSON.parse(l).id)).toEqual(['hello', 'r1']);
    } finally {
      await driver.close();
    }
  });
  it('a driver without a hello sends none and has no greeting', async () => {
    const received: string[] = [];
    const plain = new LineDriver({ start: () => new InProcessLineEnd(peer(echo, received)), words: { noun: 'signer', unit: 'vector', doing: 'signing' }, timeoutMs: 2000 });
    try {
      expect(await first(plain)).toEqual({ ok: true, answer: 'to r1' });
      expect(await plain.greeting()).toBeUndefined();
      expect(received).toHaveLength(1);
    } finally {
      await plain.close();
    }
  });
});

describe('a signer answers the same hello with "supports": ["sign"]', () => {
  it('version 2: its greeting names what it wraps; its vectors are signed as ever, on one start', async () => {
    const { ExternalSigner } = await import('../../harness/vectors/index.ts');
    const signer = new ExternalSigner('node suites/signer-protocol/fixtures/hello-signer.mjs', { timeoutMs: 5000 });
    try {
      const signed = await signer.sign({ id: 'v1', body: '{"b":"2","a":"1"}', secret: 'k' });
      expect(signed).toMatchObject({ kind: 'signed', message: 'a=1&b=2' });
      expect(await signer.greeting()).toEqual({ protocol: 2, supports: ['sign'], implementation: { language: 'JavaScript', library: 'canon.mjs (fixture)' } });
      expect(signer.starts).toBe(1);
    } finally {
      await signer.close();
    }
  });
});
