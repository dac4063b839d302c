// A run read as a test runner's tests (harness/vitest, harness/node-test): one test per
// selected case, grouped by side and case group, and one first test for the shared causes.
// What each test says is decided here, once, for every runner: FAIL and ERROR fail with the
// reason, the shared cause the case points to and its curl lines; SKIP is skipped with its
// reason; WARN passes with the finding as a note; a waived failure passes, the waiver noted.
import { isAbsolute, resolve } from 'node:path';
import { caseGroup } from '../report/index.ts';
import type { CaseResult, Diagnosis, RunReport, Side } from '../results/index.ts';
import { readJsonFile } from '../schemas/index.ts';
import type { EmbeddedSide } from '../embedded/index.ts';
import type { PlannedCase } from './reporter.ts';
import { runConformance, selectedCases, type RunConformanceOptions, type StartedTarget, type TargetDescription } from './run.ts';

/** What one test does with its case's result. */
export type CaseTest =
  | { kind: 'pass'; notes: string[] }
  | { kind: 'skip'; reason: string }
  | { kind: 'fail'; message: string };

/** The name of the first test: the shared causes, each named once before the cases it explains. */
export const SHARED_CAUSES_TEST = 'shared causes (named once, before the cases they explain)';

/** A case's test name: its id and title. */
export function testName(c: Pick<PlannedCase, 'id' | 'title'>): string {
  return `${c.id}: ${c.title}`;
}

export interface PlannedGroup {
  group: string;
  cases: PlannedCase[];
}

export interface PlannedSide {
  side: Side;
  groups: PlannedGroup[];
}

/** The selected cases by side, then case group, in report order. */
export function testPlan(cases: readonly PlannedCase[]): PlannedSide[] {
  const sides: PlannedSide[] = [];
  for (const c of cases) {
    let side = sides.find((s) => s.side === c.side);
    if (!side) sides.push(side = { side: c.side, groups: [] });
    const name = caseGroup(c.id);
    let group = side.groups.find((g) => g.group === name);
    if (!group) side.groups.push(group = { group: name, cases: [] });
    group.cases.push(c);
  }
  return sides;
}

/**
 * The side whose cases a test file lists, known before the run (tests are registered before any
 * hook runs): the option, else a target given as a path or a value names it; a target given as a
 * function (started in a hook) names none, and every side's selected cases are listed, the
 * others' skipped once the run shows its side.
 */
export function plannedCases(options: { side?: EmbeddedSide; target?: unknown; only?: string | readonly string[]; cwd?: string }): PlannedCase[] {
  const side = options.side ?? sideNamedBy(options.target, options.cwd ?? process.cwd()) ?? 'all';
  return selectedCases(side, options.only).map((c) => ({ id: c.id, title: c.title, level: c.level, specRef: c.specRef, side: c.side }));
}

function sideNamedBy(target: unknown, cwd: string): EmbeddedSide | undefined {
  if (target === undefined) return 'all';
  const value = typeof target === 'string'
    ? (() => {
      const read = readJsonFile(isAbsolute(target) ? target : resolve(cwd, target));
      return read.ok ? read.value : undefined;
    })()
    : typeof target === 'object' && target !== null ? target as TargetDescription : undefined;
  const side = (value as { side?: unknown } | undefined)?.side;
  return side === 'receiver' || side === 'service' || side === 'client' ? side : undefined;
}

function causesOf(report: RunReport, c: CaseResult): Diagnosis[] {
  return (report.diagnoses ?? []).filter((d) => c.diagnoses?.includes(d.id) || d.cases.includes(c.id));
}

/** What the test of case `id` does, from the report. */
export function caseTest(report: RunReport, id: string): CaseTest {
  const c = report.cases.find((r) => r.id === id);
  if (!c) return { kind: 'skip', reason: `not a case of this run: the target is a ${String(report.target.side ?? 'other')} target` };
  const reason = c.reason ?? '';
  switch (c.verdict) {
    case 'PASS':
      return { kind: 'pass', notes: [] };
    case 'SKIP':
      return { kind: 'skip', reason };
    case 'WARN':
      return { kind: 'pass', notes: [`WARN (${c.level}): ${reason}`] };
    case 'FAIL':
    case 'ERROR': {
      if (c.waiver?.applied) return { kind: 'pass', notes: [`${c.verdict}, waived (${c.waiver.reason}): ${reason}`] };
      const lines = [`${c.verdict} ${c.id} (${c.specRef}, ${c.level}): ${reason}`];
      for (const d of causesOf(report, c)) lines.push(`shared cause ${d.id}: ${d.summary}`);
      const curls = (c.evidence?.exchanges ?? []).flatMap((e) => (e.curl ? [e.curl] : []));
      if (curls.length > 0) lines.push('reproduce:', ...curls.map((line) => `  ${line}`));
      return { kind: 'fail', message: lines.join('\n') };
    }
  }
}

/** What the first test does: it fails naming every shared cause, each with the cases it explains. */
export function sharedCausesTest(report: RunReport): CaseTest {
  const causes = report.diagnoses ?? [];
  if (causes.length === 0) return { kind: 'pass', notes: [] };
  const lines = causes.map((d, i) => `${i + 1}. ${d.id}: ${d.summary} (${d.cases.length} ${d.cases.length === 1 ? 'case' : 'cases'}: ${d.cases.join(', ')})`);
  return { kind: 'fail', message: `${causes.length} shared ${causes.length === 1 ? 'cause' : 'causes'}:\n${lines.join('\n')}` };
}

/** An Error whose message is the whole story (no stack of ours: the harness's frames say nothing about the target). */
export function testFailure(message: string): Error {
  const error = new Error(message);
  error.name = 'ConformanceFailure';
  error.stack = `${error.name}: ${message}`;
  return error;
}

/** A target file's path, the target as a file would hold it (secrets as `{"env": …}`), or a started one (a reference with its faults). */
export type ConformanceTarget = string | TargetDescription | StartedTarget;

export interface DescribeConformanceOptions extends Omit<RunConformanceOptions, 'target' | 'stop'> {
  /**
   * The target; or a function returning it, called when the run starts (after the suite's own
   * before hooks, so it may hand over the URL of an app started there). Absent: the embedded
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

/** What a test runner lends describeConformance (vitest's functions, node:test's). */
export interface TestRunner<Context> {
  describe(name: string, body: () => void): void;
  it(name: string, body: (context: Context) => void | Promise<void>): void;
  /** Runs `body` once before the tests (beforeAll, before), within `timeoutMs`. */
  before(body: () => Promise<void>, timeoutMs: number): void;
  /** Reports one test's outcome through the runner (skip, throw, notes). */
  tell(context: Context, test: CaseTest): void | Promise<void>;
  /** Where the runner shows the error of a run that did not finish. */
  hookName: string;
}

/** The tests of describeConformance, the same in every runner: the shared causes first, then a test per case by side and group. */
export function registerConformance<Context>(options: DescribeConformanceOptions, runner: TestRunner<Context>): void {
  const planned = plannedCases(options);
  runner.describe(options.title ?? 'collect-conformance', () => {
    let report: RunReport | undefined;
    runner.before(async () => {
      const { target: given, title: _title, timeoutMs: _timeoutMs, ...run } = options;
      const target = typeof given === 'function' ? await given() : given;
      report = await runConformance({ ...run, ...(target !== undefined ? { target } : {}) });
    }, options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS);
    const ran = (): RunReport => {
      // The hook failed: the runner reports its error once; a test that still runs says so.
      if (!report) throw testFailure(`the conformance run did not finish (see the ${runner.hookName} error)`);
      return report;
    };
    runner.it(SHARED_CAUSES_TEST, (context) => runner.tell(context, sharedCausesTest(ran())));
    for (const side of testPlan(planned)) {
      runner.describe(side.side, () => {
        for (const group of side.groups) {
          runner.describe(group.group, () => {
            for (const c of group.cases) runner.it(testName(c), (context) => runner.tell(context, caseTest(ran(), c.id)));
          });
        }
      });
    }
  });
}
