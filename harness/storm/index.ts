// Public face of the storm (DESIGN.md "A callback storm: the receiver at production volume"): the
// streamed plan, the open-loop driver, the judgement on the receiver's records, and the whole
// storm as a library (`runStorm`), which the `storm` command drives.
export { StormPlan, TOKEN_KINDS, type StormPlanOptions, type PlannedDelivery, type TokenKind, type Outcome } from './plan.ts';
export { AttemptLog, percentiles, quantile, type AttemptRow, type AttemptFailure, type Percentiles } from './log.ts';
export { drive, driverSettings, tokenValue, type DriverOptions, type DriveProgress, type DriveResult } from './driver.ts';
export { Readings, seedAll, readAll, STATE_CODES, type StateCode } from './records.ts';
export { judgeStorm, latencyStats, historyOf, STORM_CASES, FIRST_IDS_SHOWN, type JudgeInput, type LatencyStats, type StormCaseInfo } from './judge.ts';
export { runStorm, readStormRecords, stormPlanFor, stormObserveOf, settingsProblems, StormSetupError, type StormRun, type StormRunOptions, type StormSettings, type StormPhase } from './run.ts';
