// `collect-conformance/vitest`: the conformance cases inside a team's own vitest suite. One test
// per selected case, named by its id and title, grouped by side and case group, and a first test
// for the shared causes; the run itself is the kit's own (harness/run: preflight, the wire gate
// of the measurements, shared causes), run once in a beforeAll, so the suite can start its app in
// its own beforeAll and hand over the URL (`target: async () => ({…})`). vitest is an optional
// peer dependency: only this entry point loads it.
import { beforeAll, describe, it, type TestContext } from 'vitest';
import { registerConformance, testFailure, type DescribeConformanceOptions } from '../run/index.ts';

export { DEFAULT_RUN_TIMEOUT_MS, type ConformanceTarget, type DescribeConformanceOptions } from '../run/index.ts';

/** The same option names as runConformance; the tests are listed before the run (a target given as a function lists every side's, unless `side` says). */
export function describeConformance(options: DescribeConformanceOptions): void {
  registerConformance<TestContext>(options, {
    describe,
    it,
    before: (body, timeoutMs) => beforeAll(body, timeoutMs),
    hookName: 'beforeAll',
    async tell(ctx, test) {
      if (test.kind === 'skip') ctx.skip(test.reason);
      if (test.kind === 'fail') throw testFailure(test.message);
      for (const note of test.kind === 'pass' ? test.notes : []) {
        // Printed under the test's name by every reporter (an annotation alone shows only in some).
        console.warn(note);
        await ctx.annotate(note, 'warning');
      }
    },
  });
}
