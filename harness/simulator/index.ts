// Public face of the reference service (§4, §5, §6) with fault switches.
export { startSimulator, type RunningSimulator, type SimulatorOptions } from './simulator.ts';
export { DEFAULT_CONFIG, resolveConfig, normaliseAddress, type SimulatorConfig, type SimulatorClient } from './config.ts';
export { SIMULATOR_FAULTS, isSimulatorFault, type SimulatorFault } from './faults.ts';
export { REJECTIONS, type ErrorCode } from './rejections.ts';
export { COLLECT_PATH, TRANSACTION_STATUS_PATH } from './router.ts';
export { loadSimulatorConfigFile, validateSimulatorConfigFile, sandboxNumbersFromEnv, SimulatorConfigError, type SimulatorConfigFile } from './config-file.ts';
export { credentialsFromEnv, generateCredentials, type Credentials } from './credentials.ts';
export { TransactionStore, MAX_TRANSACTIONS, type Transaction, type TransactionStatus } from './store.ts';
export { decideOutcome, type Outcome } from './outcome.ts';
export type { LogSink } from './log.ts';
