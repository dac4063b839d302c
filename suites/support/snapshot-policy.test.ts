// A missing snapshot fails under CI=true and is written elsewhere (snapshot-policy.ts), end to end:
// a child vitest, configured as the suites are, runs one test whose file snapshot does not exist
// yet, in a scratch directory, once with CI=true and once without.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { snapshotUpdate } from './snapshot-policy.ts';

const require = createRequire(import.meta.url);
const vitestPackage = require.resolve('vitest/package.json');
const VITEST = join(dirname(vitestPackage), (require(vitestPackage) as { bin: { vitest: string } }).bin.vitest);
const POLICY = pathToFileURL(join(import.meta.dirname, 'snapshot-policy.ts')).href;

interface Ran { code: number | null; output: string; written: boolean }

/** One test whose file snapshot is missing, run by a child vitest with the suites' policy (and CI as given). */
async function runWithMissingSnapshot(ci: boolean): Promise<Ran> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-snapshot-'));
  try {
    writeFileSync(join(dir, 'vitest.config.mjs'), `import { snapshotUpdate } from ${JSON.stringify(POLICY)};\nexport default { test: { include: ['*.test.mjs'], update: snapshotUpdate(process.env) } };\n`);
    writeFileSync(join(dir, 'missing.test.mjs'), `import { expect, it } from 'vitest';\nit('matches its file snapshot', async () => { await expect('the report').toMatchFileSnapshot('__snapshots__/report.txt'); });\n`);
    // Built from nothing: the outer run's CI must not leak in.
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', NO_COLOR: '1', ...(ci ? { CI: 'true' } : {}) };
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [VITEST, 'run', '--config', join(dir, 'vitest.config.mjs')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => { text += d.toString(); });
      child.stderr.on('data', (d: Buffer) => { text += d.toString(); });
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, output: text }));
    });
    const file = join(dir, '__snapshots__', 'report.txt');
    return { code, output, written: existsSync(file) && readFileSync(file, 'utf8') === 'the report' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('snapshotUpdate: the suites\' rule for a missing snapshot', () => {
  it('is "none" under CI, "new" elsewhere', () => {
    expect(['true', '1', 'yes'].map((CI) => snapshotUpdate({ CI }))).toEqual(['none', 'none', 'none']);
    expect([undefined, '', 'false', '0'].map((CI) => snapshotUpdate(CI === undefined ? {} : { CI }))).toEqual(['new', 'new', 'new', 'new']);
  });
});

describe.concurrent('a missing snapshot, in a child vitest configured as the suites are', () => {
  it('under CI=true: the run fails and nothing is written', async () => {
    const { code, output, written } = await runWithMissingSnapshot(true);
    expect(code, output).toBe(1);
    expect(output).toMatch(/Error: Snapshot `matches its file snapshot 1` mismatched/);
    expect(output).toMatch(/Snapshots\s+1 failed/);
    expect(written).toBe(false);
  }, 60_000);
  it('on a developer machine: the snapshot is written and the run passes (the positive control)', async () => {
    const { code, output, written } = await runWithMissingSnapshot(false);
    expect(code, output).toBe(0);
    expect(written).toBe(true);
  }, 60_000);
});
