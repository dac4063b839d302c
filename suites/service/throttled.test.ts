// Issue 22, point 14: a vendor's sandbox behind a common throttle. The reference service behind a
// real rate limiter that answers as Laravel's `throttle` middleware does (suites/support/throttle.ts:
// a fixed window from its first request, 429 with Retry-After, the caller's source address kept):
// the 5 requests a second, twice as fast so the test takes seconds (5 per 500 ms). Paced
// at the limit (as `run --rate` defaults to 5/s against the 5/s), the run gives the
// verdicts the same service gives unthrottled, and the rate measured at the target holds. Every
// case at once without pacing: throttled-unpaced.test.ts (split from here, fixtures/throttled.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedService, type EmbeddedService } from '../../harness/embedded/index.ts';
import type { SideRunResult } from '../../harness/run/index.ts';
import { Pace, parseRate } from '../../harness/wire/index.ts';
import { mostWithin } from '../support/throttle.ts';
import { behindThrottle, cases, runAgainst, UNPACED_FEWEST_MEASURED, type Observed } from './fixtures/throttled.ts';

/** The limit itself, as the default 5/s is the limit: a 429 where jitter puts a sixth request in a window is waited out. */
const RATE = parseRate('10/s')!;

let service: EmbeddedService;

beforeAll(async () => {
  service = await startEmbeddedService();
});
afterAll(async () => {
  await service.close();
});

/** The cases whose verdicts differ, each with both verdicts and reasons. */
function differences(a: SideRunResult, b: SideRunResult): string[] {
  const of = (run: SideRunResult) => new Map([run.preflight.result, ...run.results].map((r) => [r.id, r]));
  const [left, right] = [of(a), of(b)];
  return [...new Set([...left.keys(), ...right.keys()])].flatMap((id) => {
    const [x, y] = [left.get(id), right.get(id)];
    return x?.verdict === y?.verdict ? [] : [`${id}: ${x?.verdict} (${x?.reason ?? ''}) vs ${y?.verdict} (${y?.reason ?? ''})`];
  });
}

describe(`a service that allows 5 requests per 500 ms, every case paced at ${RATE.text}`, () => {
  let unthrottled: SideRunResult;
  let paced: Observed;
  const pace = new Pace(RATE);
  beforeAll(async () => {
    unthrottled = await runAgainst(service, service.target.baseUrl);
    paced = await behindThrottle(service, pace);
  }, 60_000);

  it(`paced at ${RATE.text}: every case has the verdict it has against the same service unthrottled; the throttle refused next to nothing`, () => {
    expect(paced.run.results.length).toBe(cases.length);
    expect(differences(unthrottled, paced.run)).toEqual([]);
    // A quarter of the fewest the same run unpaced was measured to get refused (throttled-unpaced.test.ts).
    expect(paced.refused).toBeLessThanOrEqual(Math.floor(UNPACED_FEWEST_MEASURED / 4));
  });
  it(`the pace holds at the target: at most ${RATE.text} in any second, and no slower than the pace while requests wait`, () => {
    const { arrivals } = paced;
    const interval = 1000 / RATE.perSecond;
    expect(arrivals.length).toBe(pace.sent);
    // One more where a second's two edges both hold one; 10 % for requests that reach the target
    // a little later than the gate let them go (the target shares this process's event loop).
    expect(mostWithin(arrivals, 1000)).toBeLessThanOrEqual(Math.floor(RATE.perSecond * 1.1) + 1);
    // The first requests, asked for at once, go a turn apart, not slower.
    const first20 = arrivals.slice(0, 20);
    expect(first20.at(-1)! - first20[0]!).toBeLessThan(2 * 19 * interval);
  });
});
