// The embedded default of `run` without --target: the reference implementations in-process.
import type { ResolvedTarget } from '../targets/index.ts';
import { startEmbeddedReceiver } from './receiver.ts';
import { startEmbeddedService } from './service.ts';

export { startEmbeddedReceiver, EMBEDDED_RECEIVER_DEFAULTS, type EmbeddedReceiver, type EmbeddedReceiverOptions } from './receiver.ts';
export { startEmbeddedService } from './service.ts';

export type EmbeddedSide = 'receiver' | 'service' | 'all';

export interface EmbeddedTargets {
  /** Receiver first, then service, as started. */
  targets: ResolvedTarget[];
  /** Things the user should know (e.g. a side that could not start); for stderr. */
  warnings: string[];
  close(): Promise<void>;
}

export async function startEmbedded(side: EmbeddedSide): Promise<EmbeddedTargets> {
  const running: Array<{ target: ResolvedTarget; close(): Promise<void> }> = [];
  const warnings: string[] = [];
  const close = async () => {
    await Promise.allSettled(running.map((r) => r.close()));
  };
  try {
    if (side === 'receiver' || side === 'all') running.push(await startEmbeddedReceiver());
    if (side === 'service' || side === 'all') {
      try {
        running.push(await startEmbeddedService());
      } catch (error) {
        // Until the reference service and its cases exist, `all` runs the receiver side.
        if (side === 'all' && error instanceof Error && error.message === 'not built yet') {
          warnings.push('the embedded reference service is not built yet: running the receiver side only');
        } else {
          throw error;
        }
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { targets: running.map((r) => r.target), warnings, close };
}
