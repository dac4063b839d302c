// One case's (or the preflight's) use of the gate: its exchanges, its measurement, and how long
// it has waited at the gate, so that waiting for another case's measurement, or for its target's
// turn (the pace), does not eat the case's own time limits.
import { WireGate } from './gate.ts';
import { Pace } from './pace.ts';

/** The longest Retry-After the harness waits out before sending again (Laravel's per-minute windows fit). */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Why a 429 is not sent again: the one retry is not allowed here. */
export type NoRetry =
  /** A measurement's request: a burst sent again piecemeal would measure something else. */
  | 'measuring'
  /** Retry-After asks for longer than MAX_RETRY_AFTER_MS. */
  | 'too-long'
  /** A client used outside a run (OPEN_WIRE: no gate, no pace, no case time to keep apart). */
  | 'outside-a-run';

/** What a client that talks to a target takes: it sends each exchange through `exchange`. */
export interface Wire {
  /**
   * Runs `send` (one exchange: from starting its time limit to the answer's last byte or its
   * failure) holding the wire shared. It waits while a measurement holds or has asked for the
   * wire, unless the measurement is this case's own, and for its target's turn when the target
   * is paced; rejects when the case stops meanwhile. `retry`: the one retry of an exchange
   * answered 429, which goes ahead of the exchanges waiting (it has waited out the Retry-After).
   */
  exchange<T>(send: () => Promise<T>, options?: { retry?: boolean }): Promise<T>;
  /**
   * The target answered 429 asking to wait `retryAfterMs`: every paced request to it waits
   * until then. Returns undefined when the exchange may be sent once more (through `exchange`
   * with `retry`, which waits out the pause), else why not.
   */
  throttled(retryAfterMs: number): NoRetry | undefined;
  /** The pace of this target's requests, for messages: `5/s`, `unpaced`. */
  readonly pace: string;
}

/** A case's wire (CaseContext.wire): its exchanges, its measurement, its waits. */
export interface CaseWireUse extends Wire {
  /**
   * Runs `measure` with nothing else of ours on the wire: no other case's (or target's)
   * exchange is in flight while it runs; this case's own exchanges inside it pass, at once,
   * whatever the pace (each is charged to it). Put only the part that measures in it: every
   * other case's exchanges wait meanwhile. `burst`: how many of its requests go at once (default
   * 1): under a pace it starts once as many turns before it went unused.
   */
  alone<T>(measure: () => Promise<T>, options?: { burst?: number }): Promise<T>;
  /** Milliseconds during which this case had something waiting at the gate, a wait under way included. */
  waitedMs(): number;
}

/** No gate: each exchange goes at once (a client used outside a run). */
export const OPEN_WIRE: Wire = { exchange: (send) => send(), throttled: () => 'outside-a-run', pace: 'unpaced' };

export class CaseWire implements CaseWireUse {
  /** This case's own measurements under way (it may nest them). */
  private holding = 0;
  private waiting = 0;
  private waitingSince = 0;
  private waitedBefore = 0;
  /** Exchanges this case made: its rank at its target's turn (harness/wire/gate.ts). */
  private made = 0;
  /** Unpaced unless given: a 429's Retry-After still pauses it. */
  private readonly paced: Pace;

  constructor(
    private readonly gate: WireGate,
    /** The case's id: progress lines of the cases waiting for its measurement name it. */
    private readonly holder: string,
    private readonly options: {
      /** The case's: a wait at the gate ends (rejects) when it aborts. */
      signal?: AbortSignal;
      /** Told what the case waits for when it starts waiting at the gate, then undefined when it no longer waits. */
      onWait?: (waitingFor: string | undefined) => void;
      /** Its target's pace (default: unpaced). */
      pace?: Pace;
    } = {},
  ) {
    this.paced = options.pace ?? new Pace(undefined);
  }

  get pace(): string {
    return this.paced.described;
  }

  async exchange<T>(send: () => Promise<T>, options: { retry?: boolean } = {}): Promise<T> {
    if (this.holding > 0) {
      this.paced.charge();
      return send();
    }
    const release = await this.waitFor(false, 1, () => this.gate.shared(this.options.signal, { pace: this.paced, rank: this.made, first: options.retry === true }));
    this.made++;
    try {
      return await send();
    } finally {
      release();
    }
  }

  async alone<T>(measure: () => Promise<T>, options: { burst?: number } = {}): Promise<T> {
    if (this.holding > 0) return measure();
    const burst = options.burst ?? 1;
    const release = await this.waitFor(true, burst, () => this.gate.exclusive(this.holder, this.options.signal, this.paced, burst));
    this.holding++;
    try {
      return await measure();
    } finally {
      this.holding--;
      release();
    }
  }

  throttled(retryAfterMs: number): NoRetry | undefined {
    // Longer than the harness waits (a quota spent for the day): no pause, or every case would
    // wait it out in turn only to be told the same; each ends ERROR with the same cause instead.
    if (retryAfterMs > MAX_RETRY_AFTER_MS) return 'too-long';
    // The target said when it takes requests again: none of ours goes before, retried or not.
    this.paced.pauseFor(retryAfterMs);
    return this.holding > 0 ? 'measuring' : undefined;
  }

  waitedMs(): number {
    return this.waitedBefore + (this.waiting > 0 ? performance.now() - this.waitingSince : 0);
  }

  private async waitFor(exclusive: boolean, burst: number, acquire: () => Promise<() => void>): Promise<() => void> {
    if (!this.gate.wouldWait(exclusive, this.paced, burst)) return acquire();
    if (this.waiting++ === 0) {
      this.waitingSince = performance.now();
      const measuring = this.gate.measuring;
      this.options.onWait?.(measuring !== undefined
        ? `waiting for the wire: ${measuring} measures`
        : exclusive && this.paced.dueInMs(burst) === 0
          ? 'waiting for the exchanges in flight to end, to measure alone'
          : this.paced.waitingFor());
    }
    try {
      return await acquire();
    } finally {
      if (--this.waiting === 0) {
        this.waitedBefore += performance.now() - this.waitingSince;
        this.options.onWait?.(undefined);
      }
    }
  }
}
