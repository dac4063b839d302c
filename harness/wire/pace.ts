// The pace of our requests to one target (`run --rate`), apart from how many cases wait side by
// side (--concurrency): most of a case is waiting for callbacks, so 32 cases at once used to put
// 43 requests on the wire in the first second, and a sandbox behind a common throttle answered
// most of them 429. The pace spaces the requests evenly, one every 1/rate seconds (a bucket of
// one: no burst at the start, which a strict limiter such as nginx's limit_req without `burst`
// refuses as surely as a count per window does). The wire gate asks the pace before it lets an
// exchange on the wire; a measurement's own requests go at once and are charged (a burst takes
// its tokens at once, and starts only after as many turns went unused); a 429's Retry-After pauses every request to the target until it has passed.

/** A number of requests per second, as given (`5/s`, `60/min`). */
export interface Rate {
  perSecond: number;
  /** As the user wrote it, for messages: `5/s`. */
  text: string;
}

/** The most `--rate` accepts: beyond it, pacing is no longer what limits a run. */
export const MAX_RATE_PER_SECOND = 1000;

/** Why a `--rate` value is refused; the message names the value. */
export class RateError extends Error {
  override readonly name = 'RateError';
  readonly code = 'ERR_RATE';
}

/** `N/s` or `N/min`, N a positive decimal number (`5/s`, `0.5/s`, `60/min`); `off`: unpaced (undefined). */
export function parseRate(text: string): Rate | undefined {
  if (text.trim().toLowerCase() === 'off') return undefined;
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*\/\s*(s|sec|second|m|min|minute)$/i.exec(text.trim());
  const perSecond = match ? Number(match[1]) / (/^s/i.test(match[2]!) ? 1 : 60) : Number.NaN;
  if (!match || !(perSecond > 0) || perSecond > MAX_RATE_PER_SECOND) {
    throw new RateError(`must be N/s or N/min with N a positive number up to ${MAX_RATE_PER_SECOND}/s (e.g. 5/s, 0.5/s, 60/min), or off (got ${JSON.stringify(text)})`);
  }
  return { perSecond, text: `${match[1]}/${/^s/i.test(match[2]!) ? 's' : 'min'}` };
}

export class Pace {
  /** performance.now() before which no paced request of this target may go. */
  private nextAt = Number.NEGATIVE_INFINITY;
  /** performance.now() until which the target asked us to wait (a 429's Retry-After). */
  private pausedUntil = Number.NEGATIVE_INFINITY;
  /** Requests this pace let go or charged. */
  sent = 0;
  /** 429 answers told to this pace (each pauses it). */
  throttled = 0;

  /** `rate` undefined: unpaced, though a 429's Retry-After still pauses it. */
  constructor(readonly rate: Rate | undefined, private readonly now: () => number = () => performance.now()) {}

  /** Milliseconds between two requests (0 unpaced). */
  get intervalMs(): number {
    return this.rate ? 1000 / this.rate.perSecond : 0;
  }

  /** For messages: `5/s`, or `unpaced`. */
  get described(): string {
    return this.rate ? this.rate.text : 'unpaced';
  }

  /**
   * Milliseconds until the next request may go (0: now); for a measurement of `burst` requests at
   * once, until the pace has also left the `burst - 1` turns before it unused.
   */
  dueInMs(burst = 1): number {
    return Math.max(0, this.nextAt + (burst - 1) * this.intervalMs - this.now(), this.pausedUntil - this.now());
  }

  /** What a request waiting for this pace waits for, in words. */
  waitingFor(): string {
    return this.pausedUntil > this.now()
      ? 'waiting out the Retry-After of a 429 Too Many Requests from the target'
      : `waiting for its turn to send (requests to the target paced at ${this.described})`;
  }

  /** Takes the next turn when it is due; false when it is not yet. */
  tryTake(): boolean {
    if (this.dueInMs() > 0) return false;
    this.charge();
    return true;
  }

  /**
   * Whether a measurement of `burst` requests at once may start now; its requests are charged as
   * they go. The turns before it left unused and those charged after it make the burst fit any
   * window the rate fits: at 10/s under 5 per 500 ms, two at once right after a turn made six.
   */
  tryStart(burst = 1): boolean {
    return this.dueInMs(burst) === 0;
  }

  /**
   * Charges one request that goes now whatever the pace (a measurement's own request): the
   * next turn moves on by one interval from it, so a burst of N is paid back before the next.
   */
  charge(): void {
    this.sent++;
    this.nextAt = Math.max(this.nextAt, this.pausedUntil, this.now()) + this.intervalMs;
  }

  /** The target answered 429 and asked to wait `ms`: no request to it goes before then. */
  pauseFor(ms: number): void {
    this.throttled++;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }
}
