// The allowance of timing.ts: how early a timer ends against performance.now(), measured here on
// chains of short timers (a loaded machine only makes them later, never earlier).
import { describe, expect, it } from 'vitest';
import { leastMeasured, TIMER_EARLY_MS } from './timing.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('a timer ends at most TIMER_EARLY_MS early, and a chain at most that per timer', () => {
  it('leastMeasured: the exact sum less one allowance per timer', () => {
    expect(leastMeasured(60, 3)).toBe(60 - 3 * TIMER_EARLY_MS);
    expect(leastMeasured(400)).toBe(400 - TIMER_EARLY_MS);
  });
  it('100 single timers of 3 ms, and 20 chains of three, each measured on performance.now(): none below its least', async () => {
    const short: number[] = [];
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      await sleep(3);
      short.push(performance.now() - started);
    }
    expect(short.filter((ms) => ms < leastMeasured(3))).toEqual([]);
    const chains: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      for (let j = 0; j < 3; j++) await sleep(3);
      chains.push(performance.now() - started);
    }
    expect(chains.filter((ms) => ms < leastMeasured(9, 3))).toEqual([]);
  });
});
