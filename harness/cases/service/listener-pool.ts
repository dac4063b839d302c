// One callback listener per service target, shared by the cases of a run (they run at once, and
// a fixed listener port can be bound only once): part of the run's RunResources, opened on the
// first case that needs it and closed with the run.
import { startListener, type RunningListener } from '../../listener/index.ts';
import type { ResolvedServiceTarget } from '../../targets/index.ts';

/** The plain-http listener is opened in production mode (§6 Transport: nothing may arrive there). */
export function listenerOptionsOf(target: ResolvedServiceTarget): Parameters<typeof startListener>[0] {
  const l = target.listener;
  return {
    host: l.host,
    port: l.port,
    publicUrl: l.publicUrl,
    tls: l.tls,
    plain: target.mode === 'production' || (l.plainPublicUrl ?? null) !== null,
    plainPublicUrl: l.plainPublicUrl ?? null,
  };
}

export class ServiceListeners {
  private readonly listeners = new Map<ResolvedServiceTarget, Promise<RunningListener>>();

  /** The target's listener, opened on first use (a listener that could not open is tried again next time). */
  of(target: ResolvedServiceTarget): Promise<RunningListener> {
    let listener = this.listeners.get(target);
    if (!listener) {
      listener = startListener(listenerOptionsOf(target));
      this.listeners.set(target, listener);
      listener.catch(() => this.listeners.delete(target));
    }
    return listener;
  }

  /** Closes every listener (the end of the run). */
  async close(): Promise<void> {
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    await Promise.all(listeners.map(async (l) => {
      try {
        await (await l).close();
      } catch {
        // a listener that never started has nothing to close
      }
    }));
  }
}
