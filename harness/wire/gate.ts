// Our exchanges with a target, and the measurements that need the wire to themselves (DESIGN.md:
// the cases that measure time or load run alone). A readers–writer gate: every exchange holds it
// shared while it is on the wire; a measurement holds it exclusively, starting once the
// exchanges already in flight end, while exchanges asked for meanwhile wait until it is done.
// Strictly first come, first served: an exchange asked for after a measurement waits behind it,
// so a measurement is never starved, and one asked for before the next measurement goes first.

interface Waiter {
  /** The measurement's name; undefined for an exchange. */
  measures?: string;
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

export class WireGate {
  private exchanges = 0;
  private holder: string | undefined;
  private readonly queue: Waiter[] = [];

  /** The measurement on the wire, else the first one waiting for it (progress lines name it). */
  get measuring(): string | undefined {
    return this.holder ?? this.queue.find((w) => w.measures !== undefined)?.measures;
  }

  /** Whether an exchange (or a measurement, `exclusive`) asked for now would wait. */
  wouldWait(exclusive: boolean): boolean {
    return this.holder !== undefined || this.queue.length > 0 || (exclusive && this.exchanges > 0);
  }

  /** Resolves with the release once the exchange may go on the wire. */
  shared(signal?: AbortSignal): Promise<() => void> {
    return this.wait({}, signal, () => {
      this.exchanges++;
      return () => {
        this.exchanges--;
        this.pump();
      };
    });
  }

  /** Resolves with the release once `measures` has the wire to itself. */
  exclusive(measures: string, signal?: AbortSignal): Promise<() => void> {
    return this.wait({ measures }, signal, () => {
      this.holder = measures;
      return () => {
        this.holder = undefined;
        this.pump();
      };
    });
  }

  private wait(kind: { measures?: string }, signal: AbortSignal | undefined, take: () => () => void): Promise<() => void> {
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
    for (;;) {
      const head = this.queue[0];
      if (!head || this.holder !== undefined) return;
      if (head.measures !== undefined && this.exchanges > 0) return;
      this.queue.shift();
      head.grant();
    }
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new WireWaitAborted();
}
