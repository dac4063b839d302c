import { defineConfig } from 'vitest/config';
import { snapshotUpdate } from './suites/support/snapshot-policy.ts';
import { E2E_FILES } from './suites/support/tiers.ts';
import DurationSequencer from './suites/support/sequencer.ts';

// `npm test`'s suites: all but the end-to-end ones (suites/support/tiers.ts, vitest.e2e.config.ts)
// and the Pact suites, which run in their own config (one file at a time, the native core is
// single-process friendly only) beside the end-to-end ones in `npm run test:e2e`.
export default defineConfig({
  test: {
    include: ['suites/**/*.test.ts'],
    exclude: ['suites/pact/**', 'node_modules/**', ...E2E_FILES],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The package as installed (.installed/, bin/lay-out.js), for the tests that run the command in a child process.
    globalSetup: ['suites/support/installed.ts'],
    // Most of a test file's time is waiting (timers, child processes, loopback servers), so more
    // files than cores run at once; vitest's default is one worker per core less one (1 on 2 cores).
    // Measured on 2 cores, fresh clones of the same tree (issue 40's second round, its timed tests
    // made to hold at load 15 to 25): 4 workers 127 s (CPU 154 %, wait-bound); 5 workers 104 s
    // (CPU 165 %); 6 workers 129 s (CPU 178 %, CPU-bound: each worker loads the harness, import
    // 102 s summed, and a back-off test failed). Then the files that spawn the command, child
    // vitest runs or other runners moved to the end-to-end tier, and the type check to the
    // lowest priority: 5 workers 81 to 87 s (the whole command). The end-to-end tier keeps 3: its files keep the
    // cores busy, package installs and database servers.
    maxWorkers: 5,
    // Files share a worker one after another instead of each starting a fresh one (about a
    // second of CPU per file: Node, vitest and the harness's modules). Safe because no test file
    // leaves global state behind (environment and stdout spies are restored in finally).
    isolate: false,
    // The longest files first, on a fresh clone too (suites/support/sequencer.ts): with four
    // workers, a long file started late is the run's tail.
    sequence: { sequencer: DurationSequencer },
    env: { PACT_DO_NOT_TRACK: 'true' },
    // A missing snapshot is written on a developer's machine and fails under CI (suites/support/snapshot-policy.ts).
    update: snapshotUpdate(process.env),
    // Tests skipped for a missing program (suites/support/programs.ts) are named at the end.
    // The failed tests are listed again at the very end (bin/test.js), for a CI log's tail.
    reporters: ['default', './suites/support/missing-programs-reporter.ts', './suites/support/failed-tests-reporter.ts'],
  },
});
