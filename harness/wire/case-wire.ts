// One case's (or the preflight's) use of the gate: its exchanges, its measurement, and how long
// it has waited at the gate, so that waiting for another case's measurement does not eat the
// case's own time limits.
import { WireGate } from './gate.ts';

/** What a client that talks to a target takes: it sends each exchange through `exchange`. */
export interface Wire {
  /**
   * Runs `send` (one exchange: from starting its time limit to the answer's last byte or its
   * failure) holding the wire shared. It waits while a measurement holds or has asked for the
   * wire, unless the measurement is this case's own; rejects when the case stops meanwhile.
   */
  exchange<T>(send: () => Promise<T>): Promise<T>;
}

/** A case's wire (CaseContext.wire): its exchanges, its measurement, its waits. */
export interface CaseWireUse extends Wire {
  /**
   * Runs `measure` with nothing else of ours on the wire: no other case's (or target's)
   * exchange is in flight while it runs; this case's own exchanges inside it pass. Put only the
   * part that measures in it: every other case's exchanges wait meanwhile.
   */
  alone<T>(measure: () => Promise<T>): Promise<T>;
  /** Milliseconds during which this case had something waiting at the gate, a wait under way included. */
  waitedMs(): number;
}

/** No gate: each exchange goes at once (a client used outside a run). */
export const OPEN_WIRE: Wire = { exchange: (send) => send() };

export class CaseWire implements CaseWireUse {
  /** This case's own measurements under way (it may nest them). */
  private holding = 0;
  private waiting = 0;
  private waitingSince = 0;
  private waitedBefore = 0;

  constructor(
    private readonly gate: WireGate,
    /** The case's id: progress lines of the cases waiting for its measurement name it. */
    private readonly holder: string,
    private readonly options: {
      /** The case's: a wait at the gate ends (rejects) when it aborts. */
      signal?: AbortSignal;
      /** Told what the case waits for when it starts waiting at the gate, then undefined when it no longer waits. */
      onWait?: (waitingFor: string | undefined) => void;
    } = {},
  ) {}

  async exchange<T>(send: () => Promise<T>): Promise<T> {
    if (this.holding > 0) return send();
    const release = await this.waitFor(false, () => this.gate.shared(this.options.signal));
    try {
      return await send();
    } finally {
      release();
    }
  }

  async alone<T>(measure: () => Promise<T>): Promise<T> {
    if (this.holding > 0) return measure();
    const release = await this.waitFor(true, () => this.gate.exclusive(this.holder, this.options.signal));
    this.holding++;
    try {
      return await measure();
    } finally {
      this.holding--;
      release();
    }
  }

  waitedMs(): number {
    return this.waitedBefore + (this.waiting > 0 ? performance.now() - this.waitingSince : 0);
  }

  private async waitFor(exclusive: boolean, acquire: () => Promise<() => void>): Promise<() => void> {
    if (!this.gate.wouldWait(exclusive)) return acquire();
    if (this.waiting++ === 0) {
      this.waitingSince = performance.now();
      const measuring = this.gate.measuring;
      this.options.onWait?.(measuring !== undefined
        ? `waiting for the wire: ${measuring} measures`
        : 'waiting for the exchanges in flight to end, to measure alone');
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
