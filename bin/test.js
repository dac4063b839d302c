#!/usr/bin/env node
// `npm test`: the type check and the main suites, side by side. `npm run test:e2e` (this with
// `e2e`): the end-to-end suites (suites/support/tiers.ts), then the Pact suites. The vitest run
// prints as it goes; the other step is printed once it ends (whole if it failed, its closing
// lines if not), so no two outputs interleave; then the failed tests again and the programs this
// machine lacks, last, where a CI log's tail shows them. Exit status 1 if either step failed.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const vitestPackage = require.resolve('vitest/package.json');
const vitest = join(dirname(vitestPackage), require(vitestPackage).bin.vitest);

/**
 * Runs a step with its output kept for later; resolves with its exit status, output and time.
 * `background`: at the lowest CPU priority, so it takes the cores only while the suites wait
 * (the type check beside the suites: they are wait-bound in places, CPU-bound in others).
 */
function quietly(args, { background = false } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    if (background && child.pid !== undefined) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // Not allowed here: it runs at the same priority, only slower for the suites.
      }
    }
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('close', (code, signal) => resolve({ code: code ?? 1, signal, output, seconds: (performance.now() - started) / 1000 }));
  });
}

function live(args) {
  return new Promise((resolve) => {
    spawn(process.execPath, args, { cwd: root, stdio: 'inherit' }).on('close', (code) => resolve(code ?? 1));
  });
}

const e2e = process.argv[2] === 'e2e';
if (process.argv[2] !== undefined && !e2e) {
  process.stderr.write(`bin/test.js: unknown tier ${JSON.stringify(process.argv[2])}: give nothing (npm test) or e2e (npm run test:e2e)\n`);
  process.exit(2);
}
// npm test: the type check (one core, mostly) beside the vitest run. npm run test:e2e: the Pact
// suites after it, since its first group's verdicts rest on scaled timing that a busy core blurs.
const typecheck = e2e ? undefined : quietly([tsc, '--noEmit', '-p', 'tsconfig.json'], { background: true });
const steps = e2e
  ? [['Pact suites (vitest run --config vitest.pact.config.ts)', () => quietly([vitest, 'run', '--config', 'vitest.pact.config.ts'])]]
  : [['type check (tsc --noEmit -p tsconfig.json)', () => typecheck]];
// The main suites name the programs whose tests they skipped (suites/support/programs.ts); said last.
const scratch = mkdtempSync(join(tmpdir(), 'collect-test-'));
const missingFile = join(scratch, 'missing-programs.json');
process.env.COLLECT_MISSING_PROGRAMS_FILE = missingFile;
const failedFile = join(scratch, 'failed-tests.json');
process.env.COLLECT_FAILED_TESTS_FILE = failedFile;
const main = await live([vitest, 'run', ...(e2e ? ['--config', 'vitest.e2e.config.ts'] : [])]);

let failed = main !== 0;
for (const [name, step] of steps) {
  const { code, signal, output, seconds } = await step();
  const verdict = code === 0 ? 'passed' : signal ? `killed by ${signal}` : `FAILED (exit ${code})`;
  // A step that passed shows its closing lines only (the Pact suites' bite tests print failed verifications on purpose).
  const shown = code === 0 ? output.trimEnd().split('\n').slice(-6).join('\n') : output.trimEnd();
  process.stdout.write(`\n── ${name}: ${verdict} in ${seconds.toFixed(1)} s\n${shown}\n`);
  if (code !== 0) failed = true;
}
const missing = existsSync(missingFile) ? JSON.parse(readFileSync(missingFile, 'utf8')) : [];
const failedTests = existsSync(failedFile) ? JSON.parse(readFileSync(failedFile, 'utf8')) : [];
rmSync(scratch, { recursive: true, force: true });
if (failedTests.length > 0) process.stdout.write(`\nFailed in the ${e2e ? 'end-to-end' : 'main'} suites:\n${failedTests.map((l) => `  ${l}`).join('\n')}\n`);
if (missing.length > 0) process.stdout.write(`\nPrograms this machine lacks (CI=true requires them):\n${missing.map((l) => `  ${l}`).join('\n')}\n`);
process.stdout.write(`\n${e2e ? 'npm run test:e2e' : 'npm test'}: ${failed ? 'FAILED' : 'passed'}${missing.length > 0 ? `, ${missing.length} program(s) missing` : ''}\n`);
process.exitCode = failed ? 1 : 0;
