// The batch form of a target's one-id statements (harness/observe/sql-batch.ts), as text: what
// PostgreSQL and MySQL/MariaDB are given for a list of ids, the values bound, and the rows sorted
// back to their ids; a command's read-many answer as parsed; a storm's seeding in batches. The
// statements run on real servers in read-many-sql.test.ts, a command in command.test.ts.
import { describe, expect, it } from 'vitest';
import { compileStatement } from '../../harness/database/index.ts';
import { parseObserverManyLine } from '../../harness/observe/index.ts';
import { arrayLiteral, AT_COLUMN, batchValues, mysqlBatch, postgresBatch, postgresProbe, rowsPerId } from '../../harness/observe/sql-batch.ts';
import { seedAll, StormPlan } from '../../harness/storm/index.ts';

const READ = "SELECT status AS state FROM payments WHERE transaction_id = :transaction_id::uuid AND note <> ':transaction_id'; -- one id";

describe('the batch form of a read statement', () => {
  it('PostgreSQL: the list as one array of the id\'s type, the statement in a LATERAL join, :transaction_id a column (literals untouched)', () => {
    const batch = postgresBatch(READ, 'uuid');
    expect(batch.text).toBe(
      `SELECT cc_ids.${AT_COLUMN}, cc_one.* FROM unnest($1::uuid[]) WITH ORDINALITY AS cc_ids(cc_id, ${AT_COLUMN}) CROSS JOIN LATERAL (\n`
      + "SELECT status AS state FROM payments WHERE transaction_id = cc_ids.cc_id::uuid AND note <> ':transaction_id' -- one id\n) AS cc_one",
    );
    expect(batch.names).toEqual(['transaction_ids']);
    expect(batchValues('postgres', ['a', 'b"c', 'd\\e'])).toEqual({ transaction_ids: '{"a","b\\"c","d\\\\e"}' });
  });
  it('closing semicolons are dropped, also before a trailing comment, which ends before the closing parenthesis', () => {
    expect(postgresBatch('SELECT status AS state FROM p WHERE id = :transaction_id -- the id\n;\n', 'text').text).toContain('WHERE id = cc_ids.cc_id -- the id\n) AS cc_one');
    expect(postgresBatch("SELECT ';' AS state FROM p WHERE id = :transaction_id;; /* done */ ", 'text').text).toContain("SELECT ';' AS state FROM p WHERE id = cc_ids.cc_id /* done */\n) AS cc_one");
  });
  it('PostgreSQL: the probe that learns the type of :transaction_id is the read itself, prepared', () => {
    expect(postgresProbe(READ).text).toBe("PREPARE cc_conformance_probe AS SELECT status AS state FROM payments WHERE transaction_id = $1::uuid AND note <> ':transaction_id' -- one id\n");
  });
  it('MySQL/MariaDB: one SELECT per id glued with UNION ALL, each labelled with its position, every value bound', () => {
    const batch = mysqlBatch('SELECT status AS state FROM orders WHERE reference = :transaction_id OR alias = :transaction_id', 2);
    expect(batch.text).toBe([
      `SELECT ? AS ${AT_COLUMN}, cc_one.* FROM (\nSELECT status AS state FROM orders WHERE reference = ? OR alias = ?\n) AS cc_one`,
      `SELECT ? AS ${AT_COLUMN}, cc_one.* FROM (\nSELECT status AS state FROM orders WHERE reference = ? OR alias = ?\n) AS cc_one`,
    ].join('\nUNION ALL\n'));
    expect(batch.names).toEqual([`${AT_COLUMN}_0`, 'transaction_id_0', 'transaction_id_0', `${AT_COLUMN}_1`, 'transaction_id_1', 'transaction_id_1']);
    expect(batchValues('mysql', ['x', 'y'])).toEqual({ [`${AT_COLUMN}_0`]: '1', transaction_id_0: 'x', [`${AT_COLUMN}_1`]: '2', transaction_id_1: 'y' });
  });
  it('rows are sorted back to their ids by position (an id with no row gets none, one with two gets both)', () => {
    const rows = [{ [AT_COLUMN]: '3', state: 'a' }, { [AT_COLUMN]: 1, state: 'b' }, { [AT_COLUMN]: '3', state: 'c' }];
    expect(rowsPerId(rows, 3).map((r) => r.map((x) => x.state))).toEqual([['b'], [], ['a', 'c']]);
    expect(() => rowsPerId([{ [AT_COLUMN]: '4' }], 3)).toThrow(/not a position from 1 to 3/);
  });
  it('arrayLiteral quotes every element, so a comma or brace in an id stays inside it', () => {
    expect(arrayLiteral(['a,b', '{c}', ''])).toBe('{"a,b","{c}",""}');
  });
  it('compileStatement with inline text: the name replaced by that text, no placeholder made', () => {
    const compiled = compileStatement('SELECT 1 WHERE a = :transaction_id AND b = :amount', 'postgres', ['transaction_id', 'amount'], { transaction_id: 't.id' });
    expect(compiled).toEqual({ ok: true, statement: { source: 'SELECT 1 WHERE a = :transaction_id AND b = :amount', text: 'SELECT 1 WHERE a = t.id AND b = $1', names: ['amount'], uses: ['transaction_id', 'amount'] } });
  });
});

describe('a command\'s read-many answer (the line protocol, docs/observe.md)', () => {
  it('a reading per id in order: a record or {"found": false}', () => {
    expect(parseObserverManyLine('{"id":"o2","records":[{"state":"paid","actions":1},{"found":false},{"state":null,"actions":0}]}', 3)).toEqual({
      ok: true, id: 'o2', answer: { kind: 'many', records: [{ kind: 'record', state: 'paid', actions: 1 }, { kind: 'absent' }, { kind: 'record', state: null, actions: 0 }] },
    });
  });
  it('no "records": the command does not have the batch form (its error for an unknown op is quoted)', () => {
    expect(parseObserverManyLine('{"id":"o2","error":"unknown op read-many"}', 3)).toEqual({ ok: true, id: 'o2', answer: { kind: 'other', answer: 'its error "unknown op read-many"' } });
    expect(parseObserverManyLine('{"id":"o2","found":false}', 3)).toMatchObject({ ok: true, answer: { kind: 'other' } });
  });
  it('records that are not one reading per id: a problem naming what is wrong', () => {
    expect(parseObserverManyLine('{"id":"o2","records":[{"state":"paid","actions":1}]}', 2)).toMatchObject({ ok: false, problem: expect.stringMatching(/^"records" must be an array of 2 readings, one per id asked, in order/) });
    expect(parseObserverManyLine('{"id":"o2","records":[{"state":"paid","actions":-1},{"found":false}]}', 2)).toMatchObject({ ok: false, problem: expect.stringMatching(/^"records"\[0\] is neither/) });
    expect(parseObserverManyLine('{"id":"o2","records":[{"error":"x"},null]}', 2)).toMatchObject({ ok: false, problem: expect.stringMatching(/^"records"\[0\] is neither/) });
  });
});

describe('seeding a storm many at a time (harness/storm/records.ts seedAll)', () => {
  it('an observer with seedMany gets the plan\'s ids in batches of 250, in order, none twice; one without it, one id a call', async () => {
    const plan = new StormPlan({ callbacks: 1001, ratePerS: 100, duplicates: 1, badTokensPct: 0, seed: 2, tag: 'sm' });
    const batches: string[][] = [];
    const single: string[] = [];
    const base = { way: 'sql' as const, can: { seed: true, actions: true }, read: async () => null, close: async () => {} };
    const progress: number[] = [];
    await seedAll(plan, { ...base, seed: async () => [], seedMany: async (ids) => { batches.push([...ids]); } }, { concurrency: 16, onSeeded: (n) => progress.push(n) });
    expect(batches.map((b) => b.length).sort((a, b) => b - a)).toEqual([250, 250, 250, 250, 1]);
    expect(batches.flat().sort()).toEqual(Array.from({ length: 1001 }, (_, i) => plan.idOf(i)).sort());
    expect(progress.at(-1)).toBe(1000);
    await seedAll(plan, { ...base, seed: async (id) => { single.push(id); return []; } }, { concurrency: 16 });
    expect(single).toHaveLength(1001);
  });
});
