// The embedded default of `run` without --target: the reference implementations in-process.
import type { ResolvedTarget } from '../targets/index.ts';
import { startEmbeddedReceiver } from './receiver.ts';
import { startEmbeddedService } from './service.ts';

export { startEmbeddedReceiver, EMBEDDED_RECEIVER_DEFAULTS, type EmbeddedReceiver, type EmbeddedReceiverOptions } from './receiver.ts';
export { startEmbeddedService, EMBEDDED_SERVICE_DEFAULTS, type EmbeddedService, type EmbeddedServiceOptions } from './service.ts';

export type EmbeddedSide = 'receiver' | 'service' | 'all';

export interface EmbeddedTargets {
  /** Receiver first, then service, as started. */
  targets: ResolvedTarget[];
  close(): Promise<void>;
}

export async function startEmbedded(side: EmbeddedSide): Promise<EmbeddedTargets> {
  const running: Array<{ target: ResolvedTarget; close(): Promise<void> }> = [];
  const close = async () => {
    await Promise.allSettled(running.map((r) => r.close()));
  };
  try {
    if (side === 'receiver' || side === 'all') running.push(await startEmbeddedReceiver());
    if (side === 'service' || side === 'all') running.push(await startEmbeddedService());
  } catch (error) {
    await close();
    throw error;
  }
  return { targets: running.map((r) => r.target), close };
}
