// report.json: the RunReport as it stands, and its validation against
// reports/schema/report.schema.json (JSON Schema 2020-12, ajv).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { VERDICTS, type CaseResult, type RunReport } from '../results/index.ts';
import { perCase } from './memo.ts';
import type { ReportWriter } from './writer.ts';
import { compileSchema, formatProblem } from '../schemas/index.ts';

// Where the case blocks go; random, so that no text in a report can look like it.
const CASES_MARK = `\u0000cases-${randomUUID()}\u0000`;
const caseBlock = perCase((c: CaseResult) => JSON.stringify(c, null, 2).replace(/^/gm, '    '));

/** Where the schema ships (package.json `files` includes reports/schema). */
export const REPORT_SCHEMA_PATH = fileURLToPath(new URL('../../reports/schema/report.schema.json', import.meta.url));

export const jsonWriter: ReportWriter = {
  fileName: 'report.json',
  render(report: RunReport): string {
    // Same text as JSON.stringify(report, null, 2), with each case's block reused across rewrites.
    if (report.cases.length === 0) return `${JSON.stringify(report, null, 2)}\n`;
    const head = JSON.stringify({ ...report, cases: CASES_MARK }, null, 2);
    const body = report.cases.map((c) => caseBlock(c)).join(',\n');
    return `${head.replace(JSON.stringify(CASES_MARK), () => `[\n${body}\n  ]`)}\n`;
  },
};

const checkReport = compileSchema(JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')) as object);

/**
 * Checks a parsed report.json against the schema, then two facts a schema cannot state: the
 * summary counts the cases, and case ids are unique. Returns one message per problem, each
 * starting with the JSON pointer of the bad field (`/cases/2/verdict: must be one of …`);
 * [] when valid.
 */
export function validateReportJson(value: unknown): string[] {
  const schemaProblems = checkReport(value);
  if (schemaProblems.length > 0) return schemaProblems.map(formatProblem);
  const report = value as RunReport;
  const problems: string[] = [];
  for (const verdict of VERDICTS) {
    const n = report.cases.filter((c) => c.verdict === verdict).length;
    if (report.summary[verdict] !== n) {
      problems.push(`/summary/${verdict}: is ${report.summary[verdict]}, but ${n} case(s) have verdict ${verdict}`);
    }
  }
  const seen = new Map<string, number>();
  report.cases.forEach((c, i) => {
    const first = seen.get(c.id);
    if (first !== undefined) problems.push(`/cases/${i}/id: duplicates /cases/${first}/id (${JSON.stringify(c.id)})`);
    else seen.set(c.id, i);
  });
  return problems;
}
