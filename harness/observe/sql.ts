// Observing through the receiver's own database: the target's `seed`, `read` and `actions`
// statements, run with the transaction id (and amount) bound, never pasted into the text. One
// pool for the run; each statement of a case goes through the case's way onto the wire. Many
// records at once (`readMany`, a storm's read-back) run the same statements for a list of ids
// in one statement each (sql-batch.ts), and many seeds in one transaction.
import { DatabaseError, openDatabase, type CompiledStatement, type Database, type Session } from '../database/index.ts';
import { abilitiesOf, ObserveError, onCaseWire, type CaseUse, type Observation, type ObservedStep, type ObserveSpec, type RecordObserver, type RecordReading } from './model.ts';
import { AT_COLUMN, batchValues, MYSQL_IDS_PER_STATEMENT, mysqlBatch, postgresBatch, postgresProbe, POSTGRES_PROBE_END, POSTGRES_PROBE_TYPES, rowsPerId } from './sql-batch.ts';
import { mapState, valueText } from './states.ts';

type SqlSpec = Extract<ObserveSpec, { kind: 'sql' }>;
type StatementName = 'seed' | 'read' | 'actions';

/** Rows kept in the evidence of one statement: enough to show "several rows", not a table dump. */
const ROWS_SHOWN = 5;

export interface SqlObservationOptions {
  /** Time limit of one statement, in ms (the run's per-request limit). */
  statementTimeoutMs: number;
  poolSize?: number;
}

export class SqlObservation implements Observation {
  readonly can;
  readonly describe: string;

  private constructor(readonly spec: SqlSpec, readonly database: Database) {
    this.can = abilitiesOf(spec);
    this.describe = `sql (${database.product} at ${database.shown})`;
  }

  static async open(spec: SqlSpec, options: SqlObservationOptions): Promise<SqlObservation> {
    const database = await openDatabase(spec.database, {
      statementTimeoutMs: options.statementTimeoutMs,
      poolSize: options.poolSize ?? 8,
      applicationName: 'collect-conformance observe',
    });
    return new SqlObservation(spec, database);
  }

  forCase(use: CaseUse): RecordObserver {
    const observation = this;
    const onWire = onCaseWire(use);
    return {
      way: 'sql',
      can: this.can,
      seed: (id, amount) => onWire(() => observation.seedOn(observation.database, id, amount)),
      read: (id, steps) => onWire(() => observation.readOn(observation.database, id, steps)),
      readMany: (ids) => onWire(() => observation.readManyOn(observation.database, ids)),
      seedMany: (ids, amount) => onWire(() => observation.seedManyOn(ids, amount)),
      close: async () => {},
    };
  }

  /** Why the batch read is not used (its statement refused by the database): then records are read one id at a time. */
  batchOff: string | undefined;
  /** A batch read has worked once: a later failure is the database's trouble, not the batch form's. */
  private batchWorked = false;
  /** PostgreSQL: the batch statements, built once (the id's type asked once). */
  private postgresStatements: Promise<BatchStatements> | undefined;

  /**
   * Many records, in the order of `ids`, null for an id the receiver does not hold: each of the
   * target's statements run once for the whole list (MySQL/MariaDB: once per
   * MYSQL_IDS_PER_STATEMENT ids). Undefined when the database refuses the batch form the first
   * time (`batchOff` says why): the caller then reads one id at a time.
   */
  async readManyOn(session: Session, ids: readonly string[]): Promise<Array<RecordReading | null> | undefined> {
    if (this.batchOff !== undefined) return undefined;
    const chunk = this.database.dialect === 'mysql' ? MYSQL_IDS_PER_STATEMENT : Math.max(1, ids.length);
    const out: Array<RecordReading | null> = [];
    try {
      for (let at = 0; at < ids.length; at += chunk) out.push(...await this.readBatch(session, ids.slice(at, at + chunk)));
    } catch (error) {
      if (!(error instanceof BatchRefused)) throw error;
      this.batchOff = error.message;
      return undefined;
    }
    return out;
  }

  /** Seeds `ids` in one transaction (one commit for them all); a failure rolls them all back, its evidence the seed statement and the id it was run for. */
  async seedManyOn(ids: readonly string[], amount: string): Promise<void> {
    await this.database.transaction(async (session) => {
      for (const id of ids) await this.seedOn(session, id, amount);
    }, 'commit');
  }

  private async batchStatements(count: number): Promise<BatchStatements> {
    if (this.database.dialect === 'mysql') {
      return { read: mysqlBatch(this.spec.read.source, count), ...(this.spec.actions ? { actions: mysqlBatch(this.spec.actions.source, count) } : {}) };
    }
    this.postgresStatements ??= (async () => {
      const read = postgresBatch(this.spec.read.source, await this.idType('read', this.spec.read));
      return { read, ...(this.spec.actions ? { actions: postgresBatch(this.spec.actions.source, await this.idType('actions', this.spec.actions)) } : {}) };
    })().catch((error: unknown) => {
      // Asked again next time (a connection lost while asking is no answer).
      this.postgresStatements = undefined;
      throw error;
    });
    return this.postgresStatements;
  }

  /** The type PostgreSQL gives :transaction_id in `statement` (PREPARE, then pg_prepared_statements); text when it says unknown. */
  private async idType(name: StatementName, statement: CompiledStatement): Promise<string> {
    try {
      return await this.database.transaction(async (session) => {
        await session.run(postgresProbe(statement.source), {});
        try {
          const types = (await session.run(POSTGRES_PROBE_TYPES, {})).rows[0]?.types;
          const type = Array.isArray(types) ? types[0] : undefined;
          return typeof type === 'string' && type !== 'unknown' ? type : 'text';
        } finally {
          await session.run(POSTGRES_PROBE_END, {});
        }
      }, 'rollback');
    } catch (error) {
      if (error instanceof DatabaseError && ['statement', 'constraint', 'other'].includes(error.failure) && error.databaseCode !== undefined) throw new BatchRefused(`PostgreSQL could not prepare the ${name} statement to learn the type of :transaction_id: ${error.message}`);
      throw error;
    }
  }

  private async readBatch(session: Session, ids: readonly string[]): Promise<Array<RecordReading | null>> {
    if (ids.length === 0) return [];
    let statements: BatchStatements;
    try {
      statements = await this.batchStatements(ids.length);
    } catch (error) {
      if (error instanceof BatchRefused || error instanceof DatabaseError) throw error;
      throw new BatchRefused(`the batch form of the statements could not be built: ${(error as Error).message}`);
    }
    const read = await this.runBatch(session, 'read', statements.read, ids);
    const stateColumn = column(read.columns, 'state');
    if (stateColumn === undefined) {
      throw this.shapeError(`the read statement returns no column named state (it returns ${listed(read.columns.filter((c) => c !== AT_COLUMN))}): name the receiver's status column "AS state"`, read.step);
    }
    const rows = rowsPerId(read.rows, ids.length);
    const counted = statements.actions ? await this.runBatch(session, 'actions', statements.actions, ids) : undefined;
    const countedRows = counted ? rowsPerId(counted.rows, ids.length) : undefined;
    this.batchWorked = true;
    return ids.map((id, k) => {
      const own = rows[k]!;
      if (own.length > 1) {
        throw this.shapeError(`the read statement returned ${own.length} rows for the transaction id ${JSON.stringify(id)}; it must return at most one (a WHERE clause on the receiver's id column = :transaction_id)`, read.step);
      }
      const row = own[0];
      if (!row) return null;
      const value = valueText(row[stateColumn]);
      const reading: RecordReading = { transaction_id: id, state: mapState(value, this.spec.states), value };
      if (counted && countedRows) reading.actions = this.actionsOf({ ...counted, rows: countedRows[k]! });
      return reading;
    });
  }

  /** A batch statement; the database refusing its text before any batch worked is BatchRefused (the caller reads one by one). */
  private async runBatch(session: Session, name: StatementName, statement: CompiledStatement, ids: readonly string[]): Promise<Ran> {
    const parameters = { transaction_ids: `${ids.length} ids: ${JSON.stringify(ids[0])}${ids.length > 1 ? ` … ${JSON.stringify(ids.at(-1))}` : ''}` };
    const started = performance.now();
    try {
      const result = await session.run(statement, batchValues(this.database.dialect, ids));
      const ms = Math.round((performance.now() - started) * 10) / 10;
      return { step: { statement: name, sql: statement.source, parameters, rows: result.rows.slice(0, ROWS_SHOWN).map(jsonRow), ms }, rows: result.rows, columns: result.columns };
    } catch (error) {
      if (!(error instanceof DatabaseError)) throw error;
      // The database's own refusal of the text (not a time limit, a lock or a lost connection) before any batch worked.
      if (['statement', 'constraint', 'other'].includes(error.failure) && error.databaseCode !== undefined && !this.batchWorked) {
        throw new BatchRefused(`the database refused the batch form of the ${name} statement: ${error.message}`);
      }
      throw new ObserveError('ERR_OBSERVE_SQL', this.failureText(name, error), {
        records: { way: this.describe, failed: { statement: name, sql: statement.source, parameters } },
      });
    }
  }

  /** Runs the seed statement. */
  async seedOn(session: Session, id: string, amount: string): Promise<ObservedStep[]> {
    if (!this.spec.seed) throw new ObserveError('ERR_OBSERVE_SQL', 'the target names no seed statement (observe.seed)');
    const step = await this.run(session, 'seed', this.spec.seed, { transaction_id: id, amount });
    return [step.step];
  }

  /**
   * Runs the read statement (no row: the receiver does not hold the id; one row with a `state`
   * column: the reading), then the actions statement when there is one.
   */
  async readOn(session: Session, id: string, steps?: ObservedStep[]): Promise<RecordReading | null> {
    const read = await this.run(session, 'read', this.spec.read, { transaction_id: id });
    steps?.push(read.step);
    const stateColumn = column(read.columns, 'state');
    if (stateColumn === undefined) {
      throw this.shapeError(`the read statement returns no column named state (it returns ${listed(read.columns)}): name the receiver's status column "AS state"`, read.step);
    }
    if (read.rows.length > 1) {
      throw this.shapeError(`the read statement returned ${read.rows.length} rows for one transaction id; it must return at most one (a WHERE clause on the receiver's id column = :transaction_id)`, read.step);
    }
    const row = read.rows[0];
    if (!row) return null;
    const value = valueText(row[stateColumn]);
    const reading: RecordReading = { transaction_id: id, state: mapState(value, this.spec.states), value, read: [read.step] };
    if (this.spec.actions) {
      const counted = await this.run(session, 'actions', this.spec.actions, { transaction_id: id });
      reading.read!.push(counted.step);
      steps?.push(counted.step);
      reading.actions = this.actionsOf(counted);
    }
    return reading;
  }

  private actionsOf(counted: Ran): number {
    const actionsColumn = column(counted.columns, 'actions');
    if (actionsColumn === undefined) {
      throw this.shapeError(`the actions statement returns no column named actions (it returns ${listed(counted.columns)}): e.g. "SELECT count(*) AS actions FROM … WHERE … = :transaction_id"`, counted.step);
    }
    if (counted.rows.length > 1) throw this.shapeError(`the actions statement returned ${counted.rows.length} rows; it must return one (a count)`, counted.step);
    // No row: nothing counted (e.g. a per-record counter read from a row that is not there).
    const text = counted.rows[0] === undefined ? '0' : valueText(counted.rows[0][actionsColumn]);
    if (text === null || !/^\d+$/.test(text)) {
      throw this.shapeError(`the actions statement returned ${JSON.stringify(text)}, not a count (a whole number of times an outcome was applied)`, counted.step);
    }
    return Number(text);
  }

  private async run(session: Session, name: StatementName, statement: CompiledStatement, values: Record<string, string>): Promise<Ran> {
    const parameters = Object.fromEntries(statement.uses.map((n) => [n, values[n]!]));
    const started = performance.now();
    try {
      const result = await session.run(statement, values);
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const step: ObservedStep = {
        statement: name, sql: statement.source, parameters,
        ...(result.columns.length > 0 || name !== 'seed' ? { rows: result.rows.slice(0, ROWS_SHOWN).map(jsonRow) } : { rowCount: result.affected }),
        ms,
      };
      return { step, rows: result.rows, columns: result.columns };
    } catch (error) {
      if (!(error instanceof DatabaseError)) throw error;
      throw new ObserveError('ERR_OBSERVE_SQL', this.failureText(name, error), {
        records: { way: this.describe, failed: { statement: name, sql: statement.source, parameters } },
      });
    }
  }

  /** The statement named, what happened in words, and the database's own message. */
  failureText(name: StatementName, error: DatabaseError): string {
    switch (error.failure) {
      case 'timeout':
        return `the ${name} statement ran past its time limit of ${this.database.limits.statementMs} ms: ${error.message}`;
      case 'lock':
        return `the ${name} statement waited for a lock held elsewhere past its limit of ${this.database.limits.lockMs} ms: ${error.message}`;
      case 'connection-lost':
        return `the connection to the database dropped during the ${name} statement: ${error.message}`;
      case 'connect':
        return `cannot connect to the database: ${error.message}`;
      case 'auth':
        return `the database refused the user name or password: ${error.message}`;
      case 'driver-missing':
        return error.message;
      default:
        return `the ${name} statement failed: ${error.message}`;
    }
  }

  private shapeError(message: string, step: ObservedStep): ObserveError {
    return new ObserveError('ERR_OBSERVE_SQL', message, { records: { way: this.describe, failed: step } });
  }

  close(): Promise<void> {
    return this.database.close();
  }
}

interface BatchStatements {
  read: CompiledStatement;
  actions?: CompiledStatement;
}

/** The database refused the batch form (a statement it cannot run for a list): records are read one id at a time. */
class BatchRefused extends Error {}

interface Ran {
  step: ObservedStep;
  rows: Array<Record<string, unknown>>;
  columns: string[];
}

/** The column named `name` in any letter case (MySQL keeps an alias as written, PostgreSQL folds it). */
function column(columns: readonly string[], name: string): string | undefined {
  return columns.find((c) => c === name) ?? columns.find((c) => c.toLowerCase() === name);
}

function listed(columns: readonly string[]): string {
  return columns.length === 0 ? 'no columns' : columns.map((c) => JSON.stringify(c)).join(', ');
}

/** A row as JSON can carry it: text for what JSON has no form of (big integers, dates, bytes). */
function jsonRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : valueText(v)]));
}
