// One callback listener per target, shared by the cases of a run (they run one after another,
// and a fixed listener port can be bound only once). Reference-counted: it closes shortly after
// the last case releases it, or at once through closeServiceListeners().
import { startListener, type RunningListener } from '../../listener/index.ts';
import type { ResolvedServiceTarget } from '../../targets/index.ts';

interface Entry {
  listener: Promise<RunningListener>;
  refs: number;
  idle?: NodeJS.Timeout;
}

const IDLE_CLOSE_MS = 300;
const pool = new Map<ResolvedServiceTarget, Entry>();

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

export async function acquireListener(target: ResolvedServiceTarget): Promise<{ listener: RunningListener; release(): void }> {
  let entry = pool.get(target);
  if (!entry) {
    entry = { listener: startListener(listenerOptionsOf(target)), refs: 0 };
    pool.set(target, entry);
    entry.listener.catch(() => pool.delete(target));
  }
  clearTimeout(entry.idle);
  entry.refs++;
  const current = entry;
  const listener = await current.listener;
  let released = false;
  return {
    listener,
    release() {
      if (released) return;
      released = true;
      current.refs--;
      if (current.refs > 0) return;
      current.idle = setTimeout(() => {
        if (current.refs > 0 || pool.get(target) !== current) return;
        pool.delete(target);
        void listener.close();
      }, IDLE_CLOSE_MS);
      current.idle.unref();
    },
  };
}

/** Closes the listener of one target now (its embedded service is shutting down). */
export async function closeServiceListener(target: ResolvedServiceTarget): Promise<void> {
  const entry = pool.get(target);
  if (!entry) return;
  pool.delete(target);
  clearTimeout(entry.idle);
  try {
    await (await entry.listener).close();
  } catch {
    // a listener that never started has nothing to close
  }
}

/** Closes every pooled listener now (embedded shutdown, test teardown). */
export async function closeServiceListeners(): Promise<void> {
  const entries = [...pool.values()];
  pool.clear();
  await Promise.all(entries.map(async (e) => {
    clearTimeout(e.idle);
    try {
      await (await e.listener).close();
    } catch {
      // a listener that never started has nothing to close
    }
  }));
}
