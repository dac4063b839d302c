// A sandbox that limits the request rate answers 429 Too Many Requests: the request was not acted
// on. With a Retry-After the harness waits it out (every request to the service waits with it, and
// the wait is not the case's time) and sends the request once more; an answer that stays 429 is
// neither an acceptance nor a rejection of what the case sent, so the case is ERROR naming the
// limit and --rate, never a PASS of a negative case (a 429 is not 2xx, so it would otherwise read
// as a rejection).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedService, type EmbeddedService } from '../../harness/embedded/index.ts';
import { forwardTo } from '../support/throttle.ts';
import { runCases } from '../../harness/runner/index.ts';

let service: EmbeddedService;
/** How the limiter answers its n-th request (from 0): 429 with these headers, or forwarded to the service. */
let script: (n: number) => { retryAfter?: string } | 'forward' = () => ({ retryAfter: '1' });
/** performance.now() of each request the limiter got. */
let arrivals: number[] = [];

function forward(req: IncomingMessage, res: ServerResponse): void {
  forwardTo(new URL(service.target.baseUrl), req, res);
}

const limiter = createServer((req, res) => {
  const step = script(arrivals.length);
  arrivals.push(performance.now());
  if (step === 'forward') return forward(req, res);
  req.resume();
  req.on('end', () => res.writeHead(429, {
    'content-type': 'application/json',
    ...(step.retryAfter !== undefined ? { 'retry-after': step.retryAfter } : {}),
  }).end('{"message":"Too Many Attempts."}'));
});
let origin = '';

beforeAll(async () => {
  service = await startEmbeddedService();
  await new Promise<void>((resolve) => limiter.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(limiter.address() as AddressInfo).port}`;
});
afterAll(async () => {
  limiter.closeAllConnections();
  await new Promise((resolve) => limiter.close(resolve));
  await service.close();
});

function run(ids: readonly string[]) {
  arrivals = [];
  return runCases({ cases: SERVICE_CASES.filter((c) => ids.includes(c.id)), target: { ...service.target, baseUrl: origin }, seed: 5 });
}

describe('429 with Retry-After: waited out, then sent once more', () => {
  it('service.auth.valid-accepted: the 429 to its first request is waited out (1 s); the retry is accepted and the case PASSes', async () => {
    script = (n) => (n === 0 ? { retryAfter: '1' } : 'forward');
    const [result] = await run(['service.auth.valid-accepted']);
    expect(result?.verdict, result?.reason).toBe('PASS');
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(1000);
    const exchanges = result?.evidence?.exchanges ?? [];
    expect(exchanges.map((e) => e.response?.status)).toEqual([429, 200]);
    expect(exchanges[1]?.label).toMatch(/\(sent again after 429\)$/);
    // The same request: same body, same signature.
    expect(exchanges[1]?.request.body).toBe(exchanges[0]?.request.body);
    expect(result?.evidence?.notes?.join('\n')).toMatch(/answered 429 Too Many Requests \(Retry-After: 1\); sent again once after waiting 1\.\d s/);
  });

  it('a second 429: service.auth.wrong-secret (negative) and service.auth.valid-accepted (positive) are ERROR naming the limit, each sent twice, not PASS or FAIL', async () => {
    script = () => ({ retryAfter: '1' });
    const ids = ['service.auth.valid-accepted', 'service.auth.wrong-secret'];
    const results = await run(ids);
    expect(results.map((r) => r.id)).toEqual(ids);
    for (const r of results) {
      expect(r.verdict, `${r.id}: ${r.reason}`).toBe('ERROR');
      expect(r.reason).toMatch(/^the service answered 429 Too Many Requests \(Retry-After: 1\) again after the harness waited out its Retry-After \(1\.\d s\) and sent the request once more: it limits the request rate, so this answer says nothing about the rule this case checks; run again with a lower --rate \(this run: unpaced; /);
      expect(r.evidence?.exchanges?.map((e) => e.response?.status)).toEqual([429, 429]);
    }
    expect(arrivals).toHaveLength(4);
  });
});

describe('429 that is not waited out: ERROR at once, sent once', () => {
  it('without Retry-After', async () => {
    script = () => ({});
    const [result] = await run(['service.auth.wrong-secret']);
    expect(result?.verdict).toBe('ERROR');
    expect(result?.reason).toMatch(/^the service answered 429 Too Many Requests without a Retry-After, so it was not sent again: it limits the request rate/);
    expect(result?.stated?.causes).toEqual(['rate-limited']);
    expect(arrivals).toHaveLength(1);
  });
  it('with a Retry-After longer than the harness waits (120 s), or one it cannot read', async () => {
    script = () => ({ retryAfter: '120' });
    const [tooLong] = await run(['service.auth.wrong-secret']);
    expect(tooLong?.reason).toMatch(/^the service answered 429 Too Many Requests \(Retry-After: 120\), longer than the 60 s the harness waits out: it limits the request rate/);
    expect(arrivals).toHaveLength(1);
    script = () => ({ retryAfter: 'soon' });
    const [unreadable] = await run(['service.auth.wrong-secret']);
    expect(unreadable?.reason).toMatch(/^the service answered 429 Too Many Requests with a Retry-After the harness cannot read \("soon": neither seconds nor an HTTP date\)/);
    expect(arrivals).toHaveLength(1);
  });
});
