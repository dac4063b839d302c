// A vitest reporter for a stage that must prove something: the run fails when no test ran (every
// file skipped, every test skipped, or no file matched), instead of passing with nothing checked.
// The Pact stage (vitest.pact.config.ts, run by bin/test.js beside the main suites) uses it.
import type { Reporter, TestModule } from 'vitest/node';

/** How many tests ran to a verdict (passed or failed; skipped and todo tests did not run). */
export function testsRun(modules: readonly TestModule[]): number {
  let ran = 0;
  for (const m of modules) {
    for (const t of m.children.allTests()) {
      const state = t.result().state;
      if (state === 'passed' || state === 'failed') ran += 1;
    }
  }
  return ran;
}

export default class RunsATestReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    if (testsRun(modules) > 0) return;
    process.stderr.write('\nthis stage ran no test (every file or test skipped, or none matched): it proves nothing, so the run fails\n');
    process.exitCode = 1;
  }
}
