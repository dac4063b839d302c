// `collect-conformance/node-test`: the same as `collect-conformance/vitest` for Node's built-in
// runner (`node --test`): one test per selected case by side and case group, a first test for the
// shared causes, the run once in a `before` hook. A WARN passes with its finding as a diagnostic.
import { before, describe, it, type TestContext } from 'node:test';
import {
  caseTest, plannedCases, runConformance, sharedCausesTest, SHARED_CAUSES_TEST, testFailure, testName, testPlan,
  type CaseTest, type RunConformanceOptions, type TargetDescription,
} from '../run/index.ts';
import type { RunReport } from '../results/index.ts';

export type ConformanceTarget = string | TargetDescription;

export interface DescribeConformanceOptions extends Omit<RunConformanceOptions, 'target' | 'stop'> {
  /** The target, or a function returning it, called when the run starts (after the suite's own `before` hooks). */
  target?: ConformanceTarget | (() => ConformanceTarget | Promise<ConformanceTarget>);
  title?: string;
  /** How long the run may take, in ms (default 600000). */
  timeoutMs?: number;
}

export const DEFAULT_RUN_TIMEOUT_MS = 600_000;

export function describeConformance(options: DescribeConformanceOptions): void {
  const planned = plannedCases(options);
  describe(options.title ?? 'collect-conformance', () => {
    let report: RunReport | undefined;
    before(async () => {
      const { target: given, title: _title, timeoutMs: _timeoutMs, ...run } = options;
      const target = typeof given === 'function' ? await given() : given;
      report = await runConformance({ ...run, ...(target !== undefined ? { target } : {}) });
    }, { timeout: options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS });

    const tell = (t: TestContext, test: CaseTest): void => {
      if (test.kind === 'skip') {
        t.skip(test.reason);
        return;
      }
      if (test.kind === 'fail') throw testFailure(test.message);
      for (const note of test.notes) t.diagnostic(note);
    };
    const ran = (): RunReport => {
      if (!report) throw testFailure('the conformance run did not finish (see the before hook\'s error)');
      return report;
    };
    it(SHARED_CAUSES_TEST, (t) => tell(t, sharedCausesTest(ran())));
    for (const side of testPlan(planned)) {
      describe(side.side, () => {
        for (const group of side.groups) {
          describe(group.group, () => {
            for (const c of group.cases) it(testName(c), (t) => tell(t, caseTest(ran(), c.id)));
          });
        }
      });
    }
  });
}
