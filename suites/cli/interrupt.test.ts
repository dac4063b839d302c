// Issue 22: SIGINT or SIGTERM during a run (Ctrl-C, `timeout`, a cancelled CI job, `docker
// stop`). The command as installed, signalled midway: it stops the commands it started (the
// SDK adapter, the signer: their whole process group), writes what the reports can honestly say
// (the run was interrupted; the cases that had not finished are ERROR, never PASS; report.json's
// `interrupted`, valid against its schema), gives the report directory back, and ends with 130
// (SIGINT) or 143 (SIGTERM).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { LOCK_FILE } from '../../harness/run/index.ts';
import { validateReportJson } from '../../harness/report/index.ts';
import type { RunReport } from '../../harness/results/index.ts';
import { startBin, stopAll, type Started } from '../support/cli-process.ts';
import { ROOT, targetFile } from '../client/run-client.ts';

afterAll(() => {
  stopAll();
  for (const pid of pidsSeen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
});

const pidsSeen: number[] = [];

/** Running, not a zombie waiting to be reaped (whoever reaps in this container). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return !existsSync('/proc/self');
    } catch {
      return false;
    }
  }
}

async function until(what: string, test: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function pidsIn(file: string): number[] {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

interface Interrupted { run: Started; code: number | null; report: RunReport; reportDir: string }

/** Starts `args`, sends `signal` once `ready` holds, and reads what the run left. */
async function interrupt(args: string[], signal: NodeJS.Signals, ready: (run: Started) => boolean, env: Record<string, string> = {}): Promise<Interrupted> {
  const reportDir = mkdtempSync(join(tmpdir(), 'cc-interrupt-'));
  const run = startBin([...args, '--report-dir', reportDir], { cwd: ROOT, env });
  await until('the run to be under way', () => ready(run));
  run.child.kill(signal);
  const code = await Promise.race([run.exit, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))]);
  if (code === 'hung') throw new Error(`the run did not end within 15 s of ${signal}: ${run.stderr()}`);
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport;
  return { run, code, report, reportDir };
}

const passLines = (run: Started) => (run.stdout().match(/^PASS  (client\.|vectors\.)/gm) ?? []).length;

describe.concurrent('a client run interrupted midway', () => {
  for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal}: the adapter and its helper stopped, the finished cases kept, every other case ERROR (not PASS), report.json says so, the lock given back, exit ${status}`, async () => {
      const pids = join(mkdtempSync(join(tmpdir(), 'cc-interrupt-pids-')), 'pids');
      const target = targetFile({ side: 'client', command: 'node suites/client/fixtures/slow-adapter.mjs', timing: { answerDeadlineMs: 10000 } });
      const { run, code, report, reportDir } = await interrupt(['run', '--target', target], signal, (r) => passLines(r) >= 3, { PIDS_FILE: pids, SLOW_MS: '150' });
      expect(code, run.stderr()).toBe(status);
      expect(run.stderr()).toContain(`interrupted by ${signal}`);
      // The adapter and the helper it started: both stopped, the whole group.
      const started = pidsIn(pids);
      pidsSeen.push(...started);
      expect(started.length).toBeGreaterThanOrEqual(2);
      for (const pid of started) expect(running(pid), `pid ${pid} still runs`).toBe(false);
      // The report: valid, marked interrupted, nothing unfinished counted as PASS.
      expect(validateReportJson(report)).toEqual([]);
      expect(report.finishedAt).toBeDefined();
      expect(report.interrupted).toMatchObject({ signal, notFinished: expect.any(Array) });
      const notFinished = report.interrupted!.notFinished;
      expect(notFinished.length).toBeGreaterThan(0);
      const byId = new Map(report.cases.map((c) => [c.id, c]));
      for (const id of notFinished) {
        expect(byId.get(id)?.verdict, id).toBe('ERROR');
        expect(byId.get(id)?.reason, id).toMatch(new RegExp(`^(not run: the run was interrupted \\(${signal}\\) before this case started|interrupted \\(${signal}\\) while under way, after \\d+ ms: no verdict)$`));
      }
      const done = report.cases.filter((c) => !notFinished.includes(c.id));
      expect(done.length).toBeGreaterThanOrEqual(3);
      for (const c of done) expect(c.verdict, c.id).toBe('PASS');
      // Every case of the run is accounted for, and the cause is named first.
      expect(report.cases.length).toBe(CLIENT_CASES.length);
      expect(report.diagnoses?.[0]).toMatchObject({ id: 'run.interrupted', cases: notFinished });
      expect(report.diagnoses![0]!.summary).toMatch(new RegExp(`^the run was interrupted by ${signal}: ${notFinished.length} of ${CLIENT_CASES.length} cases had not finished`));
      expect(run.stdout()).toMatch(/Shared causes:\n {2}1\. the run was interrupted by/);
      expect(readFileSync(join(reportDir, 'report.md'), 'utf8')).toContain(`the run was interrupted by ${signal}`);
      expect(existsSync(join(reportDir, LOCK_FILE))).toBe(false);
    });
  }
});

describe.concurrent('a vectors run interrupted while its signer hangs', () => {
  it('SIGTERM: the signer stopped, the vectors signed so far kept, the rest ERROR, exit 143', async () => {
    const pids = join(mkdtempSync(join(tmpdir(), 'cc-interrupt-pids-')), 'pids');
    // The signer writes its pid, then hangs on vector 3 (it answers 1 and 2).
    const signer = `echo $$ >> ${pids}; exec node suites/signer-protocol/fixtures/hang-signer.mjs vectors.signature.3`;
    const { run, code, report, reportDir } = await interrupt(
      ['vectors', '--only', 'vectors.signature.1,vectors.signature.2,vectors.signature.3,vectors.signature.4', '--signer', signer, '--timeout', '20000'],
      'SIGTERM', (r) => passLines(r) + (r.stdout().match(/^WARN /gm) ?? []).length >= 2,
    );
    expect(code, run.stderr()).toBe(143);
    const started = pidsIn(pids);
    pidsSeen.push(...started);
    for (const pid of started) expect(running(pid), `signer pid ${pid} still runs`).toBe(false);
    expect(validateReportJson(report)).toEqual([]);
    expect(report.interrupted).toMatchObject({ signal: 'SIGTERM', notFinished: ['vectors.signature.3', 'vectors.signature.4'] });
    // Under way, or (the signal came while vector 2's result was being written) not yet sent.
    expect(report.cases.find((c) => c.id === 'vectors.signature.3')).toMatchObject({
      verdict: 'ERROR', reason: expect.stringMatching(/^(interrupted \(SIGTERM\) while under way, after \d+ ms: no verdict|not run: the run was interrupted \(SIGTERM\) before this case started)$/),
    });
    expect(report.cases.find((c) => c.id === 'vectors.signature.4')).toMatchObject({ verdict: 'ERROR', reason: 'not run: the run was interrupted (SIGTERM) before this case started' });
    expect(existsSync(join(reportDir, LOCK_FILE))).toBe(false);
  });
});
