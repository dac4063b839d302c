// Runs `collect-conformance run --target FILE` as a user would (the checkout's bin, from the
// repository root, where the example target files' commands are relative to).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBin } from '../support/cli-process.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ClientRun { code: number | null; stdout: string; stderr: string; reportDir: string; report?: ReportJson }
export interface ReportJson { summary: Record<string, number>; cases: Array<{ id: string; verdict: string; reason?: string; evidence?: Record<string, unknown> }>; diagnoses?: Array<{ id: string; summary: string; cases: string[] }> }

export function targetFile(target: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cc-client-target-')), 'client.json');
  writeFileSync(path, JSON.stringify(target));
  return path;
}

/** `timeoutMs`: the command is killed (SIGKILL) after this long, and its code is then null. */
export async function runClient(target: string, env: Record<string, string> = {}, extra: string[] = [], timeoutMs?: number): Promise<ClientRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cc-client-report-'));
  const ran = await runBin(['run', '--target', target, '--report-dir', reportDir, ...extra], { cwd: ROOT, env, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
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
