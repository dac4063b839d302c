// How many cases run at once: up to `limit` side by side, first come, first served. Everything
// that shares the slots (a run's targets, a side's preflight and cases) shares one wire gate too:
// a case that measures time or load does so with nothing else of ours on the wire (ctx.wire.alone).
import { WireGate } from '../wire/index.ts';

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

export class CaseSlots {
  /** The gate of every exchange the cases holding these slots make. */
  readonly wire = new WireGate();
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(readonly limit: number = DEFAULT_CONCURRENCY) {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CONCURRENCY) {
      throw new RangeError(`concurrency: must be an integer from 1 to ${MAX_CONCURRENCY} (got ${limit})`);
    }
  }

  /** Resolves with the release function once the case may start. */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      this.queue.push(() => {
        this.running++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.running--;
          this.pump();
        });
      });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0 && this.running < this.limit) this.queue.shift()!();
  }
}
