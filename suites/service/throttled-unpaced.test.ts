// Issue 22, point 14 (throttled.test.ts, split from it so that the runs overlap across workers):
// the reference service behind a throttle as Laravel's `throttle` middleware answers, 5 requests
// per 500 ms (fixtures/throttled.ts). Every case of a run at once without pacing sends its first
// requests in one burst and most get 429: the cases whose retry was refused again are ERROR naming
// the limit, under one diagnosis; a throttle that refuses the preflight itself is named first.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { SHARED_ANSWER_MIN_CASES } from '../../harness/diagnoses/index.ts';
import { startEmbeddedService, type EmbeddedService } from '../../harness/embedded/index.ts';
import { runSide } from '../../harness/run/index.ts';
import { RATE_LIMITED } from '../../harness/wire/index.ts';
import { mostWithin } from '../support/throttle.ts';
import { behindThrottle, LIMIT, SEED, UNPACED_LEAST_REFUSED, type Observed } from './fixtures/throttled.ts';

let service: EmbeddedService;

beforeAll(async () => {
  service = await startEmbeddedService();
});
afterAll(async () => {
  await service.close();
});

describe('a service that allows 5 requests per 500 ms, every case at once', () => {
  let unpaced: Observed;
  beforeAll(async () => {
    unpaced = await behindThrottle(service);
  }, 60_000);

  it('unpaced (--rate off, as every run was before --rate): the throttle refuses many requests; cases whose retry was refused again are ERROR naming the limit, under one diagnosis', () => {
    // The first burst: several times the limit in one window reached the target (measured: 35,
    // 65 requests refused, 23 of 36 cases ERROR, also on a machine loaded eightfold; 13 of 43
    // beside the paced file on a machine loaded fivefold, the burst spread by the load: how many
    // cases meet a second 429 is the load's, so the count asked is a shared cause's, and every
    // case the throttle changed is held to ERROR under it).
    expect(mostWithin(unpaced.arrivals, LIMIT.windowMs)).toBeGreaterThan(2 * LIMIT.limit);
    expect(unpaced.refused).toBeGreaterThanOrEqual(UNPACED_LEAST_REFUSED);
    const { results, diagnoses } = unpaced.run;
    const limited = results.filter((r) => r.verdict === 'ERROR' && r.reason?.includes(RATE_LIMITED));
    const listed = results.map((r) => `${r.id} ${r.verdict} ${r.reason ?? ''}`).join('\n');
    expect(limited.length, listed).toBeGreaterThanOrEqual(SHARED_ANSWER_MIN_CASES);
    const [first] = diagnoses;
    expect(first?.id).toBe('service.rate-limited');
    // The preflight goes with the first burst: refused too, it names the cause (a test below), or the cases do.
    expect(first?.summary).toMatch(/^the service limits the request rate: (\d+ cases got 429 Too Many Requests that waiting out its Retry-After did not end, so their rules were not exercised|the preflight could not finish \(.*429)/);
    expect(diagnoses.filter((d) => d.id.endsWith('.rate-limited'))).toHaveLength(1);
    // A 429 is never a finding of a rule: no case FAILs or WARNs for it, and each it left unexercised is explained by the one cause.
    const notPassed = results.filter((r) => r.verdict !== 'PASS' && r.verdict !== 'SKIP');
    expect(notPassed.filter((r) => r.verdict !== 'ERROR').map((r) => `${r.id} ${r.verdict} ${r.reason ?? ''}`), listed).toEqual([]);
    for (const r of notPassed) expect(first?.cases, `${r.id}: ${r.reason}`).toContain(r.id);
  });
});

describe('a throttle that refuses the preflight itself', () => {
  // Every request answered 429 asking for a wait longer than the kit waits out (2 minutes): the
  // preflight cannot finish, and its cause is the throttle, named once, first, with the cases.
  it('the first cause is service.rate-limited (not "the preflight could not finish" beside a second cause), naming the refused cases', async () => {
    const refuseAll = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(429, { 'retry-after': '120', 'content-type': 'application/json' }).end('{"message":"Too Many Attempts."}'));
    });
    await new Promise<void>((resolve) => refuseAll.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(refuseAll.address() as { port: number }).port}`;
      const some = SERVICE_CASES.filter((c) => c.id.startsWith('service.auth.'));
      const { results, preflight, diagnoses } = await runSide({ cases: some, target: { ...service.target, baseUrl }, seed: SEED });
      expect(preflight.result.verdict).toBe('ERROR');
      expect(diagnoses.map((d) => d.id)).toEqual(['service.rate-limited']);
      expect(diagnoses[0]!.summary).toMatch(/^the service limits the request rate: the preflight could not finish \(.*429/);
      expect(diagnoses[0]!.cases).toEqual(results.filter((r) => r.verdict !== 'PASS').map((r) => r.id));
    } finally {
      await new Promise<void>((resolve) => refuseAll.close(() => resolve()));
    }
  });
});
