// Public face of the reference receiver: the callback endpoint of §4.3 following the receiver
// rules of §6, the test hooks of DESIGN.md, and fault switches that make it a faulty target.
export { startReceiver, type RunningReceiver, type ListenOptions } from './server.ts';
export {
  resolveReceiverConfig, generateTestToken, ReceiverConfigError, RECEIVER_DEFAULTS, DEFAULT_WORK_MS,
  type ReceiverConfig,
} from './config.ts';
export {
  loadReceiverConfigFile, parseReceiverConfigFile, RECEIVER_CONFIG_SCHEMA_URL,
  type ReceiverConfigFile, type LoadedReceiverConfigFile,
} from './config-file.ts';
export { RECEIVER_FAULTS, RECEIVER_FAULT_NAMES, isReceiverFault, type ReceiverFault, type ReceiverFaultInfo } from './faults.ts';
export { tokensEqual } from './token.ts';
export { formatLogLine, type LogSink, type RequestLogEntry } from './log.ts';
export type { TransactionRecord, TransactionState } from './store.ts';
