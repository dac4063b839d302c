// The embedded service target (owned by the service helper). Placeholder until it is written.
import type { ResolvedServiceTarget } from '../targets/index.ts';

export async function startEmbeddedService(): Promise<{ target: ResolvedServiceTarget; close(): Promise<void> }> {
  throw new Error('not built yet');
}
