// vitest globalSetup of the end-to-end tier: Artillery and Node 22 installed into their cache
// folder before any suite starts (artillery-install.ts). The first install takes minutes of CPU
// and disk; done while the timed suites run, it starved their scaled timing. When it cannot be
// installed, artillery.test.ts says why (skipped, or failing under CI=true).
import { ARTILLERY_CACHE, ensureArtillery } from './artillery-install.ts';

export default async function setup(): Promise<void> {
  // The root config and each of its projects run the global setups: once is enough.
  if (process.env.COLLECT_ARTILLERY_SETUP_DONE) return;
  process.env.COLLECT_ARTILLERY_SETUP_DONE = '1';
  process.stdout.write(`Artillery: in ${ARTILLERY_CACHE}, installed there first if missing (minutes the first time)\n`);
  const started = performance.now();
  const install = await ensureArtillery();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  process.stdout.write('missing' in install ? `Artillery: not installed (${install.missing})\n` : `Artillery: ready in ${ARTILLERY_CACHE} (${seconds} s)\n`);
}
