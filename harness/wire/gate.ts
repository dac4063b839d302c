// Our exchanges with a target, and the measurements that need the wire to themselves (DESIGN.md:
// the cases that measure time or load run alone). A readers–writer gate: every exchange holds it
// shared while it is on the wire; a measurement holds it exclusively, starting once the
// exchanges already in flight end, while exchanges asked for meanwhile wait until it is done.
// Strictly first come, first served: an exchange asked for after a measurement waits behind it,
// so a measurement is never starved, and one asked for before the next measurement goes first.
// An exchange to a paced target (pace.ts) also waits for its target's turn: it is let on the wire
// only when that pace is due; an exchange to another target behind it need not wait for that
// turn, but none passes a measurement asked for before it. Among a target's waiting exchanges the
// turn goes to the case furthest along (the most exchanges already made; ties first come, first
// served): a case's next step does not queue behind the first requests of every other case, so a
// paced run ends about when its longest case would.
import type { Pace } from './pace.ts';

interface Waiter {
  /** The measurement's name; undefined for an exchange. */
  measures?: string;
  /** Its target's pace: an exchange goes, a measurement starts, only when it is due. */
  pace?: Pace;
  /** A measurement's requests sent at once (Pace.tryStart). */
  burst?: number;
  /** Who goes first at its pace's turn: higher first (the exchanges its case already made). */
  rank: number;
  grant: () => void;
  /** Removes an abandoned waiter (its signal aborted). */
  drop?: () => void;
}

/** Why a wait at the gate ended without the wire: the signal's reason, or this. */
export class WireWaitAborted extends Error {
  override readonly name = 'WireWaitAborted';
  readonly code = 'ERR_WIRE_WAIT_ABORTED';
  constructor(message = 'stopped while waiting for the wire') {
    super(message);
  }
}

export interface SharedOptions {
  /** The target's pace (default: unpaced). */
  pace?: Pace;
  /** How many exchanges the case made already: its turn comes before cases with fewer (default 0). */
  rank?: number;
  /** Before every other exchange of its pace (the one retry of an exchange answered 429, which has waited already). */
  first?: boolean;
}

export class WireGate {
  private exchanges = 0;
  private holder: string | undefined;
  private readonly queue: Waiter[] = [];
  /** Wakes the queue when the first pace it waits for is due. */
  private timer: NodeJS.Timeout | undefined;

  /** The measurement on the wire, else the first one waiting for it (progress lines name it). */
  get measuring(): string | undefined {
    return this.holder ?? this.queue.find((w) => w.measures !== undefined)?.measures;
  }

  /** Whether an exchange (or a measurement, `exclusive`) of a target with `pace` asked for now would wait. */
  wouldWait(exclusive: boolean, pace?: Pace, burst = 1): boolean {
    return this.holder !== undefined || this.queue.length > 0 || (exclusive && this.exchanges > 0) || (pace !== undefined && pace.dueInMs(burst) > 0);
  }

  /** Resolves with the release once the exchange may go on the wire (its pace's turn taken). */
  shared(signal?: AbortSignal, options: SharedOptions = {}): Promise<() => void> {
    const rank = options.first ? Number.POSITIVE_INFINITY : options.rank ?? 0;
    return this.wait({ rank, ...(options.pace ? { pace: options.pace } : {}) }, signal, () => {
      this.exchanges++;
      return () => {
        this.exchanges--;
        this.pump();
      };
    });
  }

  /**
   * Resolves with the release once `measures` has the wire to itself and its target's pace is
   * due; the measurement's own requests then go at once and are charged to the pace one by one.
   */
  exclusive(measures: string, signal?: AbortSignal, pace?: Pace, burst = 1): Promise<() => void> {
    return this.wait({ measures, rank: 0, burst, ...(pace ? { pace } : {}) }, signal, () => {
      this.holder = measures;
      return () => {
        this.holder = undefined;
        this.pump();
      };
    });
  }

  private wait(kind: { measures?: string; pace?: Pace; burst?: number; rank: number }, signal: AbortSignal | undefined, take: () => () => void): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = () => {
        waiter.drop?.();
        reject(abortReason(signal!));
      };
      const waiter: Waiter = {
        ...kind,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          let released = false;
          const release = take();
          resolve(() => {
            if (released) return;
            released = true;
            release();
          });
        },
        drop: () => {
          const at = this.queue.indexOf(waiter);
          if (at >= 0) this.queue.splice(at, 1);
          // A measurement that gave up may have been holding exchanges back.
          this.pump();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  private pump(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    // Paces found not due: the earliest of them wakes the queue again (a measurement's when its burst is due).
    const notDue = new Set<Pace>();
    let measurementDueInMs = Number.POSITIVE_INFINITY;
    while (this.holder === undefined) {
      const head = this.queue[0];
      if (!head) break;
      if (head.measures !== undefined) {
        // A measurement starts at the head (nothing asked for before it still waits), with nothing in flight, at its turn.
        if (this.exchanges > 0) break;
        if (head.pace && !head.pace.tryStart(head.burst)) {
          measurementDueInMs = head.pace.dueInMs(head.burst);
          break;
        }
        this.queue.shift();
        head.grant();
        break;
      }
      const next = this.nextExchange(notDue);
      if (!next) break;
      this.queue.splice(this.queue.indexOf(next), 1);
      next.grant();
    }
    if ((notDue.size > 0 || measurementDueInMs < Number.POSITIVE_INFINITY) && this.holder === undefined) {
      const dueInMs = Math.min(measurementDueInMs, ...[...notDue].map((p) => p.dueInMs()));
      this.timer = setTimeout(() => this.pump(), Math.max(1, Math.ceil(dueInMs)));
    }
  }

  /**
   * The exchange that may go now, among those asked for before the first measurement waiting:
   * an unpaced one, or the best-ranked of a pace whose turn it is (the turn is taken). Paces not
   * due are added to `notDue`.
   */
  private nextExchange(notDue: Set<Pace>): Waiter | undefined {
    const end = this.queue.findIndex((w) => w.measures !== undefined);
    const before = end < 0 ? this.queue : this.queue.slice(0, end);
    for (const waiter of before) {
      const pace = waiter.pace;
      if (!pace) return waiter;
      if (notDue.has(pace)) continue;
      const best = before.reduce((a, b) => (b.pace === pace && b.rank > a.rank ? b : a), waiter);
      if (pace.tryTake()) return best;
      notDue.add(pace);
    }
    return undefined;
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new WireWaitAborted();
}
