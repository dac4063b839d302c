import { defineConfig } from 'vitest/config';

// The main test run. Pact suites run afterwards in their own config (they must not run in
// parallel with each other, and the native core is single-process friendly only).
export default defineConfig({
  test: {
    include: ['suites/**/*.test.ts'],
    exclude: ['suites/pact/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
