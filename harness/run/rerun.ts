// `run --rerun-failed [report.json]`: only the cases a previous run reported FAIL or ERROR (a
// waived one too: its verdict is what was observed). The report is read as written; one that is
// missing or not a report is the user's to fix (exit 2, naming the file).
import { readJsonFile } from '../schemas/index.ts';
import { UsageError } from '../tool/index.ts';
import type { RunReport } from '../results/index.ts';

/** The ids of the cases `report` has as FAIL or ERROR, in its order. */
export function failedCaseIds(report: Pick<RunReport, 'cases'>): string[] {
  return report.cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => c.id);
}

/** A previous run's report.json, read for its cases; UsageError (exit 2) naming the file when it cannot be. */
export function readPreviousReport(path: string, name = path): Pick<RunReport, 'cases' | 'kind'> {
  const read = readJsonFile(path);
  if (!read.ok) throw new UsageError(`--rerun-failed: ${name}: ${read.reason}`, 'ERR_RERUN_REPORT');
  const value = read.value as { kind?: unknown; cases?: unknown };
  const cases = Array.isArray(value.cases) ? value.cases as unknown[] : undefined;
  const valid = value.kind === 'run' && cases !== undefined
    && cases.every((c) => typeof c === 'object' && c !== null && typeof (c as { id?: unknown }).id === 'string' && typeof (c as { verdict?: unknown }).verdict === 'string');
  if (!valid) throw new UsageError(`--rerun-failed: ${name} is not the report.json of a run (it needs "kind": "run" and "cases" with an id and a verdict each)`, 'ERR_RERUN_REPORT');
  return value as Pick<RunReport, 'cases' | 'kind'>;
}
