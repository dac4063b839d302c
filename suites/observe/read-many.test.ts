// The batch form of a target's one-id statements (harness/observe/sql-batch.ts), as text: what
// PostgreSQL and MySQL/MariaDB are given for a list of ids, the values bound, and the rows sorted
// back to their ids. The statements run on real servers in read-many-sql.test.ts.
import { describe, expect, it } from 'vitest';
import { compileStatement } from '../../harness/database/index.ts';
import { arrayLiteral, AT_COLUMN, batchValues, mysqlBatch, postgresBatch, postgresProbe, rowsPerId } from '../../harness/observe/sql-batch.ts';

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
