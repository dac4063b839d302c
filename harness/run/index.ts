// Public face of the run (HOUSE.md "Change" 1): `runConformance`, the whole pipeline from the
// target to the report, as a library call; its reporters (the report directory one of them);
// what a stopped run reports; what it holds and closes (RunResources, from harness/cases).
export {
  runConformance, selectedCases, resolveTarget, DEFAULT_REPORT_DIR, SERVICE_TARGET_RATE,
  type RunConformanceOptions, type StartedTarget, type TargetDescription,
} from './run.ts';
export { runSide, type RunSideOptions, type SideRunResult } from './side.ts';
export { allOf, type PlannedCase, type RunNotice, type RunReporter, type RunStart } from './reporter.ts';
export { reportDirReporter, openReportDir, LOCK_FILE, type ReportDirReporter, type ReportDirSession } from './report-dir.ts';
export { onlyMatcher } from './only.ts';
export { InOrder } from './in-order.ts';
export {
  interruptedDiagnosis, unfinishedResults, RunInterrupted, SIGNAL_EXIT_STATUS, type StopRequest, type StopSignal,
} from './interrupt.ts';
export { RunResources } from '../cases/index.ts';
export { UsageError, TargetUnreachableError } from '../tool/index.ts';
export { exitStatusOf } from './exit.ts';
export { failedCaseIds, readPreviousReport } from './rerun.ts';
export { gitHubReporter, gitHubReporterFor, errorCommands, type GitHubReporterOptions } from './github.ts';
export {
  caseTest, plannedCases, registerConformance, sharedCausesTest, testFailure, testName, testPlan, DEFAULT_RUN_TIMEOUT_MS, SHARED_CAUSES_TEST,
  type CaseTest, type ConformanceTarget, type DescribeConformanceOptions, type PlannedGroup, type PlannedSide, type TestRunner,
} from './as-tests.ts';
