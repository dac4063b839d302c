// What every vector file shares: the header fields in a fixed order, the table checks.
import type { FileHeader, VectorFile } from './types.ts';

export function assembleFile<T>(header: FileHeader, tests: T[]): VectorFile<T> {
  return {
    algorithm: header.algorithm,
    schema: header.schema,
    version: header.version,
    specRef: header.specRef,
    numberOfTests: tests.length,
    header: header.header,
    notes: header.notes,
    tests,
  };
}

/** A table mistake should stop the generator, not reach a committed file. */
export function checkRows(file: string, rows: ReadonlyArray<{ tcId: number; flags: string[] }>, header: FileHeader): void {
  const seen = new Set<number>();
  for (const row of rows) {
    if (seen.has(row.tcId)) throw new Error(`${file}: tcId ${row.tcId} stands twice`);
    seen.add(row.tcId);
    for (const flag of row.flags) {
      if (!(flag in header.notes)) throw new Error(`${file} tcId ${row.tcId}: flag ${flag} is not defined in notes`);
    }
  }
  const used = new Set(rows.flatMap((r) => r.flags));
  for (const flag of Object.keys(header.notes)) {
    if (!used.has(flag)) throw new Error(`${file}: note ${flag} is used by no test`);
  }
}

/** The one formatting of every generated file. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
