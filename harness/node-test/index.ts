// `collect-conformance/node-test`: the same as `collect-conformance/vitest` for Node's built-in
// runner (`node --test`): one test per selected case by side and case group, a first test for the
// shared causes, the run once in a `before` hook. A WARN passes with its finding as a diagnostic.
import { before, describe, it, type TestContext } from 'node:test';
import { registerConformance, testFailure, type DescribeConformanceOptions } from '../run/index.ts';

export { DEFAULT_RUN_TIMEOUT_MS, type ConformanceTarget, type DescribeConformanceOptions } from '../run/index.ts';

export function describeConformance(options: DescribeConformanceOptions): void {
  registerConformance<TestContext>(options, {
    describe: (name, body) => { void describe(name, body); },
    it: (name, body) => { void it(name, body); },
    before: (body, timeoutMs) => before(body, { timeout: timeoutMs }),
    hookName: 'before hook\'s',
    tell(t, test) {
      if (test.kind === 'skip') {
        t.skip(test.reason);
        return;
      }
      if (test.kind === 'fail') throw testFailure(test.message);
      for (const note of test.notes) t.diagnostic(note);
    },
  });
}
