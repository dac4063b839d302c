import { defineConfig } from 'vitest/config';
import { snapshotUpdate } from './suites/support/snapshot-policy.ts';

// The main test run. Pact suites run afterwards in their own config (they must not run in
// parallel with each other, and the native core is single-process friendly only).
export default defineConfig({
  test: {
    include: ['suites/**/*.test.ts'],
    exclude: ['suites/pact/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The package as installed (.installed/, bin/lay-out.js), for the tests that run the command in a child process.
    globalSetup: ['suites/support/installed.ts'],
    // Most of a test file's time is waiting (timers, child processes, loopback servers), so more
    // files than cores run at once; vitest's default is one worker per core less one (1 on 2 cores).
    maxWorkers: 3,
    // Files share a worker one after another instead of each starting a fresh one (about a
    // second of CPU per file: Node, vitest and the harness's modules). Safe because no test file
    // leaves global state behind (environment and stdout spies are restored in finally).
    isolate: false,
    env: { PACT_DO_NOT_TRACK: 'true' },
    // A missing snapshot is written on a developer's machine and fails under CI (suites/support/snapshot-policy.ts).
    update: snapshotUpdate(process.env),
    // Tests skipped for a missing program (suites/support/programs.ts) are named at the end.
    // The failed tests are listed again at the very end (bin/test.js), for a CI log's tail.
    reporters: ['default', './suites/support/missing-programs-reporter.ts', './suites/support/failed-tests-reporter.ts'],
  },
});
