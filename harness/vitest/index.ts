// `collect-conformance/vitest`: the conformance cases inside a team's own vitest suite. One test
// per selected case, named by its id and title, grouped by side and case group, and a first test
// for the shared causes; the run itself is the kit's own (harness/run: preflight, the wire gate
// of the measurements, shared causes), run once in a beforeAll, so the suite can start its app in
// its own beforeAll and hand over the URL (`target: async () => ({…})`). vitest is an optional
// peer dependency: only this entry point loads it.
import { beforeAll, describe, it, type TestContext } from 'vitest';
import {
  caseTest, plannedCases, runConformance, sharedCausesTest, SHARED_CAUSES_TEST, testFailure, testName, testPlan,
  type CaseTest, type RunConformanceOptions, type TargetDescription,
} from '../run/index.ts';
import type { RunReport } from '../results/index.ts';

/** A target file's path, or the target as a file would hold it (secrets as `{"env": …}`). */
export type ConformanceTarget = string | TargetDescription;

export interface DescribeConformanceOptions extends Omit<RunConformanceOptions, 'target' | 'stop'> {
  /**
   * The target; or a function returning it, called when the run starts (after the suite's own
   * beforeAll hooks, so it may hand over the URL of an app started there). Absent: the embedded
   * reference implementations of `side`.
   */
  target?: ConformanceTarget | (() => ConformanceTarget | Promise<ConformanceTarget>);
  /** The describe block's title (default "collect-conformance"). */
  title?: string;
  /** How long the run may take, in ms (default 600000: a service run waits for callbacks and retries). */
  timeoutMs?: number;
}

/** A run of a receiver takes seconds, of a sandbox service up to a few minutes (callbacks, retries, a pace). */
export const DEFAULT_RUN_TIMEOUT_MS = 600_000;

/** The same option names as runConformance; the tests are listed before the run (a target given as a function lists every side's, unless `side` says). */
export function describeConformance(options: DescribeConformanceOptions): void {
  const planned = plannedCases(options);
  describe(options.title ?? 'collect-conformance', () => {
    let report: RunReport | undefined;
    beforeAll(async () => {
      const { target: given, title: _title, timeoutMs: _timeoutMs, ...run } = options;
      const target = typeof given === 'function' ? await given() : given;
      report = await runConformance({ ...run, ...(target !== undefined ? { target } : {}) });
    }, options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS);

    const tell = async (ctx: TestContext, test: CaseTest): Promise<void> => {
      if (test.kind === 'skip') ctx.skip(test.reason);
      if (test.kind === 'fail') throw testFailure(test.message);
      for (const note of test.kind === 'pass' ? test.notes : []) {
        // Printed under the test's name by every reporter (an annotation alone shows only in some).
        console.warn(note);
        await ctx.annotate(note, 'warning');
      }
    };
    const ran = (): RunReport => {
      // beforeAll failed: vitest reports its error once; a test that still runs says so.
      if (!report) throw testFailure('the conformance run did not finish (see the beforeAll error above)');
      return report;
    };
    it(SHARED_CAUSES_TEST, (ctx) => tell(ctx, sharedCausesTest(ran())));
    for (const side of testPlan(planned)) {
      describe(side.side, () => {
        for (const group of side.groups) {
          describe(group.group, () => {
            for (const c of group.cases) it(testName(c), (ctx) => tell(ctx, caseTest(ran(), c.id)));
          });
        }
      });
    }
  });
}
