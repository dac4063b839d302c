// A sandbox that limits the request rate answers 429: that is neither an acceptance nor a
// rejection of what a case sent, so the case is ERROR naming the limit and --concurrency, never
// a PASS of a negative case (a 429 is not 2xx, so it would otherwise read as a rejection).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCases, SERVICE_CASES } from '../../harness/cases/index.ts';
import { closeServiceListeners } from '../../harness/cases/service/index.ts';
import { startEmbeddedService, type EmbeddedService } from '../../harness/embedded/index.ts';

let service: EmbeddedService;
const limiter = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' }).end('{"success":false,"error":"rate limited"}'));
});
let origin = '';

beforeAll(async () => {
  service = await startEmbeddedService();
  await new Promise<void>((resolve) => limiter.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(limiter.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => limiter.close(resolve));
  await service.close();
  await closeServiceListeners();
});

describe('429 Too Many Requests: ERROR naming the rate limit, whatever the case expected', () => {
  it('service.auth.wrong-secret (negative) and service.auth.valid-accepted (positive) are ERROR, not PASS or FAIL', async () => {
    const ids = ['service.auth.valid-accepted', 'service.auth.wrong-secret'];
    const results = await runCases({ cases: SERVICE_CASES.filter((c) => ids.includes(c.id)), target: { ...service.target, baseUrl: origin }, seed: 5 });
    expect(results.map((r) => r.id)).toEqual(ids);
    for (const r of results) {
      expect(r.verdict, `${r.id}: ${r.reason}`).toBe('ERROR');
      expect(r.reason).toMatch(/answered 429 Too Many Requests \(Retry-After: 2\).*says nothing about the rule.*--concurrency/);
      expect(r.evidence?.exchanges?.[0]?.response?.status).toBe(429);
    }
  });
});
