// What the request handlers share.
import type { ReceiverConfig } from './config.ts';
import type { ReceiverFault } from './faults.ts';
import type { RequestLogEntry } from './log.ts';
import type { TransactionStore } from './store.ts';
import type { WorkTracker } from './work.ts';

export interface ReceiverContext {
  config: ReceiverConfig;
  faults: ReadonlySet<ReceiverFault>;
  store: TransactionStore;
  work: WorkTracker;
  log(entry: RequestLogEntry): void;
}
