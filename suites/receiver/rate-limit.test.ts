// A receiver behind a throttle (Laravel's `api` route group is, at 60 requests a minute): its 429
// is the throttle's, answered before the receiver's code saw the callback, so it says nothing
// about a receiver rule. With a Retry-After it is waited out and the callback sent once more; an
// answer that stays 429 is ERROR naming the limit, never a FAIL (a token case would read a 429
// as "not 403"). A measurement's burst is not sent again piecemeal: a 429 inside it is ERROR.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { forwardTo, startThrottle } from '../support/throttle.ts';
import { runCases } from '../../harness/runner/index.ts';

let embedded: EmbeddedReceiver;
/** How the limiter answers its n-th request (from 0) on `path`: 429 with Retry-After, or forwarded. */
let script: (n: number, path: string) => 'forward' | { retryAfter: string } = () => 'forward';
let seen: string[] = [];

function forward(req: IncomingMessage, res: ServerResponse): void {
  forwardTo(new URL(embedded.target.callbackUrl), req, res);
}

const limiter = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const step = script(seen.length, path);
  seen.push(`${req.method} ${path}`);
  if (step === 'forward') return forward(req, res);
  req.resume();
  res.writeHead(429, { 'content-type': 'application/json', 'retry-after': step.retryAfter }).end('{"message":"Too Many Attempts."}');
});
let origin = '';

beforeAll(async () => {
  embedded = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 1000 });
  await new Promise<void>((resolve) => limiter.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(limiter.address() as AddressInfo).port}`;
});
afterAll(async () => {
  limiter.closeAllConnections();
  await new Promise((resolve) => limiter.close(resolve));
  await embedded.close();
});

/** The embedded receiver behind `through` (hooks too, unless black-box). */
function behind(through: string, hooks = true): ResolvedReceiverTarget {
  const own = new URL(embedded.target.callbackUrl).origin;
  const { observe, ...rest } = embedded.target;
  return {
    ...rest,
    callbackUrl: embedded.target.callbackUrl.replace(own, through),
    ...(hooks && observe?.kind === 'hooks' ? { observe: { kind: 'hooks', url: observe.url.replace(own, through) } } : {}),
  };
}

function run(ids: readonly string[], target: ResolvedReceiverTarget) {
  seen = [];
  return runCases({ cases: RECEIVER_CASES.filter((c) => ids.includes(c.id)), target, seed: 9 });
}

const callbackPath = () => new URL(embedded.target.callbackUrl).pathname;

describe('a callback answered 429 with Retry-After', () => {
  it('receiver.token.wrong: the 429 to its callback is waited out; the callback sent again gets 403 and the case PASSes', async () => {
    let callbacks = 0;
    script = (_n, path) => (path === callbackPath() && callbacks++ === 0 ? { retryAfter: '1' } : 'forward');
    const [result] = await run(['receiver.token.wrong'], behind(origin));
    expect(result?.verdict, result?.reason).toBe('PASS');
    expect(seen.filter((s) => s.endsWith(callbackPath()))).toHaveLength(2);
    expect(result?.evidence?.notes?.join('\n')).toMatch(/answered 429 Too Many Requests \(Retry-After: 1\); sent again once after waiting 1\.\d s/);
  });

  it('receiver.token.wrong: a second 429 is ERROR naming the limit, not a FAIL for "not 403"', async () => {
    script = (_n, path) => (path === callbackPath() ? { retryAfter: '1' } : 'forward');
    const [result] = await run(['receiver.token.wrong'], behind(origin));
    expect(result?.verdict).toBe('ERROR');
    expect(result?.reason).toMatch(/^the receiver answered 429 Too Many Requests \(Retry-After: 1\) again after the harness waited out its Retry-After \(1\.\d s\) and sent the request once more: it limits the request rate, so this answer says nothing about the rule this case checks; run again with a lower --rate/);
    expect(result?.evidence?.exchanges?.filter((e) => e.response?.status === 429)).toHaveLength(2);
    expect(seen.filter((s) => s.endsWith(callbackPath()))).toHaveLength(2);
  });

  it('a test hook answered 429 twice: ERROR naming the hook and the limit', async () => {
    script = (_n, path) => (path.endsWith('/transactions') ? { retryAfter: '1' } : 'forward');
    const [result] = await run(['receiver.outcome.success-applied'], behind(origin));
    expect(result?.verdict).toBe('ERROR');
    expect(result?.reason).toMatch(/^the test hook POST \/transactions answered 429 Too Many Requests \(Retry-After: 1\) again after the harness waited out its Retry-After/);
  });
});

describe("a measurement's burst meets the limit", () => {
  it('receiver.latency.burst behind 5 requests per 10 s: ERROR naming the measurement; none of its callbacks sent again', async () => {
    const throttle = await startThrottle(new URL(embedded.target.callbackUrl).origin, { limit: 5, windowMs: 10_000 });
    try {
      // Black-box: no seeding, so the burst's callbacks are the only requests.
      const [result] = await runCases({ cases: RECEIVER_CASES.filter((c) => c.id === 'receiver.latency.burst'), target: behind(throttle.origin, false), seed: 9 });
      expect(result?.verdict).toBe('ERROR');
      expect(result?.reason).toMatch(/^the receiver answered 429 Too Many Requests \(Retry-After: 10\) to a request of this case's measurement, whose requests go at once \(a burst sent again piecemeal would measure something else\): it limits the request rate below the burst this case measures with/);
      // The case ends at the first 429; none is sent again.
      expect(throttle.refused).toBeGreaterThanOrEqual(1);
      expect(throttle.arrivals.length).toBeLessThanOrEqual(20);
      expect((result?.evidence?.exchanges ?? []).filter((e) => /sent again/.test(e.label ?? ''))).toEqual([]);
    } finally {
      await throttle.close();
    }
  });
});
