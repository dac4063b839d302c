// What the request handlers share.
import type { ReceiverConfig } from './config.ts';
import type { ReceiverFault } from './faults.ts';
import type { RequestLogEntry } from './log.ts';
import type { RecordStore } from './records.ts';
import type { Volume } from './volume.ts';
import type { WorkTracker } from './work.ts';

export interface ReceiverContext {
  config: ReceiverConfig;
  faults: ReadonlySet<ReceiverFault>;
  store: RecordStore;
  work: WorkTracker;
  /** The cache, pool and queue of the volume faults and of `shedding`. */
  volume: Volume;
  log(entry: RequestLogEntry): void;
}
