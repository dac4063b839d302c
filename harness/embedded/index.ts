// The embedded default of `run` without --target: the reference implementations in-process.
import type { ResolvedTarget } from '../targets/index.ts';
import type { ConformanceCase } from '../cases/index.ts';
import { EMBEDDED_RECEIVER_DEFAULTS, startEmbeddedReceiver } from './receiver.ts';
import { startEmbeddedService } from './service.ts';
import { startEmbeddedClient } from './client.ts';

export { startEmbeddedReceiver, EMBEDDED_RECEIVER_DEFAULTS, type EmbeddedReceiver, type EmbeddedReceiverOptions } from './receiver.ts';
export { startEmbeddedService, EMBEDDED_SERVICE_DEFAULTS, type EmbeddedService, type EmbeddedServiceOptions } from './service.ts';
export { startEmbeddedClient, EMBEDDED_CLIENT_DEFAULTS, type EmbeddedClient, type EmbeddedClientOptions } from './client.ts';

export type EmbeddedSide = 'receiver' | 'service' | 'client' | 'all';

/** One embedded target and the cases it is there for. */
export interface EmbeddedRun {
  target: ResolvedTarget;
  /** Which of the selected cases run against this target. */
  runs(c: Pick<ConformanceCase, 'side' | 'needs'>): boolean;
}

export interface EmbeddedTargets {
  /** Receiver first (then the confirming one), then the sandbox service, then the production service, then the client. */
  runs: EmbeddedRun[];
  close(): Promise<void>;
}

const needsProduction = (c: Pick<ConformanceCase, 'needs'>) => c.needs.includes('production');
const needsConfirms = (c: Pick<ConformanceCase, 'needs'>) => c.needs.includes('confirms');

/**
 * The reference implementations in-process. The service runs twice: in sandbox mode for every
 * case but the production ones, and in production mode over https for those; the receiver runs
 * twice too: as it comes for every case but the confirm ones, and confirming its outcomes with the
 * harness's status endpoint (§6 rule 5) for those. Each case runs exactly once and none is SKIP.
 */
export async function startEmbedded(side: EmbeddedSide | readonly Exclude<EmbeddedSide, 'all'>[]): Promise<EmbeddedTargets> {
  const wanted = (s: Exclude<EmbeddedSide, 'all'>) => (typeof side === 'string' ? side === s || side === 'all' : side.includes(s));
  const started: Array<{ close(): Promise<void> }> = [];
  const runs: EmbeddedRun[] = [];
  const close = async () => {
    await Promise.allSettled(started.map((r) => r.close()));
  };
  const start = async <T extends { target: ResolvedTarget; close(): Promise<void> }>(made: Promise<T>, runsCase: EmbeddedRun['runs']) => {
    const running = await made;
    started.push(running);
    runs.push({ target: running.target, runs: runsCase });
  };
  try {
    if (wanted('receiver')) {
      await start(startEmbeddedReceiver(), (c) => c.side === 'receiver' && !needsConfirms(c));
      // Twice the deadline, so its status queries get 1 s (half of it): the harness's endpoint
      // answers them in this same process, which a run at high concurrency keeps busy (at 500 ms
      // a correct receiver gave up on its query under --concurrency 64 in the end-to-end tier).
      await start(startEmbeddedReceiver({ confirms: true, replyDeadlineMs: 2 * EMBEDDED_RECEIVER_DEFAULTS.replyDeadlineMs }), (c) => c.side === 'receiver' && needsConfirms(c));
    }
    if (wanted('service')) {
      await start(startEmbeddedService(), (c) => c.side === 'service' && !needsProduction(c));
      await start(startEmbeddedService({ mode: 'production' }), (c) => c.side === 'service' && needsProduction(c));
    }
    if (wanted('client')) await start(startEmbeddedClient(), (c) => c.side === 'client');
  } catch (error) {
    await close();
    throw error;
  }
  return { runs, close };
}
