// Many records per statement through a receiver's own database (docs/observe.md "Many records at
// once"): the kit builds the batch form of the target's one-id `read` and `actions` statements
// (PostgreSQL: the ids as one array, the statement run for each in a LATERAL join; MySQL/MariaDB:
// UNION ALL), and seeds many ids in one transaction. Each on a throwaway server of its own: the
// readings equal those of one id at a time (the positive control), a uuid id column gets a uuid
// array, a read that matches two rows is named with its id, a statement the batch form cannot run
// is read one id at a time with the database's reason kept. End-to-end tier: database servers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openDatabase, parseDatabaseUrl, type Database } from '../../harness/database/index.ts';
import { SqlObservation, type RecordObserver, type RecordReading } from '../../harness/observe/index.ts';
import { parseTarget } from '../../harness/targets/index.ts';
import { OPEN_WIRE } from '../../harness/wire/index.ts';
import { useDatabaseServer, type DatabaseKind, type TestDatabaseServer } from '../support/databases.ts';
import { describeNeeding } from '../support/programs.ts';
import { EXAMPLE, ROOT } from './receiver-on-sql.ts';

const TABLES: Record<DatabaseKind, string> = { postgresql: 'payments.postgres.sql', mariadb: 'orders.mysql.sql' };

const USE = { http: { send: () => Promise.reject(new Error('no HTTP')), pace: 'unpaced' }, wire: OPEN_WIRE, signal: new AbortController().signal };

interface Opened {
  observation: SqlObservation;
  observer: RecordObserver;
  admin: Database;
  close(): Promise<void>;
}

/** The reference receiver's tables on a fresh database of `server`, observed with the example target file's statements (or `override`). */
async function opened(server: TestDatabaseServer, override: Partial<Record<'read' | 'actions', string>> = {}, tables?: string): Promise<Opened> {
  const url = await server.fresh('read_many');
  const parsedUrl = parseDatabaseUrl(url);
  if (!parsedUrl.ok) throw new Error(parsedUrl.problem);
  const admin = await openDatabase(parsedUrl.value, { statementTimeoutMs: 10_000, poolSize: 1 });
  const sql = tables ?? readFileSync(join(ROOT, 'harness/receiver/sql', TABLES[server.kind]), 'utf8');
  for (const statement of sql.replace(/^--.*$/gm, '').split(';').map((s) => s.trim()).filter(Boolean)) await admin.execute(statement);
  const file = JSON.parse(readFileSync(join(ROOT, 'examples/observe', EXAMPLE[server.kind], 'target.json'), 'utf8')) as { observe: Record<string, unknown> };
  Object.assign(file.observe, override);
  const target = parseTarget(file, { COLLECT_CALLBACK_TOKEN: 'read-many-token', RECEIVER_DATABASE_URL: url });
  if (target.side !== 'receiver' || target.observe?.kind !== 'sql') throw new Error('a receiver target observed through SQL was expected');
  const observation = await SqlObservation.open(target.observe, { statementTimeoutMs: 10_000 });
  return { observation, observer: observation.forCase(USE), admin, close: async () => { await observation.close(); await admin.close(); } };
}

/** `work` on a fresh observed database (opened's arguments), closed after. */
async function observed(work: (o: Opened) => Promise<void>, ...args: Parameters<typeof opened>): Promise<void> {
  const o = await opened(...args);
  try {
    await work(o);
  } finally {
    await o.close();
  }
}

/** A reading as readMany gives it: without the statements that made it. */
const bare = (r: RecordReading | null) => r && { transaction_id: r.transaction_id, state: r.state, value: r.value, ...(r.actions !== undefined ? { actions: r.actions } : {}) };

/** Some outcomes applied as the receiver would (one id twice), straight in its tables. */
async function apply(kind: DatabaseKind, admin: Database, ids: readonly string[]): Promise<void> {
  const list = ids.map((id) => `'${id}'`).join(', ');
  if (kind === 'postgresql') {
    await admin.execute(`UPDATE payments SET status = 'COMPLETED' WHERE transaction_id IN (${list})`);
    await admin.execute(`INSERT INTO payment_events (payment_id, status) SELECT id, 'COMPLETED' FROM payments WHERE transaction_id IN (${list})`);
    await admin.execute(`INSERT INTO payment_events (payment_id, status) SELECT id, 'COMPLETED' FROM payments WHERE transaction_id = '${ids[0]}'`);
  } else {
    await admin.execute(`UPDATE orders SET status = 'paid' WHERE reference IN (${list})`);
    await admin.execute(`INSERT INTO order_events (order_id, event) SELECT id, 'paid' FROM orders WHERE reference IN (${list})`);
    await admin.execute(`INSERT INTO order_events (order_id, event) SELECT id, 'paid' FROM orders WHERE reference = '${ids[0]}'`);
  }
}

function readManySuite(kind: DatabaseKind, server: () => TestDatabaseServer): void {
  it('the example target file\'s statements: 1,000 records seeded in 4 transactions and read back in batches, the same readings as one id at a time', async () => {
    await observed(async (o) => {
      const ids = Array.from({ length: 1000 }, (_, i) => `cc-many-${i}`);
      for (let at = 0; at < ids.length; at += 250) await o.observer.seedMany!(ids.slice(at, at + 250), '10.00');
      await apply(kind, o.admin, [ids[7]!, ids[500]!, ids[999]!]);
      const asked = [...ids, 'cc-many-never-seeded'];
      const many = await o.observer.readMany!(asked);
      expect(o.observation.batchOff).toBeUndefined();
      expect(many).toHaveLength(asked.length);
      // The positive control: each id read alone, with the target's own statements.
      const sample = [0, 7, 500, 998, 999, 1000];
      const one = await Promise.all(sample.map(async (k) => bare(await o.observer.read(asked[k]!))));
      expect(sample.map((k) => many![k])).toEqual(one);
      expect(one.map((r) => r && `${r.state} ${r.actions}`)).toEqual(['pending 0', 'SUCCESS 2', 'SUCCESS 1', 'pending 0', 'SUCCESS 1', null]);
      expect(many!.filter((r) => r?.state === 'pending')).toHaveLength(997);
    }, server());
  }, 60_000);
  it('a read that matches two rows for an id: an error naming the statement and the id', async () => {
    const read = kind === 'postgresql'
      ? 'SELECT p.status AS state FROM payments p JOIN payments q ON q.amount = p.amount WHERE p.transaction_id = :transaction_id'
      : 'SELECT o.status AS state FROM orders o JOIN orders q ON q.amount = o.amount WHERE o.reference = :transaction_id';
    await observed(async (o) => {
      await o.observer.seedMany!(['cc-a', 'cc-b'], '10.00');
      await expect(o.observer.readMany!(['cc-a'])).rejects.toThrow(/^the read statement returned 2 rows for the transaction id "cc-a"; it must return at most one/);
    }, server(), { read });
  }, 60_000);
  it('a seed that fails inside a batch rolls the whole batch back, named by the seed statement', async () => {
    await observed(async (o) => {
      await expect(o.observer.seedMany!(['cc-dup-1', 'cc-dup-2', 'cc-dup-1'], '10.00')).rejects.toThrow(/^the seed statement failed: /);
      expect(await o.observer.readMany!(['cc-dup-1', 'cc-dup-2'])).toEqual([null, null]);
    }, server());
  }, 60_000);
  it('a read the batch form cannot run: read one id at a time (readMany undefined), the database\'s reason kept', async () => {
    // PostgreSQL: a data-modifying WITH runs alone but not inside a join; MariaDB: two columns of one name run alone but not as a derived table.
    const read = kind === 'postgresql'
      ? 'WITH touched AS (UPDATE payments SET updated_at = updated_at WHERE transaction_id = :transaction_id RETURNING status) SELECT status AS state FROM touched'
      : 'SELECT status AS state, status AS state FROM orders WHERE reference = :transaction_id';
    await observed(async (o) => {
      await o.observer.seedMany!(['cc-one'], '10.00');
      expect(await o.observer.read('cc-one')).toMatchObject({ state: 'pending' });
      expect(await o.observer.readMany!(['cc-one'])).toBeUndefined();
      expect(o.observation.batchOff).toMatch(kind === 'postgresql'
        ? /^the database refused the batch form of the read statement: PostgreSQL: WITH clause containing a data-modifying statement must be at the top level \(0A000\)/
        : /^the database refused the batch form of the read statement: MySQL\/MariaDB: Duplicate column name 'state'/);
      expect(await o.observer.readMany!(['cc-one'])).toBeUndefined();
    }, server(), { read });
  }, 60_000);
}

describeNeeding(['postgresql'], 'many records per statement through PostgreSQL', () => {
  const server = useDatabaseServer('postgresql');
  readManySuite('postgresql', server);
  it('a uuid id column: the list is bound as uuid[], the type PostgreSQL gives :transaction_id in the read (an actions statement ending in a semicolon and a comment)', async () => {
    const tables = `CREATE TABLE payments (id serial PRIMARY KEY, transaction_id uuid NOT NULL UNIQUE, amount numeric NOT NULL, status text NOT NULL DEFAULT 'PENDING', updated_at timestamptz);
      CREATE TABLE payment_events (payment_id int NOT NULL, status text NOT NULL)`;
    await observed(async (o) => {
      const ids = ['0b7c3a52-5d3c-4d8e-9a51-0d2b1f7e6c01', '0b7c3a52-5d3c-4d8e-9a51-0d2b1f7e6c02'];
      await o.observer.seedMany!(ids, '10.00');
      await apply('postgresql', o.admin, [ids[1]!]);
      const many = await o.observer.readMany!([...ids, '0b7c3a52-5d3c-4d8e-9a51-0d2b1f7e6c03']);
      expect(o.observation.batchOff).toBeUndefined();
      expect(many!.map((r) => r && `${r.state} ${r.actions}`)).toEqual(['pending 0', 'SUCCESS 2', null]);
    }, server(), { actions: 'SELECT count(*) AS actions FROM payment_events e JOIN payments p ON p.id = e.payment_id WHERE p.transaction_id = :transaction_id::uuid; -- one per id' }, tables);
  }, 60_000);
});

describeNeeding(['mariadb'], 'many records per statement through MariaDB', () => {
  const server = useDatabaseServer('mariadb');
  readManySuite('mariadb', server);
});
