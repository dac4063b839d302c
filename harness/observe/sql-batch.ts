// Many records per statement (a storm reads back thousands), built by the kit from the target's
// own one-id `read` and `actions` statements, so a target file needs nothing more:
// - PostgreSQL: the ids as one array parameter, the statement run for each element (LATERAL):
//     SELECT cc_ids.cc_conformance_at, cc_one.* FROM unnest($1::<type>[]) WITH ORDINALITY AS cc_ids(cc_id, cc_conformance_at)
//       CROSS JOIN LATERAL (<the statement, :transaction_id read as cc_ids.cc_id>) AS cc_one
//   where <type> is the type PostgreSQL gives :transaction_id in the statement (asked once with
//   PREPARE: a uuid column compares with uuid, not text);
// - MySQL/MariaDB (MariaDB has no LATERAL): one SELECT per id, glued with UNION ALL:
//     SELECT ? AS cc_conformance_at, cc_one.* FROM (<the statement>) AS cc_one UNION ALL …
// Every row carries its id's position in the list (from 1), so the rows are sorted back to their
// ids whatever the statement selects. Values stay bound, never pasted into the text.
import { compileStatement, type CompiledStatement, type Dialect } from '../database/index.ts';

/** The column that says which id of the list a row belongs to (its position, from 1). */
export const AT_COLUMN = 'cc_conformance_at';

/** Ids per UNION ALL statement on MySQL/MariaDB (each id is a SELECT of its own in the text). */
export const MYSQL_IDS_PER_STATEMENT = 100;

/** The name PostgreSQL's PREPARE gives the probe that learns the id's type. */
export const PROBE_NAME = 'cc_conformance_probe';

/** The statement as a subquery: its closing semicolons dropped (also before a trailing comment; the caller ends it with a line end, so a `--` comment stays inside). */
function asSubquery(source: string): string {
  let text = source.trimEnd();
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(/;((?:\s|--[^\n]*|\/\*[\s\S]*?\*\/)*)$/, '$1').trimEnd();
  }
  return text;
}

/** A statement already in the driver's form (no named parameters of the target's). */
export function rawStatement(text: string, names: string[] = []): CompiledStatement {
  return { source: text, text, names, uses: [...new Set(names)] };
}

/** The PREPARE that makes PostgreSQL name the type of :transaction_id in `source`. */
export function postgresProbe(source: string): CompiledStatement {
  const compiled = compileStatement(asSubquery(source), 'postgres', ['transaction_id']);
  if (!compiled.ok) throw new Error(compiled.problem);
  return rawStatement(`PREPARE ${PROBE_NAME} AS ${compiled.statement.text}\n`);
}

export const POSTGRES_PROBE_TYPES = rawStatement(`SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = '${PROBE_NAME}'`);
export const POSTGRES_PROBE_END = rawStatement(`DEALLOCATE ${PROBE_NAME}`);

/**
 * PostgreSQL: one statement for any number of ids, the list in the one parameter
 * `transaction_ids` (an array literal: arrayLiteral). `elementType` is the server's own name of
 * the type (format_type output, safe in the text).
 */
export function postgresBatch(source: string, elementType: string): CompiledStatement {
  const compiled = compileStatement(asSubquery(source), 'postgres', ['transaction_id'], { transaction_id: 'cc_ids.cc_id' });
  if (!compiled.ok) throw new Error(compiled.problem);
  const text = `SELECT cc_ids.${AT_COLUMN}, cc_one.* FROM unnest($1::${elementType}[]) WITH ORDINALITY AS cc_ids(cc_id, ${AT_COLUMN}) CROSS JOIN LATERAL (\n${compiled.statement.text}\n) AS cc_one`;
  return { source: text, text, names: ['transaction_ids'], uses: ['transaction_ids'] };
}

/** A PostgreSQL array literal of `items`, each quoted (quotes and backslashes escaped). */
export function arrayLiteral(items: readonly string[]): string {
  return `{${items.map((s) => `"${s.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** MySQL/MariaDB: `count` copies of the statement glued with UNION ALL, each labelled with its position. */
export function mysqlBatch(source: string, count: number): CompiledStatement {
  const compiled = compileStatement(asSubquery(source), 'mysql', ['transaction_id']);
  if (!compiled.ok) throw new Error(compiled.problem);
  const one = compiled.statement;
  const parts: string[] = [];
  const names: string[] = [];
  for (let k = 0; k < count; k++) {
    parts.push(`SELECT ? AS ${AT_COLUMN}, cc_one.* FROM (\n${one.text}\n) AS cc_one`);
    names.push(`${AT_COLUMN}_${k}`, ...one.names.map((n) => `${n}_${k}`));
  }
  const text = parts.join('\nUNION ALL\n');
  return { source: text, text, names, uses: [...new Set(names)] };
}

/** The values of a batch statement for `ids`. */
export function batchValues(dialect: Dialect, ids: readonly string[]): Record<string, string> {
  if (dialect === 'postgres') return { transaction_ids: arrayLiteral(ids) };
  const values: Record<string, string> = {};
  ids.forEach((id, k) => {
    values[`${AT_COLUMN}_${k}`] = String(k + 1);
    values[`transaction_id_${k}`] = id;
  });
  return values;
}

/** The rows of a batch statement sorted to their ids: rows[k] are the rows of ids[k]. */
export function rowsPerId<R extends Record<string, unknown>>(rows: readonly R[], count: number): R[][] {
  const out: R[][] = Array.from({ length: count }, () => []);
  for (const row of rows) {
    const at = Number(row[AT_COLUMN]);
    if (!Number.isInteger(at) || at < 1 || at > count) throw new Error(`a batch row's ${AT_COLUMN} is ${JSON.stringify(row[AT_COLUMN])}, not a position from 1 to ${count}`);
    out[at - 1]!.push(row);
  }
  return out;
}
