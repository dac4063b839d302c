// Transactions, keyed by (client_id, transaction_id). Records are plain fixed-shape objects:
// no closures or timers are kept in the store, so a finished transaction costs only its fields.

export type TransactionStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

export interface Transaction {
  /** The service's own reference (SIM-000001), never sent unless a fault echoes it. */
  internalId: string;
  clientId: number;
  transactionId: string;
  amount: string;
  customerNumber: string;
  callbackUrl: string;
  status: TransactionStatus;
  /** The outcome message once terminal; '' while pending. */
  message: string;
  createdAt: number;
}

/** The most transactions held; beyond it the oldest is forgotten (a long-running sandbox stays bounded). */
export const MAX_TRANSACTIONS = 100_000;

export class TransactionStore {
  private readonly byKey = new Map<string, Transaction>();
  private sequence = 0;

  constructor(private readonly maxTransactions = MAX_TRANSACTIONS) {}

  get size(): number {
    return this.byKey.size;
  }

  nextInternalId(): string {
    this.sequence++;
    return `SIM-${String(this.sequence).padStart(6, '0')}`;
  }

  /** False when (client, transaction_id) is already taken; the caller answers 409. */
  insert(tx: Transaction): boolean {
    const key = keyOf(tx.clientId, tx.transactionId);
    if (this.byKey.has(key)) return false;
    // Map order is insertion order: the first key is the oldest. A pending transaction that is
    // forgotten still gets its callback (the dispatcher holds the record).
    while (this.byKey.size >= this.maxTransactions) {
      const oldest = this.byKey.keys().next();
      if (oldest.done) break;
      this.byKey.delete(oldest.value);
    }
    this.byKey.set(key, tx);
    return true;
  }

  get(clientId: number, transactionId: string): Transaction | undefined {
    return this.byKey.get(keyOf(clientId, transactionId));
  }

  /** Terminal states are final (§3): a second transition is ignored and reported. */
  finish(tx: Transaction, status: 'SUCCESS' | 'FAILED', message: string): boolean {
    if (tx.status !== 'PENDING') return false;
    tx.status = status;
    tx.message = message;
    return true;
  }
}

function keyOf(clientId: number, transactionId: string): string {
  return `${clientId}:${transactionId}`;
}
