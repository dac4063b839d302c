// The library's public face (`import … from 'collect-conformance'`). Each concern lives in its
// own folder with its own index.ts; Pact helpers are at 'collect-conformance/contracts' so that
// importing the library does not load Pact's native core.
export * from './signing/index.ts';
export * from './callback/index.ts';
export * from './results/index.ts';
export { Redactor, REDACTED } from './secrets/index.ts';
export { idMatcher, globMatch } from './select/index.ts';
export * from './vectors/index.ts';
export * from './report/index.ts';
export * from './receiver/index.ts';
export {
  startSimulator, SIMULATOR_FAULTS, REJECTIONS,
  type RunningSimulator, type SimulatorConfig, type SimulatorFault,
} from './simulator/index.ts';
export {
  loadTargetFile, parseTarget, secretsOf, redactTarget, TargetFileError, TARGET_SCHEMA_URL,
  type ResolvedTarget, type ResolvedReceiverTarget, type ResolvedServiceTarget, type ResolvedClientTarget,
} from './targets/index.ts';
export {
  RECEIVER_CASES, SERVICE_CASES, CLIENT_CASES, allCases, 
  type ConformanceCase, type CaseContext, type CaseOutcome, type Capability,
} from './cases/index.ts';
// The run as a library (docs/ci.md): the whole pipeline of `collect-conformance run`, resolving with report.json's object;
// runSide, the layer under it: one side against one resolved or started target, its preflight, cases and shared causes.
export {
  runConformance, runSide, selectedCases, reportDirReporter, gitHubReporter, exitStatusOf, RunInterrupted, RunResources, UsageError, TargetUnreachableError, SIGNAL_EXIT_STATUS,
  type RunConformanceOptions, type RunSideOptions, type SideRunResult, type StartedTarget, type TargetDescription, type RunReporter, type RunStart, type RunNotice, type PlannedCase, type ReportDirReporter,
  type StopRequest, type StopSignal, type GitHubReporterOptions,
} from './run/index.ts';
/** @deprecated The same class as TargetUnreachableError (one failure, exit 3): the name it had when targets/ threw its own. */
export { TargetUnreachableError as TargetUnreachable } from './tool/index.ts';
// runCases({ pace: new Pace(parseRate('5/s')) }): the requests to a target at a pace (docs/pacing.md).
export { Pace, parseRate, RateError, type Rate } from './wire/index.ts';
// A reference implementation started in-process, its faults, timing and mode chosen: `{ target }` for runConformance, `.target` for runSide.
export {
  startEmbedded, startEmbeddedReceiver, startEmbeddedService, startEmbeddedClient,
  type EmbeddedSide, type EmbeddedReceiverOptions, type EmbeddedServiceOptions, type EmbeddedClientOptions,
} from './embedded/index.ts';
export {
  SdkAdapter, startSdkService, encodeCollectLine, parseAdapterLine,
  type AdapterAnswer, type CollectCall, type RawField, type ReceivedRequest, type SdkService, type ServiceScript,
} from './sdk/index.ts';
export {
  collect as referenceCollect, serveReferenceAdapter, REFERENCE_SDK_FAULTS,
  type ReferenceSdkFault, type SdkConfig, type SdkResult,
} from './reference-sdk/index.ts';
// §4.2 as the suite takes it (docs/status.md): the shape, the adapter's status request, the reference SDK's call.
export * from './status/index.ts';
export { encodeStatusLine, type StatusCall, type AdapterRequest } from './sdk/index.ts';
export { transactionStatus as referenceTransactionStatus, type SdkStatusResult } from './reference-sdk/index.ts';
export {
  runStorm, StormPlan, judgeStorm, STORM_CASES, StormSetupError,
  type StormRun, type StormRunOptions, type StormSettings, type StormPhase, type DriveProgress,
} from './storm/index.ts';
export { runCases } from './runner/index.ts';
