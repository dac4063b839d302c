// What went wrong with a database, as a stable kind a caller matches on (never the driver's
// wording) and the database's own message for people, with every secret of the URL redacted.
import type { Dialect } from './url.ts';

/**
 * `driver-missing`: pg / mysql2 not installed · `connect`: no connection (refused, unknown
 * host, unknown database) · `auth`: the user or password was refused · `statement`: the text
 * does not parse or names what does not exist · `constraint`: a NOT NULL, unique or check
 * constraint refused the row · `timeout`: the statement ran past its time limit · `lock`: it
 * waited for a lock past its limit · `connection-lost`: the connection dropped mid-statement ·
 * `other`: anything else, with the database's message. (`constraint` also covers a value its
 * column's type refuses, e.g. a transaction id that is not a UUID.)
 */
export type DatabaseFailure = 'driver-missing' | 'connect' | 'auth' | 'statement' | 'constraint' | 'timeout' | 'lock' | 'connection-lost' | 'other';

const CODES: Readonly<Record<DatabaseFailure, string>> = {
  'driver-missing': 'ERR_DATABASE_DRIVER_MISSING',
  connect: 'ERR_DATABASE_CONNECT',
  auth: 'ERR_DATABASE_AUTH',
  statement: 'ERR_DATABASE_STATEMENT',
  constraint: 'ERR_DATABASE_CONSTRAINT',
  timeout: 'ERR_DATABASE_TIMEOUT',
  lock: 'ERR_DATABASE_LOCK',
  'connection-lost': 'ERR_DATABASE_CONNECTION_LOST',
  other: 'ERR_DATABASE',
};

export class DatabaseError extends Error {
  override readonly name = 'DatabaseError';
  readonly code: string;
  constructor(
    readonly failure: DatabaseFailure,
    message: string,
    /** The database's own error code (SQLSTATE, or MySQL's ER_… name), when it gave one. */
    readonly databaseCode?: string,
  ) {
    super(message);
    this.code = CODES[failure];
  }
}

interface DriverError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  sqlMessage?: unknown;
  errors?: unknown;
}

/** The kind of a driver's error, from its code (SQLSTATE for PostgreSQL, ER_… names for MySQL). */
export function failureOf(dialect: Dialect, error: unknown): { failure: DatabaseFailure; code?: string } {
  const e = (typeof error === 'object' && error !== null ? error : {}) as DriverError;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : String(error);
  // Connection-level failures look alike in both drivers (Node's socket errors).
  if (code && ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ETIMEDOUT'].includes(code)) return { failure: 'connect', code };
  if (code === 'ECONNRESET' || code === 'EPIPE') return { failure: 'connection-lost', code };
  // An AggregateError (a host resolving to several addresses) carries the socket errors inside.
  if (Array.isArray(e.errors) && e.errors.length > 0) return failureOf(dialect, e.errors[0]);
  if (dialect === 'postgres') {
    if (code === undefined) {
      if (/Connection terminated|connection (?:is )?(?:closed|ended)|Client has encountered a connection error/i.test(message)) return { failure: 'connection-lost' };
      if (/timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(message)) return { failure: 'connect' };
      if (/Query read timeout/i.test(message)) return { failure: 'timeout' };
      return { failure: 'other' };
    }
    if (code === '57014') return { failure: 'timeout', code };
    if (code === '55P03') return { failure: 'lock', code };
    if (code === '28P01' || code === '28000') return { failure: 'auth', code };
    if (code === '3D000') return { failure: 'connect', code };
    if (code === '57P01' || code === '57P02' || code === '57P03' || code.startsWith('08')) return { failure: 'connection-lost', code };
    if (code.startsWith('42')) return { failure: 'statement', code };
    // Class 23: a constraint refused the row; class 22: a value the column's type refuses.
    if (code.startsWith('23') || code.startsWith('22')) return { failure: 'constraint', code };
    return { failure: 'other', code };
  }
  switch (code) {
    case 'ER_PARSE_ERROR': case 'ER_NO_SUCH_TABLE': case 'ER_BAD_FIELD_ERROR': case 'ER_SP_DOES_NOT_EXIST': case 'ER_NON_UNIQ_ERROR':
    case 'ER_WRONG_VALUE_COUNT_ON_ROW': case 'ER_UNKNOWN_TABLE': case 'ER_WRONG_ARGUMENTS': case 'ER_TABLEACCESS_DENIED_ERROR':
      return { failure: 'statement', code };
    case 'ER_NO_DEFAULT_FOR_FIELD': case 'ER_BAD_NULL_ERROR': case 'ER_DUP_ENTRY': case 'ER_CHECK_CONSTRAINT_VIOLATED':
    case 'ER_NO_REFERENCED_ROW_2': case 'ER_DATA_TOO_LONG': case 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD': case 'WARN_DATA_TRUNCATED':
    case 'ER_CONSTRAINT_FAILED':
      return { failure: 'constraint', code };
    case 'ER_LOCK_WAIT_TIMEOUT': case 'ER_LOCK_DEADLOCK':
      return { failure: 'lock', code };
    case 'ER_STATEMENT_TIMEOUT': case 'ER_QUERY_TIMEOUT': case 'ER_QUERY_INTERRUPTED': case 'PROTOCOL_SEQUENCE_TIMEOUT':
      return { failure: 'timeout', code };
    case 'ER_ACCESS_DENIED_ERROR': case 'ER_DBACCESS_DENIED_ERROR': case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
      return { failure: 'auth', code };
    case 'ER_BAD_DB_ERROR': case 'ER_CON_COUNT_ERROR': case 'ER_HOST_NOT_PRIVILEGED':
      return { failure: 'connect', code };
    case 'PROTOCOL_CONNECTION_LOST': case 'ER_SERVER_SHUTDOWN': case 'ER_CONNECTION_KILLED': case 'ER_NET_READ_ERROR':
    case 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR':
      return { failure: 'connection-lost', code };
  }
  if (/max_statement_time|max_execution_time/i.test(message)) return { failure: 'timeout', ...(code ? { code } : {}) };
  if (/Connection lost|closed state|connection is in closed/i.test(message)) return { failure: 'connection-lost', ...(code ? { code } : {}) };
  return { failure: 'other', ...(code ? { code } : {}) };
}

/** The database's own message: its text (MySQL's sqlMessage), one line. */
export function databaseMessage(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as DriverError;
  const text = typeof e.sqlMessage === 'string' ? e.sqlMessage : typeof e.message === 'string' && e.message !== '' ? e.message : String(error);
  if (text === '' && Array.isArray(e.errors) && e.errors.length > 0) return databaseMessage(e.errors[0]);
  return text.replace(/\s+/g, ' ').trim();
}
