// The Pact stage fails when it runs no test (runs-a-test-reporter.ts), end to end: a child vitest
// with the reporter runs a file whose only test is skipped (fails), a file with one passing test
// (passes: the positive control), and no file at all (fails); and the Pact config uses it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import pactConfig from '../../vitest.pact.config.ts';

const require = createRequire(import.meta.url);
const vitestPackage = require.resolve('vitest/package.json');
const VITEST = join(dirname(vitestPackage), (require(vitestPackage) as { bin: { vitest: string } }).bin.vitest);
const REPORTER = pathToFileURL(join(import.meta.dirname, 'runs-a-test-reporter.ts')).href;

/** A child vitest with the reporter over `test` (a file body), or over no file at all. */
async function runStage(test: string | undefined): Promise<{ code: number | null; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-stage-'));
  try {
    writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['*.test.mjs'], passWithNoTests: true, reporters: ['default', ${JSON.stringify(REPORTER)}] } };\n`);
    if (test !== undefined) writeFileSync(join(dir, 'stage.test.mjs'), `import { it } from 'vitest';\n${test}\n`);
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', NO_COLOR: '1' };
    return await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [VITEST, 'run', '--config', join(dir, 'vitest.config.mjs')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
      child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const NO_TEST = 'this stage ran no test';

describe('the Pact stage', () => {
  it('reports through runs-a-test-reporter, and does not pass with no test', () => {
    expect(pactConfig.test?.reporters).toContain('./suites/support/runs-a-test-reporter.ts');
    expect(pactConfig.test?.passWithNoTests).not.toBe(true);
  });
});

describe.concurrent('a stage with runs-a-test-reporter, in a child vitest', () => {
  it('fails when its only test is skipped', async () => {
    const { code, output } = await runStage(`it.skip('verifies a pact', () => {});`);
    expect(code, output).toBe(1);
    expect(output).toContain(NO_TEST);
  }, 60_000);
  it('fails when no file matches', async () => {
    const { code, output } = await runStage(undefined);
    expect(code, output).toBe(1);
    expect(output).toContain(NO_TEST);
  }, 60_000);
  it('passes when a test ran and passed (the positive control)', async () => {
    const { code, output } = await runStage(`it('verifies a pact', () => {});`);
    expect(code, output).toBe(0);
    expect(output).not.toContain(NO_TEST);
  }, 60_000);
});
