// The receiver's records in PostgreSQL or MySQL/MariaDB, as a real app keeps them (its tables
// are in sql/, created on start): a Supabase-style `payments` table in PostgreSQL, a
// Laravel-style `orders` table in MySQL/MariaDB, each with its own status words and one event
// row per outcome applied. Applying an outcome is done the way such apps do it, right or wrong:
//   conditional-update   UPDATE … WHERE status = 'pending', the event only when a row changed (right)
//   select-for-update    SELECT … FOR UPDATE in a transaction, then UPDATE (right)
//   racy (fault)         SELECT the status, work a while, then UPDATE: no transaction, no
//                        condition, so concurrent duplicates all apply (the read-then-write race)
import { readFileSync } from 'node:fs';
import {
  compileStatement, openDatabase, parseDatabaseUrl, DatabaseError,
  type CompiledStatement, type Database, type Dialect, type Session,
} from '../database/index.ts';
import type { ApplyPolicy, RecordStore } from './records.ts';
import type { ApplyResult, TransactionRecord } from './store.ts';

/** How a correct receiver applies an outcome only while the record is pending. */
export type SqlApplyMode = 'conditional-update' | 'select-for-update';
export const SQL_APPLY_MODES: readonly SqlApplyMode[] = ['conditional-update', 'select-for-update'];

/** The app's own status words for the suite's states. */
interface Words {
  pending: string;
  SUCCESS: string;
  FAILED: string;
}

type Operation = 'seed' | 'get' | 'lock' | 'updateIfPending' | 'updateUnlessSuccess' | 'updateById' | 'updateAlways' | 'idOf' | 'event' | 'create';

interface Flavour {
  /** Where its tables are defined. */
  schema: string;
  words: Words;
  statements: Record<Operation, string>;
}

/** The statements of each app, with named parameters (:transaction_id, :amount, :status, :id). */
const FLAVOURS: Readonly<Record<Dialect, Flavour>> = {
  postgres: {
    schema: 'payments.postgres.sql',
    words: { pending: 'PENDING', SUCCESS: 'COMPLETED', FAILED: 'FAILED' },
    statements: {
      seed: 'INSERT INTO payments (transaction_id, amount) VALUES (:transaction_id, :amount)',
      get: 'SELECT p.id::text AS id, p.status, p.amount::text AS amount, (SELECT count(*) FROM payment_events e WHERE e.payment_id = p.id)::int AS actions FROM payments p WHERE p.transaction_id = :transaction_id',
      lock: 'SELECT id::text AS id, status FROM payments WHERE transaction_id = :transaction_id FOR UPDATE',
      updateIfPending: "UPDATE payments SET status = :status, updated_at = now() WHERE transaction_id = :transaction_id AND status = 'PENDING' RETURNING id::text AS id",
      updateUnlessSuccess: "UPDATE payments SET status = :status, updated_at = now() WHERE transaction_id = :transaction_id AND status <> 'COMPLETED' RETURNING id::text AS id",
      updateAlways: 'UPDATE payments SET status = :status, updated_at = now() WHERE transaction_id = :transaction_id RETURNING id::text AS id',
      updateById: 'UPDATE payments SET status = :status, updated_at = now() WHERE id = :id::uuid',
      idOf: 'SELECT id::text AS id FROM payments WHERE transaction_id = :transaction_id',
      event: 'INSERT INTO payment_events (payment_id, status) VALUES (:id::uuid, :status)',
      create: 'INSERT INTO payments (transaction_id, amount, status) VALUES (:transaction_id, 0, :status) RETURNING id::text AS id',
    },
  },
  mysql: {
    schema: 'orders.mysql.sql',
    words: { pending: 'pending', SUCCESS: 'paid', FAILED: 'failed' },
    statements: {
      seed: "INSERT INTO orders (reference, amount, status, created_at, updated_at) VALUES (:transaction_id, :amount, 'pending', NOW(), NOW())",
      get: 'SELECT o.id, o.status, o.amount, (SELECT count(*) FROM order_events e WHERE e.order_id = o.id) AS actions FROM orders o WHERE o.reference = :transaction_id',
      lock: 'SELECT id, status FROM orders WHERE reference = :transaction_id FOR UPDATE',
      updateIfPending: "UPDATE orders SET status = :status, paid_at = IF(:status = 'paid', NOW(), paid_at), updated_at = NOW() WHERE reference = :transaction_id AND status = 'pending'",
      updateUnlessSuccess: "UPDATE orders SET status = :status, updated_at = NOW() WHERE reference = :transaction_id AND status <> 'paid'",
      updateAlways: 'UPDATE orders SET status = :status, updated_at = NOW() WHERE reference = :transaction_id',
      updateById: 'UPDATE orders SET status = :status, updated_at = NOW() WHERE id = :id',
      idOf: 'SELECT id FROM orders WHERE reference = :transaction_id',
      event: 'INSERT INTO order_events (order_id, event, created_at) VALUES (:id, :status, NOW())',
      create: 'INSERT INTO orders (reference, amount, status, created_at, updated_at) VALUES (:transaction_id, 0, :status, NOW(), NOW())',
    },
  },
};

const PARAMETERS = ['transaction_id', 'amount', 'status', 'id'] as const;

/** The SQL that creates the tables of `dialect`'s app (harness/receiver/sql/). */
export function schemaOf(dialect: Dialect): string {
  return readFileSync(new URL(`./sql/${FLAVOURS[dialect].schema}`, import.meta.url), 'utf8');
}

/** The app's status words (so a target file's `states` can map them). */
export function statusWordsOf(dialect: Dialect): Readonly<Words> {
  return FLAVOURS[dialect].words;
}

export interface SqlStoreOptions {
  /** A postgres(ql):// or mysql:// / mariadb:// URL (a secret: it carries a password). */
  url: string;
  mode: SqlApplyMode;
  /** Time limit of one statement (default 5000 ms). */
  statementTimeoutMs?: number;
}

/** A decimal the amount column takes: the hooks refuse anything else before it reaches the database. */
export const SQL_AMOUNT = /^-?\d{1,10}(\.\d{1,2})?$/;

export class SqlStoreInputError extends Error {
  override readonly name = 'SqlStoreInputError';
  readonly code = 'ERR_BAD_BODY';
}

/** Opens the database and creates the app's tables when missing. */
export async function openSqlStore(options: SqlStoreOptions): Promise<RecordStore & { database: Database }> {
  const parsed = parseDatabaseUrl(options.url);
  if (!parsed.ok) throw new DatabaseError('connect', `the receiver's database URL ${parsed.problem}`);
  const dialect = parsed.value.dialect;
  const flavour = FLAVOURS[dialect];
  const database = await openDatabase(parsed.value, {
    statementTimeoutMs: options.statementTimeoutMs ?? 5000, poolSize: 20, applicationName: 'collect-conformance receiver',
  });
  try {
    for (const ddl of schemaOf(dialect).replace(/^--.*$/gm, '').split(/;\s*$/m).map((s) => s.trim()).filter(Boolean)) await database.execute(ddl);
  } catch (error) {
    await database.close();
    throw error;
  }
  const compiled = Object.fromEntries(Object.entries(flavour.statements).map(([op, text]) => {
    const result = compileStatement(text, dialect, PARAMETERS);
    if (!result.ok) throw new Error(`receiver SQL ${op}: ${result.problem}`);
    return [op, result.statement];
  })) as Record<Operation, CompiledStatement>;
  const words = flavour.words;
  const toWord = (state: string): string => (state === 'pending' || state === 'SUCCESS' || state === 'FAILED' ? words[state] : state);
  const fromWord = (word: string): string => (Object.entries(words).find(([, w]) => w === word)?.[0] ?? word);
  const run = (session: Session, op: Operation, values: Record<string, string>) => session.run(compiled[op], values);

  const get = async (session: Session, id: string): Promise<TransactionRecord | undefined> => {
    const row = (await run(session, 'get', { transaction_id: id })).rows[0];
    if (!row) return undefined;
    return { transaction_id: id, amount: String(row.amount), state: fromWord(String(row.status)), actions: Number(row.actions) };
  };
  /** The id of the row a changed-row statement touched (PostgreSQL returns it; MySQL is asked). */
  const changedId = async (session: Session, result: { rows: Array<Record<string, unknown>>; affected: number }, transactionId: string): Promise<string | undefined> => {
    if (result.affected === 0) return undefined;
    const returned = result.rows[0]?.id;
    if (returned !== undefined) return String(returned);
    const row = (await run(session, 'idOf', { transaction_id: transactionId })).rows[0];
    return row ? String(row.id) : undefined;
  };
  /** The state change and its event, the event written only when a row changed. */
  const conditional = (op: 'updateIfPending' | 'updateUnlessSuccess' | 'updateAlways', id: string, state: string) =>
    database.transaction(async (session): Promise<ApplyResult> => {
      const status = toWord(state);
      const changed = await changedId(session, await run(session, op, { transaction_id: id, status }), id);
      if (changed === undefined) {
        const record = await get(session, id);
        return record ? { kind: 'duplicate', record } : { kind: 'unknown' };
      }
      await run(session, 'event', { id: changed, status });
      return { kind: 'applied', record: (await get(session, id))! };
    }, 'commit');
  const forUpdate = (id: string, state: string) => database.transaction(async (session): Promise<ApplyResult> => {
    const row = (await run(session, 'lock', { transaction_id: id })).rows[0];
    if (!row) return { kind: 'unknown' };
    if (String(row.status) !== words.pending) return { kind: 'duplicate', record: (await get(session, id))! };
    const status = toWord(state);
    await run(session, 'updateById', { id: String(row.id), status });
    await run(session, 'event', { id: String(row.id), status });
    return { kind: 'applied', record: (await get(session, id))! };
  }, 'commit');
  /** The fault: read, a round trip of other work, write. Each statement on its own: no transaction holds them together. */
  const readThenWrite = async (id: string, state: string, roundTripMs: number): Promise<ApplyResult> => {
    const read = await get(database, id);
    await new Promise((resolve) => setTimeout(resolve, roundTripMs));
    if (!read) return { kind: 'unknown' };
    if (read.state !== 'pending') return { kind: 'duplicate', record: read };
    const row = (await run(database, 'idOf', { transaction_id: id })).rows[0]!;
    const status = toWord(state);
    await run(database, 'updateById', { id: String(row.id), status });
    await run(database, 'event', { id: String(row.id), status });
    return { kind: 'applied', record: (await get(database, id))! };
  };

  return {
    database,
    async seed(id, amount) {
      if (!SQL_AMOUNT.test(amount)) throw new SqlStoreInputError(`amount must be a decimal number with at most two decimals (got ${JSON.stringify(amount)})`);
      try {
        await run(database, 'seed', { transaction_id: id, amount });
      } catch (error) {
        // The id is already held: the hooks' 409.
        if (error instanceof DatabaseError && (error.databaseCode === '23505' || error.databaseCode === 'ER_DUP_ENTRY')) return undefined;
        throw error;
      }
      return { transaction_id: id, amount, state: 'pending', actions: 0 };
    },
    get: (id) => get(database, id),
    apply(id, state, policy: ApplyPolicy) {
      if (policy === 'if-pending') return options.mode === 'select-for-update' ? forUpdate(id, state) : conditional('updateIfPending', id, state);
      if (policy === 'unless-success') return conditional('updateUnlessSuccess', id, state);
      if (policy === 'always') return conditional('updateAlways', id, state);
      return readThenWrite(id, state, policy.racy);
    },
    createApplied: (id, state) => database.transaction(async (session) => {
      const status = toWord(state);
      const created = await changedId(session, await run(session, 'create', { transaction_id: id, status }), id);
      await run(session, 'event', { id: created!, status });
      return (await get(session, id))!;
    }, 'commit'),
    close: () => database.close(),
  };
}
