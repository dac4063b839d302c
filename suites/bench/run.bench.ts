// A whole run per side (issue 11): at time scale 1, with the example target file's own timings,
// against the reference implementations started standalone (`simulate`, `receiver`), the wall
// time of the run divided by its longest case. A third row (issue 23): the receiver keeping its
// records in PostgreSQL (a throwaway server, examples/observe/throwaway-database.mjs) and
// observed through it (examples/observe/supabase-payments), so seeding and reading by SQL
// statements are measured too. Goal ≤ 1.5 each side: the cases wait side by
// side, so a run takes about as long as its longest case. Two figures: the whole command (Node's
// start-up included) and the run itself (report startedAt → finishedAt). The command is the
// compiled one, laid out as installed (bin/lay-out.js), as a user runs it (the checkout's bin
// runs the same copy after a freshness check of a few ms).
// A benchmark, not a test: it prints, it does not assert.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { postgresBin, startThrowawayDatabase } from '../../examples/observe/throwaway-database.mjs';
import layOutInstalled, { INSTALLED } from '../support/installed.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(INSTALLED, 'bin/collect-conformance.js');
export const RUN_RATIO_TARGET = 1.5;
const ENV = {
  ...process.env,
  COLLECT_CLIENT_KEY: 'bench-client-key', COLLECT_SECRET_KEY: 'bench-secret-key', COLLECT_CALLBACK_TOKEN: 'bench-callback-token', NO_COLOR: '1',
};

/** Starts `simulate` or `receiver` on a free port; resolves with its origin once it listens. */
async function startReference(command: 'simulate' | 'receiver', args: string[] = [], env: Record<string, string> = {}): Promise<{ origin: string; stop(): void }> {
  // Its request log (stderr) is not the benchmark's output.
  const child = spawn(process.execPath, [BIN, command, '--port', '0', ...args], { env: { ...ENV, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const url = /listening on (\S+)/.exec(line)?.[1];
    if (!url) continue;
    lines.close();
    child.stdout!.resume();
    return { origin: new URL(url).origin, stop: () => child.kill('SIGTERM') };
  }
  throw new Error(`${command} ended before it listened`);
}

async function timeRun(targetFile: string, reportDir: string, env: Record<string, string> = {}): Promise<number> {
  const start = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    spawn(process.execPath, [BIN, 'run', '--target', targetFile, '--report-dir', reportDir, '--seed', '11'], { env: { ...ENV, ...env }, stdio: 'ignore' })
      .on('close', resolve);
  });
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`run --target ${targetFile} exited ${code}; see ${reportDir}`);
  return ms;
}

/** One run of `text` (a target file): its wall time and its ratio to its longest case, printed. */
async function measure(side: string, folder: string, name: string, text: string, env: Record<string, string>): Promise<void> {
  const targetFile = join(folder, name);
  writeFileSync(targetFile, text);
  const reportDir = join(folder, name.replace(/\.json$/, ''));
  const wallMs = await timeRun(targetFile, reportDir, env);
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as {
    startedAt: string; finishedAt: string; cases: Array<{ id: string; durationMs: number }>;
  };
  const longest = report.cases.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
  const inRunMs = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  const whole = wallMs / longest.durationMs;
  const inRun = inRunMs / longest.durationMs;
  process.stdout.write(`${side} (${report.cases.length} cases, example timings, time scale 1): whole command ${Math.round(wallMs)} ms, the run ${inRunMs} ms, longest case ${longest.durationMs} ms (${longest.id})\n`);
  process.stdout.write(`  ratio ${whole.toFixed(2)} whole command, ${inRun.toFixed(2)} the run (target ≤ ${RUN_RATIO_TARGET}) ${whole <= RUN_RATIO_TARGET ? 'met' : inRun <= RUN_RATIO_TARGET ? 'met by the run, NOT by the whole command' : 'NOT met'}\n`);
}

export async function benchRun(): Promise<void> {
  await layOutInstalled();
  const folder = mkdtempSync(join(tmpdir(), 'collect-conformance-run-bench-'));
  try {
    for (const [side, command, example, origin] of [
      ['service', 'simulate', 'service-sandbox.json', 'http://127.0.0.1:9000'],
      ['receiver', 'receiver', 'receiver.json', 'http://127.0.0.1:8081'],
    ] as const) {
      const reference = await startReference(command);
      try {
        const text = readFileSync(join(REPO_ROOT, 'harness/targets/examples', example), 'utf8').replaceAll(origin, reference.origin);
        await measure(side, folder, example, text, {});
      } finally {
        reference.stop();
      }
    }
    if (!postgresBin()) {
      process.stdout.write('receiver observed through PostgreSQL: not measured, PostgreSQL is not installed (apt-get install -y postgresql)\n');
      return;
    }
    const database = await startThrowawayDatabase('postgresql');
    const env = { RECEIVER_DATABASE_URL: database.url };
    const reference = await startReference('receiver', ['--config', join(REPO_ROOT, 'examples/observe/reference-receiver.json')], env);
    try {
      const text = readFileSync(join(REPO_ROOT, 'examples/observe/supabase-payments/target.json'), 'utf8').replaceAll('http://127.0.0.1:8081', reference.origin);
      await measure('receiver observed through PostgreSQL', folder, 'observe-postgres.json', text, env);
    } finally {
      reference.stop();
      await database.stop();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
