// `collect-conformance storm` as a user runs it (the checkout's bin, a child process): a storm
// against a receiver target writes run's four report files and exits 1 when a case FAILs; Ctrl-C
// in the middle of the storm still writes them, judged on the ids sent, and exits 130.
// End-to-end tier (suites/support/tiers.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, validateReportJson } from '../../harness/report/index.ts';
import { CHECKOUT_BIN, runBin, startBin, stderrMatching, stopAll } from '../support/cli-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'storm-cli-'));
afterAll(() => {
  stopAll();
  rmSync(dir, { recursive: true, force: true });
});
const CHECKOUT = [process.execPath, CHECKOUT_BIN];
const TOKEN = 'storm-cli-token-1234';

describe('storm through the command', () => {
  it('against a receiver whose queue drops work: storm.none-lost FAIL, exit 1, the four report files, the token never printed', async () => {
    const receiver = startBin(['receiver', '--fault', 'dropping-work-queue', '--time-scale', '0.02'], { env: { COLLECT_CALLBACK_TOKEN: TOKEN } }, CHECKOUT);
    const url = await receiver.url;
    const target = join(dir, 'receiver.json');
    writeFileSync(target, JSON.stringify({ side: 'receiver', callbackUrl: `${url}/callback`, callbackToken: { env: 'COLLECT_CALLBACK_TOKEN' }, hooksUrl: `${url}/_conformance`, timing: { replyDeadlineMs: 3000 } }));
    const reports = join(dir, 'dropped');
    try {
      const ran = await runBin(['storm', '--target', target, '--callbacks', '300', '--rate', '300', '--seed', '5', '--report-dir', reports], { env: { COLLECT_CALLBACK_TOKEN: TOKEN }, timeoutMs: 120_000 }, );
      expect(ran.code, ran.stderr).toBe(1);
      expect(ran.stdout).toMatch(/^FAIL {2}storm\.none-lost .* answered 2xx and never applied/m);
      expect(ran.stderr).toMatch(/^seeding 300 records through hooks/m);
      expect(`${ran.stdout}${ran.stderr}`).not.toContain(TOKEN);
      const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { kind: string; seed: number; cases: Array<{ id: string; verdict: string }> };
      expect(validateReportJson(report)).toEqual([]);
      expect([report.kind, report.seed]).toEqual(['storm', 5]);
      expect(report.cases.find((c) => c.id === 'storm.none-lost')?.verdict).toBe('FAIL');
      for (const name of REPORT_FILES) expect(readFileSync(join(reports, name), 'utf8').length, name).toBeGreaterThan(100);
      expect(readFileSync(join(reports, 'index.html'), 'utf8')).toContain('storm: attempts and p99 reply time per second');
    } finally {
      receiver.child.kill('SIGTERM');
      await receiver.exit;
    }
  }, 150_000);

  it('Ctrl-C during the storm: it stops, the report is written judged on the ids sent, exit 130', async () => {
    const reports = join(dir, 'stopped');
    const run = startBin(['storm', '--callbacks', '4000', '--rate', '20', '--seed', '6', '--report-dir', reports], {}, CHECKOUT);
    await stderrMatching(run, /^storming /m).catch(async () => {
      // The seeding of 4,000 takes a while on a loaded machine: wait for it a little longer.
      for (let i = 0; i < 120 && !/^storming /m.test(run.stderr()); i++) await new Promise((resolve) => setTimeout(resolve, 500));
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    run.child.kill('SIGINT');
    expect(await run.exit, run.stderr()).toBe(130);
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { interrupted?: { signal: string }; cases: Array<{ id: string; evidence?: { notes?: string[] } }> };
    expect(report.interrupted?.signal).toBe('SIGINT');
    expect(report.cases).toHaveLength(5);
    expect(report.cases[0]!.evidence?.notes?.join(' ')).toMatch(/the storm was interrupted: judged on the \d+ ids sent at least once, of 4000 planned/);
  }, 150_000);
});
