// What every request handler needs, built once at start.
import type { Dispatcher } from 'undici';
import { normaliseAddress, type SimulatorConfig } from './config.ts';
import type { FaultSet } from './faults.ts';
import type { TransactionStore } from './store.ts';
import type { CallbackDispatcher } from './callback-dispatcher.ts';
import type { SimulatorLog } from './log.ts';

export interface SimulatorContext {
  config: SimulatorConfig;
  faults: FaultSet;
  store: TransactionStore;
  callbacks: CallbackDispatcher;
  agent: Dispatcher;
  log: SimulatorLog;
  sources: ReadonlySet<string>;
  customerNumbers: ReadonlySet<string>;
}

export function sourceSet(config: SimulatorConfig): Set<string> {
  return new Set(config.whitelist.sources.map((s) => normaliseAddress(s)));
}
