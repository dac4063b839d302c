// The status endpoint's view of its own process's event loop (endpoint.ts): how long the loop had
// been held up just before it read a query, and a wait of a few loop turns. A query that came
// while the whole loop was blocked is read late, stamped late, and may come with the receiver's
// close: the stall measured says whether the kit's delay can explain that close.
import { performance } from 'node:perf_hooks';

/** How often the loop is sampled; a stall shorter than this may go unseen. */
const PERIOD_MS = 10;

export class LoopStalls {
  private lastTick = performance.now();
  private lastLagMs = 0;
  private readonly timer: NodeJS.Timeout;

  /** Samples from now on (unref'd: it keeps no process alive) until stop(). */
  constructor() {
    this.timer = setInterval(() => {
      const now = performance.now();
      this.lastLagMs = Math.max(0, now - this.lastTick - PERIOD_MS);
      this.lastTick = now;
    }, PERIOD_MS);
    this.timer.unref();
  }

  /**
   * How long the loop had been held up just before `at` (performance.now(), now or a moment ago),
   * in whole ms: the lag the last sample saw, or, when no sample ran since, the time past its due.
   */
  before(at: number): number {
    return Math.round(Math.max(this.lastLagMs, at - this.lastTick - PERIOD_MS, 0));
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * Resolves after `n` turns of the event loop (its check phases): the second and each later one
 * follow a poll phase, so input already waiting on a socket (a query, a peer's close) has been
 * read by then.
 */
export async function loopTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Resolves when `promise` settles or `ms` passed, whichever is first. */
export async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); })]);
  clearTimeout(timer);
}
