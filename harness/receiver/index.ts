// Public face of the reference receiver: the callback endpoint of §4.3 following the receiver
// rules of §6, the test hooks of DESIGN.md, and fault switches that make it a faulty target.
// Names carry "Receiver" where another folder has the same concept, so harness/index.ts can
// re-export every folder without clashes.
export { startReceiver, type RunningReceiver, type ListenOptions as ReceiverListenOptions } from './server.ts';
export {
  resolveReceiverConfig, generateTestToken, ReceiverConfigError, RECEIVER_DEFAULTS, DEFAULT_WORK_MS, DEFAULT_CONFIRM_TIMEOUT_MS,
  type ReceiverConfig, type ReceiverConfirmConfig, type ReceiverConfigInput,
} from './config.ts';
export { VOLUME_DEFAULTS as RECEIVER_VOLUME_DEFAULTS, type ReceiverVolumeConfig } from './volume.ts';
export {
  loadReceiverConfigFile, parseReceiverConfigFile, RECEIVER_CONFIG_SCHEMA_URL,
  type ReceiverConfigFile, type LoadedReceiverConfigFile, type ConfirmsInFile,
} from './config-file.ts';
export { RECEIVER_FAULTS, RECEIVER_FAULT_NAMES, isReceiverFault, type ReceiverFault } from './faults.ts';
export { tokensEqual } from './token.ts';
export {
  formatLogLine as formatReceiverLogLine, type LogSink as ReceiverLogSink, type RequestLogEntry as ReceiverLogEntry,
} from './log.ts';
export type { TransactionRecord as ReceiverRecord, TransactionState as ReceiverRecordState } from './store.ts';
export { TransactionStore as ReceiverStore, MAX_RECORDS, MAX_ID_LENGTH } from './store.ts';
export { memoryStore, type ApplyPolicy, type RecordStore } from './records.ts';
export { openSqlStore, schemaOf as receiverSchemaOf, statusWordsOf as receiverStatusWords, SQL_APPLY_MODES, type SqlApplyMode } from './sql-store.ts';
