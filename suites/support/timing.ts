// Lower bounds on measured waits. A test that waited on timers may assert the wait took at least
// so long, but never at least the exact timer: Node runs timers on libuv's millisecond clock, so a
// setTimeout(ms) can end up to a millisecond before `ms` have passed on performance.now() (a
// probe.test.ts run measured 59.55 ms for three 20 ms polls: issue 37 item 4). Each timer of a
// chain waited one after another may be that early, so the allowance grows with their number.
// timing.test.ts measures it.

/** How early one timer may end, against performance.now(). */
export const TIMER_EARLY_MS = 1;

/** The least a wait of `ms` in all, over `timers` timers waited one after another, can measure. */
export function leastMeasured(ms: number, timers = 1): number {
  return ms - timers * TIMER_EARLY_MS;
}
