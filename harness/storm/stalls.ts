// When the driver's own event loop stood still. A reply that arrives during a stall is noted when
// the loop runs again, so its time "on the wire" includes the stall: the receiver may have
// answered at once. reply-deadline subtracts these periods from each attempt before it blames
// the receiver (judge.ts); what is left over the deadline is the receiver's.

/** The ticker's period, and the gap beyond it that counts as a stall. */
const TICK_MS = 10;
const STALL_MS = 20;
/** Bounded memory for a long storm on a busy machine: the oldest periods merge into one. */
const MAX_PERIODS = 10_000;

/** A period [from, to] in ms on the driver's clock. */
export type Stall = readonly [number, number];

export class StallTimeline {
  private readonly periods: Array<[number, number]> = [];
  private last: number;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly clock: () => number) {
    this.last = clock();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  private tick(): void {
    const now = this.clock();
    if (now - this.last > TICK_MS + STALL_MS) {
      if (this.periods.length >= MAX_PERIODS) {
        const [a, b] = this.periods.splice(0, 2) as [[number, number], [number, number]];
        this.periods.unshift([a[0], b[1]]);
      }
      this.periods.push([this.last + TICK_MS, now]);
    }
    this.last = now;
  }

  /** Stops watching; the stalls seen, in order (a stall under way is closed at the stop). */
  stop(): Stall[] {
    clearInterval(this.timer);
    this.tick();
    return this.periods;
  }
}

/** How much of [from, to] the stalls cover, in ms (stalls in order, not overlapping). */
export function stalledWithin(stalls: readonly Stall[], from: number, to: number): number {
  let covered = 0;
  for (const [a, b] of stalls) {
    if (a >= to) break;
    if (b <= from) continue;
    covered += Math.min(b, to) - Math.max(a, from);
  }
  return covered;
}
