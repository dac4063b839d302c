// A database as the harness uses it: one statement at a time from a small pool, or a few on one
// connection inside a transaction; every statement with a time limit, every failure a
// DatabaseError with its kind and the database's own message (secrets redacted).
import type { CompiledStatement } from './statement.ts';
import type { Dialect } from './url.ts';

export type Row = Record<string, unknown>;

export interface StatementResult {
  /** Rows of a statement that returns rows (none for an INSERT or UPDATE without RETURNING). */
  rows: Row[];
  /** Column names of those rows, in order (empty when the statement returns none). */
  columns: string[];
  /** Rows inserted, updated or deleted (0 for a SELECT). */
  affected: number;
}

/** Statements on one connection. */
export interface Session {
  run(statement: CompiledStatement, values: Readonly<Record<string, string>>): Promise<StatementResult>;
}

export interface Database extends Session {
  readonly dialect: Dialect;
  /** 'PostgreSQL' or 'MySQL/MariaDB'. */
  readonly product: string;
  /** The URL with its password replaced, for messages. */
  readonly shown: string;
  /** The limits in force: a statement's, and a lock wait's (MySQL counts the latter in whole seconds). */
  readonly limits: { statementMs: number; lockMs: number };
  /**
   * `work` on one connection inside a transaction: committed when it resolves and `end` is
   * 'commit', rolled back otherwise (a check that leaves nothing behind).
   */
  transaction<T>(work: (session: Session) => Promise<T>, end: 'commit' | 'rollback'): Promise<T>;
  /** SQL text without parameters, run as written (table definitions, administration). */
  execute(sql: string): Promise<StatementResult>;
  /** Ends every connection; later statements fail. Safe to call more than once. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /**
   * Time limit of one statement, set in the database (statement and lock time-outs) and kept by
   * the client too (a server that stops answering), in ms.
   */
  statementTimeoutMs: number;
  /** Connections at most (default 4). */
  poolSize?: number;
  /** How connections name themselves to the server (PostgreSQL application_name). */
  applicationName?: string;
  /** Time allowed to open a connection, in ms (default 5000). */
  connectTimeoutMs?: number;
}

/** A lock is waited for a little less than the statement's whole limit, so a lock wait is named as one. */
export function lockTimeoutMs(statementTimeoutMs: number): number {
  return Math.max(50, Math.floor(statementTimeoutMs * 0.8));
}

/** The client's own limit: past the server's, for a server that stopped answering altogether. */
export function clientTimeoutMs(statementTimeoutMs: number): number {
  return statementTimeoutMs + 1000;
}
