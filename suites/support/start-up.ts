// Time limits for a command's answers, scaled to this machine's present start-up time. A line
// protocol's time limit counts from sending, so after a hang (the command killed) the restarted
// command's start-up falls within the next request's limit: a limit short enough not to wait long
// for a hang must still leave a loaded machine's start-up room, or a slow start looks like a hang
// (suites/signer-protocol/external-signer.test.ts calibrates its signers' limit the same way).
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** How long a Node process takes here and now from spawn to its first line of output. */
export function nodeStartUpMs(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', 'process.stdout.write("ready\\n")'], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.once('data', () => resolve(performance.now() - started));
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`node exited ${code} before writing`)));
  });
}

/**
 * A time limit for one answer of a Node command: `factor` times its start-up here and now (a
 * restart, and the answer after it, fit within it several times over), at least `floorMs`, at
 * most `ceilingMs` (a limit known to hold on a loaded machine).
 */
export async function scaledAnswerLimitMs({ floorMs, ceilingMs, factor = 4 }: { floorMs: number; ceilingMs: number; factor?: number }): Promise<number> {
  const ms = factor * await nodeStartUpMs();
  return Math.round(Math.min(ceilingMs, Math.max(floorMs, ms)));
}
