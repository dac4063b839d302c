// MySQL and MariaDB through mysql2 3 (its promise API): server-side prepared statements (values
// bound, never in the text), and each connection's session given the time limits the server
// knows (MariaDB max_statement_time or MySQL max_execution_time, lock waits in whole seconds).
import { Redactor } from '../secrets/index.ts';
import { exportOf, loadDriver } from './drivers.ts';
import { DatabaseError } from './errors.ts';
import { wrapped } from './wrap.ts';
import { clientTimeoutMs, lockTimeoutMs, type Database, type OpenDatabaseOptions, type Row, type Session, type StatementResult } from './model.ts';
import { boundValues, type CompiledStatement } from './statement.ts';
import { PRODUCT, type DatabaseUrl } from './url.ts';

// The little of mysql2 this file uses (its own types would tie the package's types to it).
type MysqlAnswer = [Row[] | { affectedRows?: number }, Array<{ name: string }> | undefined];
interface MysqlConnection {
  execute(options: { sql: string; timeout?: number }, values: readonly unknown[]): Promise<MysqlAnswer>;
  query(options: { sql: string; timeout?: number }): Promise<MysqlAnswer>;
  release(): void;
  destroy(): void;
}
interface MysqlPool {
  getConnection(): Promise<MysqlConnection>;
  end(): Promise<void>;
  on(event: 'connection', listener: (connection: { query(sql: string, callback: (error: unknown) => void): unknown }) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}
type CreatePool = (config: Record<string, unknown>) => MysqlPool;

/** Whole seconds, at least one (the unit of MySQL's lock wait settings), rounded down so a lock wait ends before the statement's limit where they can differ. */
function seconds(ms: number): number {
  return Math.max(1, Math.floor(ms / 1000));
}

export async function openMysql(url: DatabaseUrl, options: OpenDatabaseOptions): Promise<Database> {
  const createPool = exportOf(await loadDriver('mysql'), 'createPool') as CreatePool;
  const statementMs = options.statementTimeoutMs;
  const pool = createPool({
    host: url.host,
    port: url.port ?? 3306,
    user: url.user,
    password: url.password,
    database: url.database,
    connectionLimit: options.poolSize ?? 4,
    waitForConnections: true,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    charset: 'utf8mb4',
    // Rows as the server sent them: DECIMAL and BIGINT as text, dates as text.
    decimalNumbers: false,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
  });
  pool.on('error', () => {});
  // Both servers' statement limits are tried: each ignores the other's (an unknown variable).
  const sessionSettings = [
    `SET SESSION max_statement_time = ${(statementMs / 1000).toFixed(3)}`,
    `SET SESSION max_execution_time = ${statementMs}`,
    `SET SESSION innodb_lock_wait_timeout = ${seconds(lockTimeoutMs(statementMs))}`,
    `SET SESSION lock_wait_timeout = ${seconds(lockTimeoutMs(statementMs))}`,
  ];
  pool.on('connection', (connection) => {
    // Queued on the new connection before anything else it runs.
    for (const sql of sessionSettings) connection.query(sql, () => {});
  });
  const redactor = new Redactor(url.secrets);
  const wrap = wrapped('mysql', url, redactor);
  const timeout = clientTimeoutMs(statementMs);

  const runOn = async (connection: MysqlConnection, statement: CompiledStatement | string, values: readonly unknown[]): Promise<StatementResult> => {
    const [answer, fields] = typeof statement === 'string'
      ? await connection.query({ sql: statement, timeout })
      : await connection.execute({ sql: statement.text, timeout }, values);
    if (Array.isArray(answer)) return { rows: answer, columns: (fields ?? []).map((f) => f.name), affected: 0 };
    return { rows: [], columns: [], affected: answer.affectedRows ?? 0 };
  };
  const connect = () => wrap.connect(() => pool.getConnection());
  /**
   * A connection is reused after a statement the server answered with an error of its own; one
   * that dropped (or that the client gave up on: mysql2 marks those fatal) is not.
   */
  const release = (connection: MysqlConnection, error?: unknown) => {
    const fatal = error instanceof DatabaseError && (error.failure === 'connection-lost' || (error as { cause?: { fatal?: unknown } }).cause?.fatal === true);
    if (fatal) connection.destroy();
    else connection.release();
  };
  /** One statement on a connection of the pool. */
  const single = async (statement: CompiledStatement | string, values: readonly unknown[]): Promise<StatementResult> => {
    const connection = await connect();
    try {
      const result = await wrap.statement(() => runOn(connection, statement, values));
      release(connection);
      return result;
    } catch (error) {
      release(connection, error);
      throw error;
    }
  };
  let closed: Promise<void> | undefined;

  return {
    dialect: 'mysql',
    product: PRODUCT.mysql,
    shown: url.shown,
    limits: { statementMs: statementMs, lockMs: seconds(lockTimeoutMs(statementMs)) * 1000 },
    run: (statement, values) => single(statement, boundValues(statement, values)),
    execute: (sql) => single(sql, []),
    async transaction(work, end) {
      const connection = await connect();
      let failure: unknown;
      try {
        await wrap.statement(() => runOn(connection, 'START TRANSACTION', []));
        const session: Session = { run: (statement, values) => wrap.statement(() => runOn(connection, statement, boundValues(statement, values))) };
        const result = await work(session);
        await wrap.statement(() => runOn(connection, end === 'commit' ? 'COMMIT' : 'ROLLBACK', []));
        return result;
      } catch (error) {
        // An error of the work itself (not the database's) leaves the connection usable once rolled back.
        failure = error instanceof DatabaseError ? error : undefined;
        await runOn(connection, 'ROLLBACK', []).catch(() => {});
        throw error;
      } finally {
        release(connection, failure);
      }
    },
    close() {
      closed ??= pool.end().catch(() => {});
      return closed;
    },
  };
}
