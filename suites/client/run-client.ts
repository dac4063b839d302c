// Runs `collect-conformance run --target FILE` from the repository root (where the example target
// files' commands are relative to; the tests' working directory). As a user runs it: the installed
// command in a child process (concurrent tests need that: one process's stdout and environment
// cannot be shared). Under `npm run mutation`, which runs one test at a time, in this process
// instead (main(), the harness's sources), so that StrykerJS's mutants are the code that runs;
// a test that must be able to kill the command (`timeoutMs`) keeps the child process.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBin } from '../support/cli-process.ts';
import { runHere } from '../support/cli-here.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ClientRun { code: number | null; stdout: string; stderr: string; reportDir: string; report?: ReportJson }
export interface ReportJson { summary: Record<string, number>; cases: Array<{ id: string; verdict: string; reason?: string; evidence?: Record<string, unknown> }>; diagnoses?: Array<{ id: string; summary: string; cases: string[] }> }

const IN_THIS_PROCESS = process.env['COLLECT_MUTATION_UNIT'] !== undefined;

export function targetFile(target: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cc-client-target-')), 'client.json');
  writeFileSync(path, JSON.stringify(target));
  return path;
}

/** `timeoutMs`: the command is killed (SIGKILL) after this long, and its code is then null. */
export async function runClient(target: string, env: Record<string, string> = {}, extra: string[] = [], timeoutMs?: number): Promise<ClientRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cc-client-report-'));
  const args = ['run', '--target', target, '--report-dir', reportDir, ...extra];
  const ran = IN_THIS_PROCESS && timeoutMs === undefined
    ? await runHere(args, env)
    : await runBin(args, { cwd: ROOT, env, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  let report: ReportJson | undefined;
  try {
    report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ReportJson;
  } catch {
    // No report (usage error, unreachable target).
  }
  return { ...ran, reportDir, ...(report ? { report } : {}) };
}

export function verdicts(run: ClientRun): Record<string, string> {
  return Object.fromEntries((run.report?.cases ?? []).map((c) => [c.id, c.verdict]));
}
