// Where the receiver keeps its records: in memory (the default) or in a SQL database
// (sql-store.ts), behind one interface that speaks the suite's states (pending, SUCCESS, FAILED,
// or a fault's stray value). Each way of applying an outcome is one policy: the correct one
// (act only while pending) and the faults' wrong ones.
import { TransactionStore, type ApplyResult, type TransactionRecord } from './store.ts';

/**
 * `if-pending`: the rule (§6 rule 2) · `unless-success`: only SUCCESS is final (fault
 * failed-not-final) · `always`: whatever the state (fault not-idempotent) · `racy`: read, wait
 * `roundTripMs`, then write what was read as pending (fault racy-idempotence).
 */
export type ApplyPolicy = 'if-pending' | 'unless-success' | 'always' | { racy: number };

export interface RecordStore {
  /** A new pending record; undefined when the id is already held. */
  seed(transactionId: string, amount: string): Promise<TransactionRecord | undefined>;
  get(transactionId: string): Promise<TransactionRecord | undefined>;
  apply(transactionId: string, state: string, policy: ApplyPolicy): Promise<ApplyResult>;
  /** Fault `unknown-id-created`: a record that was never seeded, outcome applied. */
  createApplied(transactionId: string, state: string): Promise<TransactionRecord>;
  close(): Promise<void>;
}

/** The in-memory store behind the interface: each apply still runs with no await between check and set. */
export function memoryStore(store = new TransactionStore()): RecordStore {
  return {
    seed: async (id, amount) => store.seed(id, amount),
    get: async (id) => store.get(id),
    apply: (id, state, policy) => {
      if (policy === 'if-pending') return Promise.resolve(store.applyIfPending(id, state));
      if (policy === 'unless-success') return Promise.resolve(store.applyUnlessSuccess(id, state));
      if (policy === 'always') return Promise.resolve(store.applyAlways(id, state));
      return store.applyRacy(id, state, policy.racy);
    },
    createApplied: async (id, state) => store.createApplied(id, state),
    close: async () => {},
  };
}
