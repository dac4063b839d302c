// DESIGN.md exit 3: "the target could not be reached at all (the first connection fails)".
// A plain TCP connection to the target's origin tells that apart from a target that answers
// badly, which is an ERROR on the affected cases instead.
import { connect } from 'node:net';
import { TargetUnreachableError } from '../tool/index.ts';
import type { ResolvedReceiverTarget, ResolvedServiceTarget } from './types.ts';

/** The URL whose origin is the target's front door (a client target has none: the harness serves). */
export function entryUrlOf(target: ResolvedReceiverTarget | ResolvedServiceTarget): string {
  return target.side === 'receiver' ? target.callbackUrl : target.baseUrl;
}

/**
 * Resolves when a TCP connection to the target opens; throws TargetUnreachableError (exit 3) otherwise. A
 * client target is reached by starting its adapter (harness/cases/client: probeClient).
 */
export async function probeTarget(target: ResolvedReceiverTarget | ResolvedServiceTarget, timeoutMs = 5000): Promise<void> {
  const url = new URL(entryUrlOf(target));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  await new Promise<void>((resolvePromise, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new TargetUnreachableError(`cannot reach ${url.origin}: no connection within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.end();
      socket.destroy();
      resolvePromise();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // A refused connection is most often nothing started there yet, or another port.
      const hint = error.code === 'ECONNREFUSED' ? ` (is the ${target.side} listening on ${url.host}?)` : '';
      reject(new TargetUnreachableError(`cannot reach ${url.origin}: ${error.code ?? error.message}${hint}`));
    });
  });
}
