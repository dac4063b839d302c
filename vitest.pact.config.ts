import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Pact runs apart from the main suite, one file at a time (the native core is not shared
// between parallel workers). Consumer tests (1-consumer-*) write pact files to temporary
// directories and compare them with the committed vectors/pacts/; provider tests (2-provider-*)
// verify the committed files. So no file depends on another's output; the order is still fixed
// (by file name) so that a stale pact is reported before the verifications.
class ByFileName extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  test: {
    include: ['suites/pact/**/*.test.ts'],
    fileParallelism: false,
    sequence: { sequencer: ByFileName },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['suites/support/installed.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    // A Pact stage that ran no test (all skipped, none matched) fails instead of passing with nothing verified.
    reporters: ['default', './suites/support/runs-a-test-reporter.ts'],
  },
});
