import { defineConfig } from 'vitest/config';

// Pact consumer tests write the pact files; provider tests verify them. In sequence, one file at a time.
export default defineConfig({
  test: {
    include: ['suites/pact/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { PACT_DO_NOT_TRACK: 'true' },
    passWithNoTests: true,
  },
});
