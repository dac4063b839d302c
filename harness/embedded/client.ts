// The embedded client target: the reference SDK's adapter in this process (the line protocol
// over a stream pair), driven against the harness's own service with generated credentials.
import type { ReferenceSdkFault } from '../reference-sdk/index.ts';
import { generateClientCredentials, type ResolvedClientTarget } from '../targets/index.ts';

export interface EmbeddedClientOptions {
  faults?: ReferenceSdkFault[];
  /** Default 5000: well above the reference SDK's own 1000 ms time limit. */
  answerDeadlineMs?: number;
}

export interface EmbeddedClient {
  target: ResolvedClientTarget;
  close(): Promise<void>;
}

export const EMBEDDED_CLIENT_DEFAULTS = { answerDeadlineMs: 5000 } as const;

export async function startEmbeddedClient(options: EmbeddedClientOptions = {}): Promise<EmbeddedClient> {
  const target: ResolvedClientTarget = {
    side: 'client',
    inProcess: { adapter: 'reference-sdk', faults: [...(options.faults ?? [])] },
    timing: { answerDeadlineMs: options.answerDeadlineMs ?? EMBEDDED_CLIENT_DEFAULTS.answerDeadlineMs },
    ...generateClientCredentials(),
  };
  // The adapter and the service it calls are the run's (RunResources): nothing of its own to close.
  return { target, close: async () => {} };
}
