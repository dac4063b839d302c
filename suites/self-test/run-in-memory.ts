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
/**
 * The reply deadline of the receiver targets these runs name where the verdicts rest on answers
 * and records, not on a deadline: 1 s, so a request's limit is 2 s (twice it). At 500 ms (a 1 s
 * limit), with four workers on a loaded machine (load 11 to 20), requests went unanswered and a
 * second cause (receiver.answers-timed-out, receiver.preflight-incomplete) stood beside the one
 * under test. What it costs: a valid callback that is never applied is polled for up to 1 s.
 */
export const REPLY_DEADLINE_MS = 1000;

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
