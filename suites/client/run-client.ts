// Runs `collect-conformance run --target FILE` from the repository root (where the example target
// files' commands are relative to; the tests' working directory), two ways:
// - runClientHere: the command's `run` in this process (runFlagsHere, the harness's sources), its
//   output and environment its own (concurrent tests share neither), its exit status as the
//   command's. The SDK adapter is still a child process (it is what the client tests test), run in
//   this process's working directory and environment: a variable it reads goes in its command
//   (`NEVER_SETTLES=always node …`). For every test whose subject is the run, not the process.
// - runClient: the installed command in a child process, as a user runs it (the process is the
//   subject: it ends, it exits 3, it can be killed with `timeoutMs`), and what the child is given in
//   `env` its adapter inherits. Under `npm run mutation`, which runs one test at a time, in this
//   process instead (main()), so that StrykerJS's mutants are the code that runs; a test that must
//   be able to kill the command (`timeoutMs`) keeps the child process.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunOptions } from '../../harness/cli/commands/run.ts';
import { runBin, type Ran } from '../support/cli-process.ts';
import { runFlagsHere, runHere } from '../support/cli-here.ts';
import { scaledAnswerLimitMs } from '../support/start-up.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ClientRun { code: number | null; stdout: string; stderr: string; reportDir: string; report?: ReportJson }
export interface ReportJson { summary: Record<string, number>; cases: Array<{ id: string; verdict: string; reason?: string; evidence?: Record<string, unknown> }>; diagnoses?: Array<{ id: string; summary: string; cases: string[] }> }

const IN_THIS_PROCESS = process.env['COLLECT_MUTATION_UNIT'] !== undefined;

export function targetFile(target: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cc-client-target-')), 'client.json');
  writeFileSync(path, JSON.stringify(target));
  return path;
}

/** A whole client run's backstop (a loaded machine's, at load 16, took over 30 s). */
export const CLIENT_RUN_TIMEOUT = { timeout: 120_000 };

/**
 * The deadline of an adapter that hangs (waited out once per hang): four times this machine's
 * present start-up of Node, since the call after a hang goes to a restarted adapter whose start-up
 * counts within that call's deadline (at a fixed 1 s, a loaded machine's restart, at load 14, left
 * an accepted call unreported); at least 1 s, at most `ceilingMs` (about the fixed value it
 * replaced, which held under load).
 */
export function scaledDeadlineMs(ceilingMs: number): Promise<number> {
  return scaledAnswerLimitMs({ floorMs: 1000, ceilingMs });
}

/** `timeoutMs`: the command is killed (SIGKILL) after this long, and its code is then null. */
export async function runClient(target: string, env: Record<string, string> = {}, extra: string[] = [], timeoutMs?: number): Promise<ClientRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cc-client-report-'));
  const args = ['run', '--target', target, '--report-dir', reportDir, ...extra];
  const ran = IN_THIS_PROCESS && timeoutMs === undefined
    ? await runHere(args, env)
    : await runBin(args, { cwd: ROOT, env, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  return withReport(ran, reportDir);
}

/**
 * `run --target TARGET --report-dir (a new folder)` with `options` (the command's flags: `only`,
 * `seed` …), in this process. `env`: the run's environment (where `{"env": …}` references are
 * read), besides PATH and HOME, as the child of runClient has it; not the adapter's.
 */
export async function runClientHere(target: string, options: Omit<RunOptions, 'target' | 'reportDir'> = {}, env: Record<string, string> = {}): Promise<ClientRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cc-client-report-'));
  return withReport(await runFlagsHere({ ...options, target, reportDir }, ROOT, env), reportDir);
}

function withReport(ran: Ran, reportDir: string): ClientRun {
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
