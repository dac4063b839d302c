// DESIGN.md "Observing a receiver as it is": `:transaction_id` and `:amount` are bound as
// parameters, never pasted into the SQL text; they are the only placeholders (a PostgreSQL cast,
// a colon inside a string literal, a regular expression's `{8}` are SQL text), and each may
// appear several times. The compiled text is what the driver gets; `names` says which value each
// driver placeholder takes.
import { describe, expect, it } from 'vitest';
import { boundValues, compileStatement, type Dialect } from '../../harness/database/index.ts';

const NAMES = ['transaction_id', 'amount'] as const;

function compiled(text: string, dialect: Dialect) {
  const result = compileStatement(text, dialect, NAMES);
  if (!result.ok) throw new Error(result.problem);
  return result.statement;
}

function problem(text: string, dialect: Dialect): string {
  const result = compileStatement(text, dialect, NAMES);
  if (result.ok) throw new Error(`compiled: ${result.statement.text}`);
  return result.problem;
}

describe('placeholders become the driver\'s own, values bound in order', () => {
  it('PostgreSQL: each name one $n, reused where it appears again', () => {
    const s = compiled('INSERT INTO o (ref, amount, note) VALUES (:transaction_id, :amount, :transaction_id)', 'postgres');
    expect(s.text).toBe('INSERT INTO o (ref, amount, note) VALUES ($1, $2, $1)');
    expect(boundValues(s, { transaction_id: 'cc-1', amount: '10.00' })).toEqual(['cc-1', '10.00']);
    expect(s.uses).toEqual(['transaction_id', 'amount']);
  });
  it('MySQL: one ? per appearance, the value repeated', () => {
    const s = compiled('INSERT INTO o (ref, amount, note) VALUES (:transaction_id, :amount, :transaction_id)', 'mysql');
    expect(s.text).toBe('INSERT INTO o (ref, amount, note) VALUES (?, ?, ?)');
    expect(boundValues(s, { transaction_id: 'cc-1', amount: '10.00' })).toEqual(['cc-1', '10.00', 'cc-1']);
  });
  it('a PostgreSQL cast after a placeholder (:transaction_id::uuid) and on a column (id::text) stays a cast', () => {
    expect(compiled('SELECT id::text AS state FROM p WHERE ref = :transaction_id::uuid AND amount = :amount::numeric', 'postgres').text)
      .toBe('SELECT id::text AS state FROM p WHERE ref = $1::uuid AND amount = $2::numeric');
  });
  it('a cast to a type named like a placeholder (x::amount) is not one', () => {
    expect(compiled('SELECT x::amount AS state FROM p WHERE ref = :transaction_id', 'postgres').text).toBe('SELECT x::amount AS state FROM p WHERE ref = $1');
  });
  it('other :names (a slice a[1:n], MySQL := ) are SQL text', () => {
    expect(compiled('SELECT a[1:n] AS state FROM p WHERE ref = :transaction_id', 'postgres').text).toBe('SELECT a[1:n] AS state FROM p WHERE ref = $1');
    expect(compiled('SELECT @n := 1, s AS state FROM p WHERE ref = :transaction_id', 'mysql').text).toBe('SELECT @n := 1, s AS state FROM p WHERE ref = ?');
    expect(compiled('SELECT 1 FROM p WHERE ref = :transaction_ids', 'postgres').uses).toEqual([]);
  });
});

describe('literals, quoted names and comments are SQL text', () => {
  for (const dialect of ['postgres', 'mysql'] as const) {
    const mark = dialect === 'postgres' ? '$1' : '?';
    it(`${dialect}: a colon name inside a string literal, a regular expression's {8}`, () => {
      const s = compiled("SELECT ':transaction_id' AS x, s AS state FROM p WHERE ref = :transaction_id AND ref ~ '^[0-9]{8}:amount$'", dialect);
      expect(s.text).toBe(`SELECT ':transaction_id' AS x, s AS state FROM p WHERE ref = ${mark} AND ref ~ '^[0-9]{8}:amount$'`);
      expect(s.uses).toEqual(['transaction_id']);
    });
    it(`${dialect}: doubled quotes inside a literal, comments`, () => {
      const s = compiled("SELECT 'it''s :amount' -- :amount here\n, s AS state /* :amount */ FROM p WHERE ref = :transaction_id", dialect);
      expect(s.text).toBe(`SELECT 'it''s :amount' -- :amount here\n, s AS state /* :amount */ FROM p WHERE ref = ${mark}`);
    });
    it(`${dialect}: a literal never closed is named`, () => {
      expect(problem("SELECT 'open FROM p WHERE ref = :transaction_id", dialect)).toMatch(/string literal opened at character 8 is never closed/);
    });
  }
  it('PostgreSQL: quoted names, E-strings with backslashes, dollar quotes, nested comments', () => {
    const s = compiled(`SELECT ":amount" AS state, E'a\\':amount', $$ :amount $$, $t$ :amount $t$ /* /* :amount */ */ FROM p WHERE ref = :transaction_id`, 'postgres');
    expect(s.text).toBe(`SELECT ":amount" AS state, E'a\\':amount', $$ :amount $$, $t$ :amount $t$ /* /* :amount */ */ FROM p WHERE ref = $1`);
    expect(s.uses).toEqual(['transaction_id']);
  });
  it('MySQL: backticks, backslash escapes in strings, # comments', () => {
    const s = compiled("SELECT `:amount` AS state, 'a\\':amount', \":amount\" # :amount\nFROM p WHERE ref = :transaction_id", 'mysql');
    expect(s.text).toBe("SELECT `:amount` AS state, 'a\\':amount', \":amount\" # :amount\nFROM p WHERE ref = ?");
  });
});

describe('positional parameters are refused with the named ones to use instead', () => {
  it('PostgreSQL $1', () => expect(problem('SELECT s AS state FROM p WHERE ref = $1', 'postgres')).toBe('$1 at character 38: write :transaction_id or :amount instead of positional parameters'));
  it('MySQL ?', () => expect(problem('SELECT s AS state FROM p WHERE ref = ?', 'mysql')).toBe('"?" at character 38: write :transaction_id or :amount instead of positional parameters'));
  it('PostgreSQL ? (a jsonb operator) is SQL text', () => expect(compiled("SELECT d ? 'k' AS state FROM p WHERE ref = :transaction_id", 'postgres').text).toBe("SELECT d ? 'k' AS state FROM p WHERE ref = $1"));
});
