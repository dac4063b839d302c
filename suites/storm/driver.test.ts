// The storm's open-loop driver (harness/storm/driver.ts) against small loopback servers written
// here: each attempt timed from its intended send, the wait for a connection counted as the kit's,
// a delivery given up while it waited never sent, retries after the back-off or the reply's
// Retry-After, bad tokens never retried, a stop request ending it at once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { drive, StormPlan, type AttemptRow } from '../../harness/storm/index.ts';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); })));
});

/** A server that answers each callback after `holdMs`, with `answer(n)` for its n-th request (from 1). */
async function server(holdMs: number, answer: (n: number, url: string) => { status: number; headers?: Record<string, string> } = () => ({ status: 200 })): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const s = createServer((req, res) => {
    seen.push(`${req.url} ${req.headers['x-callback-token'] ?? '(no token)'}`);
    const { status, headers } = answer(seen.length, req.url ?? '');
    setTimeout(() => {
      res.writeHead(status, { 'content-length': '2', ...headers });
      res.end('{}');
    }, holdMs);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/cb`, seen };
}

const rows = (log: { length: number; row(r: number): AttemptRow }) => Array.from({ length: log.length }, (_, r) => log.row(r));
const plan = (callbacks: number, over: Partial<ConstructorParameters<typeof StormPlan>[0]> = {}) => new StormPlan({ callbacks, ratePerS: 1000, duplicates: 1, badTokensPct: 0, seed: 3, tag: 'd', ...over });

describe('storm driver: timed from the intended send, the wait for a connection the kit\'s', () => {
  it('one connection, a receiver that holds each reply 150 ms: the third waits ~300 ms in the kit, its total ~450 ms', async () => {
    const s = await server(150);
    const p = plan(3, { ratePerS: 100_000 });
    const driven = await drive({ plan: p, callbackUrl: s.url, token: 'tok', replyDeadlineMs: 5000, connections: 1 });
    const [, , third] = rows(driven.log).sort((a, b) => a.wireMs - b.wireMs);
    expect(third!.wireMs - third!.intendedMs).toBeGreaterThan(250);
    expect(third!.endMs - third!.intendedMs).toBeGreaterThan(400);
    expect(third!.endMs - third!.wireMs).toBeGreaterThan(140);
    expect(s.seen).toHaveLength(3);
    expect(s.seen[0]).toMatch(/^\/cb\?transaction_id=storm-d-\d&status=(SUCCESS|FAILED)&message=\S+ tok$/);
  });
  it('a delivery given up while it waited for a connection is never sent, and counts as a time-out at its limit', async () => {
    const s = await server(400);
    const p = plan(3, { ratePerS: 100_000 });
    const driven = await drive({ plan: p, callbackUrl: s.url, token: 'tok', replyDeadlineMs: 100, timeoutMs: 200, connections: 1, maxAttempts: 1 });
    const all = rows(driven.log);
    expect(all.map((r) => r.failure)).toEqual(['timeout', 'timeout', 'timeout']);
    for (const r of all) expect(r.endMs - r.intendedMs).toBeCloseTo(200, -1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(s.seen).toHaveLength(1);
  });
});

describe('storm driver: retries as the service makes them', () => {
  it('503 with Retry-After: 2 is sent again 2 s (× timeScale) later; 500 after the back-off, doubling; a 2xx ends it', async () => {
    const s = await server(0, (n) => (n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : n < 4 ? { status: 500 } : { status: 200 }));
    const driven = await drive({ plan: plan(1), callbackUrl: s.url, token: 'tok', replyDeadlineMs: 1000, backoffMs: 1000, timeScale: 0.1, maxAttempts: 6 });
    const all = rows(driven.log);
    expect(all.map((r) => [r.attempt, r.status])).toEqual([[1, 503], [2, 500], [3, 500], [4, 200]]);
    const gaps = all.slice(1).map((r, k) => r.intendedMs - all[k]!.endMs);
    // Retry-After 2 s → 200 ms; then the back-off of attempt 2 (2 s → 200 ms) and of attempt 3 (4 s → 400 ms). Timers may fire a millisecond early.
    expect(gaps[0]).toBeGreaterThan(195);
    expect(gaps[1]).toBeGreaterThan(195);
    expect(gaps[2]).toBeGreaterThan(395);
    expect(all[0]!.retryAfterS).toBe(2);
  });
  it('a late 2xx is retried too; bad-token deliveries never; attempts stop at maxAttempts', async () => {
    const late = await server(120);
    const driven = await drive({ plan: plan(1), callbackUrl: late.url, token: 'tok', replyDeadlineMs: 50, timeoutMs: 1000, backoffMs: 10, maxAttempts: 3 });
    expect(rows(driven.log).map((r) => r.status)).toEqual([200, 200, 200]);
    const bad = await server(0, () => ({ status: 403 }));
    const forged = await drive({ plan: plan(4, { badTokensPct: 100 }), callbackUrl: bad.url, token: 'tok', replyDeadlineMs: 1000, backoffMs: 10 });
    expect(rows(forged.log).map((r) => r.attempt)).toEqual([1, 1, 1, 1]);
    expect(bad.seen.some((line) => !line.endsWith(' tok'))).toBe(true);
  });
});

describe('storm driver: a stop request', () => {
  it('ends the storm at once: attempts under way given up as stopped, nothing more sent', async () => {
    const s = await server(2000);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 150);
    const started = performance.now();
    const driven = await drive({ plan: plan(1000, { ratePerS: 100 }), callbackUrl: s.url, token: 'tok', replyDeadlineMs: 5000, signal: stop.signal });
    expect(performance.now() - started).toBeLessThan(1500);
    expect(driven.stopped).toBe(true);
    expect(driven.log.length).toBeLessThan(100);
    expect(rows(driven.log).every((r) => r.failure === 'stopped')).toBe(true);
  });
});
