// The receiver's transaction records and the one place their state changes (§6 rule 2:
// act only when the record is still pending, keyed on transaction_id).

export type TransactionState = 'pending' | 'SUCCESS' | 'FAILED';
export type Outcome = 'SUCCESS' | 'FAILED';

export interface TransactionRecord {
  transaction_id: string;
  amount: string;
  /** A string, not TransactionState: the `unknown-status-applied` fault stores anything. */
  state: TransactionState | string;
  /** Times an outcome was applied to this record (1 at most when the receiver is correct). */
  actions: number;
}

export type ApplyResult =
  | { kind: 'applied'; record: TransactionRecord }
  | { kind: 'duplicate'; record: TransactionRecord }
  | { kind: 'unknown' };

/** The most records held; beyond it the oldest is forgotten (a long-running receiver stays bounded). */
export const MAX_RECORDS = 100_000;
/** The longest transaction_id the hooks seed (characters). */
export const MAX_ID_LENGTH = 1024;

export class TransactionStore {
  private readonly records = new Map<string, TransactionRecord>();

  constructor(private readonly maxRecords = MAX_RECORDS) {}

  /** A new pending record, or undefined when the id is already held. */
  seed(transactionId: string, amount: string): TransactionRecord | undefined {
    if (this.records.has(transactionId)) return undefined;
    const record: TransactionRecord = { transaction_id: transactionId, amount, state: 'pending', actions: 0 };
    this.add(record);
    return record;
  }

  /** Map order is insertion order: the first key is the oldest record. */
  private add(record: TransactionRecord): void {
    while (this.records.size >= this.maxRecords) {
      const oldest = this.records.keys().next();
      if (oldest.done) break;
      this.records.delete(oldest.value);
    }
    this.records.set(record.transaction_id, record);
  }

  get(transactionId: string): TransactionRecord | undefined {
    return this.records.get(transactionId);
  }

  get size(): number {
    return this.records.size;
  }

  /**
   * Check-and-set with no await between the check and the set: Node runs it to the end
   * before any other callback is handled, so concurrent duplicates apply once.
   */
  applyIfPending(transactionId: string, state: string): ApplyResult {
    const record = this.records.get(transactionId);
    if (!record) return { kind: 'unknown' };
    if (record.state !== 'pending') return { kind: 'duplicate', record };
    record.state = state;
    record.actions += 1;
    return { kind: 'applied', record };
  }

  /** Fault `failed-not-final`: only SUCCESS is final, a FAILED record takes the next outcome. */
  applyUnlessSuccess(transactionId: string, state: string): ApplyResult {
    const record = this.records.get(transactionId);
    if (!record) return { kind: 'unknown' };
    if (record.state === 'SUCCESS') return { kind: 'duplicate', record };
    record.state = state;
    record.actions += 1;
    return { kind: 'applied', record };
  }

  /** Fault `not-idempotent`: applies whatever the record's state. */
  applyAlways(transactionId: string, state: string): ApplyResult {
    const record = this.records.get(transactionId);
    if (!record) return { kind: 'unknown' };
    record.state = state;
    record.actions += 1;
    return { kind: 'applied', record };
  }

  /**
   * Fault `racy-idempotence`: reads the record, awaits a simulated database round-trip, then
   * writes what it read as pending. Duplicates arriving inside the round-trip all apply.
   */
  async applyRacy(transactionId: string, state: string, roundTripMs: number): Promise<ApplyResult> {
    const read = this.records.get(transactionId);
    const wasPending = read?.state === 'pending';
    await new Promise((resolve) => setTimeout(resolve, roundTripMs));
    if (!read) return { kind: 'unknown' };
    if (!wasPending) return { kind: 'duplicate', record: read };
    read.state = state;
    read.actions += 1;
    return { kind: 'applied', record: read };
  }

  /** Fault `unknown-id-created`: a record that was never seeded, outcome applied. */
  createApplied(transactionId: string, state: string): TransactionRecord {
    const record: TransactionRecord = { transaction_id: transactionId, amount: '', state, actions: 1 };
    this.records.delete(transactionId);
    this.add(record);
    return record;
  }
}
