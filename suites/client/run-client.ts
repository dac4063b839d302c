// Runs `collect-conformance run --target FILE` as a user would (the checkout's bin, from the
// repository root, where the example target files' commands are relative to).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/collect-conformance.js');

export interface ClientRun { code: number | null; stdout: string; stderr: string; reportDir: string; report?: ReportJson }
export interface ReportJson { summary: Record<string, number>; cases: Array<{ id: string; verdict: string; reason?: string; evidence?: Record<string, unknown> }> }

export function targetFile(target: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cc-client-target-')), 'client.json');
  writeFileSync(path, JSON.stringify(target));
  return path;
}

export function runClient(target: string, env: Record<string, string> = {}, extra: string[] = []): Promise<ClientRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cc-client-report-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'run', '--target', target, '--report-dir', reportDir, ...extra], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      let report: ReportJson | undefined;
      try {
        report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ReportJson;
      } catch {
        // No report (usage error, unreachable target).
      }
      resolve({ code, stdout, stderr, reportDir, ...(report ? { report } : {}) });
    });
  });
}

export function verdicts(run: ClientRun): Record<string, string> {
  return Object.fromEntries((run.report?.cases ?? []).map((c) => [c.id, c.verdict]));
}
