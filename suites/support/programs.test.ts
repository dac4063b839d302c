// describeNeeding and the missing-programs reporter, end to end: a child vitest runs a tiny suite
// (fixtures/programs/needs.fixture.ts) on a PATH holding only a stand-in `php`, so PHP looks
// installed and Ruby missing, as on a machine that has one and not the other. The PHP block is
// the positive control (a present program's tests run); the Ruby block must be skipped and named
// with its count and install command, or, under CI=true, fail the run naming them.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROGRAMS } from './programs.ts';

const FIXTURE = fileURLToPath(new URL('fixtures/programs/', import.meta.url));
const require = createRequire(import.meta.url);
const vitestPackage = require.resolve('vitest/package.json');
const VITEST = join(dirname(vitestPackage), (require(vitestPackage) as { bin: { vitest: string } }).bin.vitest);

interface Ran { code: number | null; output: string }

/** The fixture suite in a child vitest, with only a stand-in PHP on PATH (and CI as given). */
function runFixture(ci: boolean): Promise<Ran> {
  // Built from nothing: neither the outer run's CI nor its COLLECT_MISSING_PROGRAMS_FILE (bin/test.js) may leak in.
  const env: NodeJS.ProcessEnv = { PATH: join(FIXTURE, 'bin'), HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...(ci ? { CI: 'true' } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'run', '--config', join(FIXTURE, 'vitest.config.ts')], { cwd: FIXTURE, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const ruby = PROGRAMS.ruby;
const missingLine = `skipped 2 tests: ${ruby.title} is not installed (needed for ${ruby.neededFor}); install it: ${ruby.install}`;

describe.concurrent('a test that needs a missing program (suites/support/programs.ts)', () => {
  it('on a developer machine: skipped, the run passes, and its last line names Ruby, the 2 tests and the install command', async () => {
    const { code, output } = await runFixture(false);
    expect(code, output).toBe(0);
    // The positive control: PHP looks installed, so its block ran and passed.
    expect(output).toMatch(/Tests\s+2 passed \| 2 skipped \(4\)/);
    expect(output.trimEnd().split('\n').at(-1)).toBe(missingLine);
    expect(output).not.toMatch(/PHP is not installed/);
  }, 60_000);

  it('under CI=true: the run fails with one test naming Ruby and its install command, and its last line names Ruby again', async () => {
    const { code, output } = await runFixture(true);
    expect(code, output).toBe(1);
    expect(output).toContain(`requires ${ruby.title} under CI=true`);
    expect(output).toContain(`${ruby.title} is missing (needed for ${ruby.neededFor}): ${ruby.install}`);
    expect(output).toMatch(/Tests\s+1 failed \| 2 passed \(3\)/);
    // And the run's last line names it once more, with the install command.
    expect(output.trimEnd().split('\n').at(-1)).toBe(`failed 1 test block (CI=true): ${ruby.title} is not installed (needed for ${ruby.neededFor}); install it: ${ruby.install}`);
  }, 60_000);
});
