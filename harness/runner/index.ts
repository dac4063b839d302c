// Public face of the case runner: cases against one target, several at once (CaseSlots), each
// within its needs (capabilities), its selection (`--only`), its time limit and its waivers, the
// target watched for silence (TargetWatch). The run as a whole (probes, preflight, reports) is harness/run.
export { runCases, defaultTimeouts, watchFor, type RunCasesOptions } from './runner.ts';
export { CaseSlots, DEFAULT_CONCURRENCY, MAX_CONCURRENCY, TARGET_FILE_CONCURRENCY } from './slots.ts';
export { TargetWatch, SILENT_CASES_TO_STOP, silenceOf, livenessCheck, type LivenessCheck, type Stopped } from './watch.ts';
export { unmetReason, firstUnmet } from './capabilities.ts';
export { selectCases } from './select.ts';
export {
  loadWaiverFile, parseWaivers, applyWaivers, unusedWaivers, isExpired, isBlanket, WaiverFileError, WAIVERS_SCHEMA,
  type WaiverEntry,
} from './waivers.ts';
