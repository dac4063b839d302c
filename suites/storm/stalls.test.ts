// The driver's stall timeline (harness/storm/stalls.ts): the overlap arithmetic on known
// periods, and a real stall of this process's event loop seen as one period.
import { describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { StallTimeline, stalledWithin } from '../../harness/storm/stalls.ts';

describe('stalledWithin: how much of an attempt the stalls cover', () => {
  it('inside, across either end, around, and apart', () => {
    const stalls = [[10, 20], [30, 50], [100, 110]] as const;
    expect(stalledWithin(stalls, 0, 5)).toBe(0);
    expect(stalledWithin(stalls, 12, 18)).toBe(6);
    expect(stalledWithin(stalls, 15, 40)).toBe(15);
    expect(stalledWithin(stalls, 0, 200)).toBe(40);
    expect(stalledWithin([], 0, 200)).toBe(0);
  });
});

describe('StallTimeline on this process\'s own loop', () => {
  it('a 120 ms busy wait is one stall covering it', async () => {
    const t0 = performance.now();
    const timeline = new StallTimeline(() => performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const busyFrom = performance.now() - t0;
    const busyUntil = performance.now() + 120;
    while (performance.now() < busyUntil) { /* the loop stands still */ }
    const busyTo = performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, 30));
    const stalls = timeline.stop();
    // One period covers the busy wait: it starts at most one tick (10 ms) after the wait began (the
    // last tick came before it) and ends once the loop ran again. A loaded machine may add stalls
    // of its own elsewhere; they are not this one.
    const covering = stalls.filter(([a, b]) => a <= busyFrom + 10 && b >= busyTo);
    expect(covering, JSON.stringify({ busyFrom, busyTo, stalls })).toHaveLength(1);
  });
});
