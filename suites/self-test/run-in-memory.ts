// The self-test files' way of running as a user meets a run (controls-and-diagnoses.test.ts and
// the files split from it, so their runs overlap across workers): runConformance in this process
// with the terminal's reporter beside it, the target as a value, the report as it resolves.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { terminalReporter } from '../../harness/cli/terminal.ts';
import { renderMarkdown } from '../../harness/report/index.ts';
import type { CaseResult, RunReport } from '../../harness/results/index.ts';
import { exitStatusOf, runConformance, type TargetDescription } from '../../harness/run/index.ts';

/** A directory of this file's own for the runs' working directory (and the command's target files and reports). */
export const dir = mkdtempSync(join(tmpdir(), 'cc-preflight-'));
export const SEED = 9009;

export interface RunArgs { target: TargetDescription; only?: string; env: Record<string, string> }

/** The run in memory: the target as a value, the terminal's lines as a string, the report as runConformance resolves with it. */
export async function run(args: RunArgs) {
  let stdout = '';
  const terminal = terminalReporter({ stdout: (t) => { stdout += t; }, stderr: () => {}, cwd: dir, color: false, progress: false }, { files: () => [] });
  const report = await runConformance({ target: args.target, env: args.env, cwd: dir, seed: SEED, reporters: [terminal], ...(args.only ? { only: args.only } : {}) });
  return { code: exitStatusOf(report), stdout, report, md: renderMarkdown(report) };
}

/** The cases that did not pass (a SKIP, e.g. a confirm case against a receiver that does not confirm, failed nothing). */
export function notPassed(report: RunReport): CaseResult[] {
  return report.cases.filter((c) => c.verdict !== 'PASS' && c.verdict !== 'SKIP');
}
