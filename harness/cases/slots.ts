// How many cases run at once: up to `limit` side by side, and a case that measures time or load
// (ConformanceCase.runsAlone) with nothing else in flight. First come, first served: a case
// waiting to run alone holds back the cases asked for after it, so it is never starved.

/**
 * `run --target` default: every case of a side at once (a side has about 35), since a case
 * spends nearly all its time waiting (a rejection is watched for timing.callbackTimeoutMs) and
 * sends one or two requests meanwhile; the bound keeps a larger selection from opening more.
 */
export const TARGET_FILE_CONCURRENCY = 32;
export const MAX_CONCURRENCY = 64;
/**
 * The default otherwise (the embedded run, and runCases as a library): in-process reference
 * implementations answer on the harness's own thread, so every case in flight also loads the
 * targets; fewer at once keeps a loaded machine's answers within the per-request limits.
 */
export const DEFAULT_CONCURRENCY = 8;

interface Waiter {
  alone: boolean;
  grant: () => void;
}

export class CaseSlots {
  private running = 0;
  private aloneRunning = false;
  private readonly queue: Waiter[] = [];

  constructor(readonly limit: number = DEFAULT_CONCURRENCY) {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CONCURRENCY) {
      throw new RangeError(`concurrency: must be an integer from 1 to ${MAX_CONCURRENCY} (got ${limit})`);
    }
  }

  /** Resolves with the release function once the case may start. */
  acquire(alone: boolean): Promise<() => void> {
    return new Promise((resolve) => {
      this.queue.push({
        alone,
        grant: () => {
          this.running++;
          if (alone) this.aloneRunning = true;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.running--;
            if (alone) this.aloneRunning = false;
            this.pump();
          });
        },
      });
      this.pump();
    });
  }

  private pump(): void {
    for (;;) {
      const head = this.queue[0];
      if (!head || this.aloneRunning) return;
      if (head.alone ? this.running > 0 : this.running >= this.limit) return;
      this.queue.shift();
      head.grant();
    }
  }
}
