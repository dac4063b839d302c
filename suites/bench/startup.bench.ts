// Start-up of the installed command (issue 12): `collect-conformance --help` against bare
// `node -e 0`, both run the same number of times in the same run, medians compared.
// Target: ratio ≤ 3. A benchmark, not a test: it prints, it does not assert.
// It measures the compiled command as installed: dist/ is built first (`npm run build`), and the
// command's own bin file runs from a temporary folder beside a link to dist/ (no harness/
// sources beside it, so it takes the installed path, not the checkout's tsx path).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = 21;
export const HELP_RATIO_TARGET = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeRun(args: readonly string[]): number {
  const start = performance.now();
  const ran = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - start;
  if (ran.status !== 0) throw new Error(`node ${args.join(' ')} exited ${ran.status}: ${ran.stderr.toString()}`);
  return ms;
}

export async function benchStartup(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const folder = mkdtempSync(join(tmpdir(), 'collect-conformance-startup-'));
  try {
    mkdirSync(join(folder, 'bin'));
    copyFileSync(join(REPO_ROOT, 'bin/collect-conformance.js'), join(folder, 'bin/collect-conformance.js'));
    symlinkSync(join(REPO_ROOT, 'dist'), join(folder, 'dist'));
    const bin = join(folder, 'bin/collect-conformance.js');
    const bare: number[] = [];
    const help: number[] = [];
    timeRun([bin, '--help']); // warm the file cache
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, so a change of load hits both sides alike.
      bare.push(timeRun(['-e', '0']));
      help.push(timeRun([bin, '--help']));
    }
    const ratio = median(help) / median(bare);
    process.stdout.write(`node -e 0:                   median ${median(bare).toFixed(1)} ms over ${RUNS} runs\n`);
    process.stdout.write(`collect-conformance --help:  median ${median(help).toFixed(1)} ms over ${RUNS} runs\n`);
    process.stdout.write(`ratio ${ratio.toFixed(2)} (target ≤ ${HELP_RATIO_TARGET}) ${ratio <= HELP_RATIO_TARGET ? 'met' : 'NOT met'}\n`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
