// How late this process's event loop ran while a case timed deliveries: a delivery noted during a
// stall looks late, its interval longer and the next one shorter, by up to the stall. On a busy
// machine (a CI runner, a test suite) the back-off judgement allows for what was seen, and the
// receiver's latency cases do not judge a reply late by no more than the stall. Shared by both sides.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

const RESOLUTION_MS = 10;

/** The start of the reason of a timing the kit could not measure: its own process stalled enough to change the verdict. */
export const TIMING_BLURRED = "not judged: the kit's own event loop ran";

export class StallWatch {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });

  /** Watches from its first tick on (Node's histogram records lags from then): a stall within the first RESOLUTION_MS goes unseen. */
  constructor() {
    this.histogram.enable();
  }

  /** The longest lag seen so far beyond the timer's own period, in ms. */
  longestMs(): number {
    return Math.max(0, this.histogram.max / 1e6 - RESOLUTION_MS);
  }

  /** Stops watching; the longest lag seen, in ms. */
  stop(): number {
    this.histogram.disable();
    return this.longestMs();
  }
}
