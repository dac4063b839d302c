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
  it('a 120 ms busy wait is one stall of about that length', async () => {
    const t0 = performance.now();
    const timeline = new StallTimeline(() => performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const busyUntil = performance.now() + 120;
    while (performance.now() < busyUntil) { /* the loop stands still */ }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const stalls = timeline.stop();
    const long = stalls.filter(([a, b]) => b - a >= 80);
    expect(long).toHaveLength(1);
    // The period ends when the loop ran again: at least the wait minus one tick, never longer than the whole test.
    expect(long[0]![1] - long[0]![0]).toBeGreaterThanOrEqual(100);
    expect(long[0]![1] - long[0]![0]).toBeLessThan(performance.now() - t0);
  });
});
