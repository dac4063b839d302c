// Public face of the database room: a PostgreSQL or MySQL/MariaDB URL opened as a small pool
// with time limits (drivers loaded on demand), named parameters bound as the driver's own, and
// failures of a stable kind with the database's own message. Used by harness/observe (a
// receiver's records read where the receiver keeps them) and harness/receiver (its SQL store).
import type { Database, OpenDatabaseOptions } from './model.ts';
import { openMysql } from './mysql.ts';
import { openPostgres } from './postgres.ts';
import type { DatabaseUrl } from './url.ts';

export type { Database, OpenDatabaseOptions, Row, Session, StatementResult } from './model.ts';
export { lockTimeoutMs } from './model.ts';
export { parseDatabaseUrl, PRODUCT, type DatabaseUrl, type Dialect, type ParsedDatabaseUrl } from './url.ts';
export { compileStatement, boundValues, type Compiled, type CompiledStatement } from './statement.ts';
export { DatabaseError, failureOf, type DatabaseFailure } from './errors.ts';
export { DRIVERS, installCommand } from './drivers.ts';

/**
 * Opens a pool (no connection yet: the first statement opens one, so a URL that does not
 * connect fails there, as a DatabaseError of kind `connect` or `auth`). A missing driver is a
 * DatabaseError of kind `driver-missing` naming its install command.
 */
export function openDatabase(url: DatabaseUrl, options: OpenDatabaseOptions): Promise<Database> {
  return url.dialect === 'postgres' ? openPostgres(url, options) : openMysql(url, options);
}
