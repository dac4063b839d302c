// PostgreSQL through node-postgres (pg 8): a pool whose connections carry the statement and lock
// time-outs, so the server itself stops a statement that runs or waits too long.
import { Redactor } from '../secrets/index.ts';
import { exportOf, loadDriver } from './drivers.ts';
import { DatabaseError } from './errors.ts';
import { wrapped } from './wrap.ts';
import { clientTimeoutMs, lockTimeoutMs, type Database, type OpenDatabaseOptions, type Row, type Session, type StatementResult } from './model.ts';
import { boundValues, type CompiledStatement } from './statement.ts';
import { PRODUCT, type DatabaseUrl } from './url.ts';

// The little of pg this file uses (pg ships no types; @types/pg is not worth a dependency).
interface PgResult {
  rows?: Row[];
  fields?: Array<{ name: string }>;
  rowCount: number | null;
  command?: string;
}
interface PgClient {
  on(event: 'error', listener: (error: Error) => void): unknown;
  query(config: { text: string; values: readonly unknown[]; query_timeout?: number }): Promise<PgResult>;
  release(destroy?: Error | boolean): void;
}
interface PgPool {
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
type PgPoolClass = new (config: Record<string, unknown>) => PgPool;

export async function openPostgres(url: DatabaseUrl, options: OpenDatabaseOptions): Promise<Database> {
  const Pool = exportOf(await loadDriver('postgres'), 'Pool') as PgPoolClass;
  const pool = new Pool({
    host: url.host,
    ...(url.port !== undefined ? { port: url.port } : {}),
    user: url.user,
    password: url.password,
    database: url.database,
    max: options.poolSize ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 10_000,
    statement_timeout: options.statementTimeoutMs,
    lock_timeout: lockTimeoutMs(options.statementTimeoutMs),
    application_name: options.applicationName ?? 'collect-conformance',
    // The pool does not keep the process alive once its connections are idle.
    allowExitOnIdle: true,
  });
  // An idle connection the server dropped is reported here; the pool forgets it and opens another.
  pool.on('error', () => {});
  const redactor = new Redactor(url.secrets);
  const wrap = wrapped('postgres', url, redactor);
  const timeout = clientTimeoutMs(options.statementTimeoutMs);

  const runOn = async (client: PgClient, statement: CompiledStatement | string, values: readonly unknown[]): Promise<StatementResult> => {
    const text = typeof statement === 'string' ? statement : statement.text;
    const result = await client.query({ text, values, query_timeout: timeout });
    const rows = result.rows ?? [];
    return { rows, columns: (result.fields ?? []).map((f) => f.name), affected: result.command === 'SELECT' ? 0 : result.rowCount ?? 0 };
  };
  // A connection dropped while a statement runs fails that statement, and its client also emits
  // 'error': listened to once per client, so it is not an unhandled error of the process.
  const listened = new WeakSet<PgClient>();
  const connect = () => wrap.connect(async () => {
    const client = await pool.connect();
    if (!listened.has(client)) {
      listened.add(client);
      client.on('error', () => {});
    }
    return client;
  });
  /**
   * A connection is reused after a statement the server answered with an error of its own; one
   * that dropped (or that the client gave up on) is not.
   */
  const release = (client: PgClient, error?: unknown) => {
    const reusable = error === undefined || (error instanceof DatabaseError && error.databaseCode !== undefined && error.failure !== 'connection-lost');
    client.release(reusable ? undefined : true);
  };
  /** One statement on a connection of the pool. */
  const single = async (statement: CompiledStatement | string, values: readonly unknown[]): Promise<StatementResult> => {
    const client = await connect();
    try {
      const result = await wrap.statement(() => runOn(client, statement, values));
      release(client);
      return result;
    } catch (error) {
      release(client, error);
      throw error;
    }
  };
  let closed: Promise<void> | undefined;

  const database: Database = {
    dialect: 'postgres',
    product: PRODUCT.postgres,
    shown: url.shown,
    limits: { statementMs: options.statementTimeoutMs, lockMs: lockTimeoutMs(options.statementTimeoutMs) },
    run: (statement, values) => single(statement, boundValues(statement, values)),
    execute: (sql) => single(sql, []),
    async transaction(work, end) {
      const client = await connect();
      let failure: unknown;
      try {
        await wrap.statement(() => runOn(client, 'BEGIN', []));
        const session: Session = { run: (statement, values) => wrap.statement(() => runOn(client, statement, boundValues(statement, values))) };
        const result = await work(session);
        await wrap.statement(() => runOn(client, end === 'commit' ? 'COMMIT' : 'ROLLBACK', []));
        return result;
      } catch (error) {
        // An error of the work itself (not the database's) leaves the connection usable once rolled back.
        failure = error instanceof DatabaseError ? error : undefined;
        await runOn(client, 'ROLLBACK', []).catch(() => {});
        throw error;
      } finally {
        release(client, failure);
      }
    },
    close() {
      closed ??= pool.end().catch(() => {});
      return closed;
    },
  };
  return database;
}
