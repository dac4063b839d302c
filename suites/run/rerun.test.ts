// `run --rerun-failed [report.json]`: only the cases a previous report has as FAIL or ERROR (with
// --only, those of them it matches); nothing to rerun is said and is exit 0; a report that is
// missing or not a run's is exit 2 naming the file. The command in this process (runFromFlags).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../harness/cli/commands/run.ts';
import type { RunReport } from '../../harness/results/index.ts';
import { faultyReceiverRun } from './faulty-receiver-run.ts';

const { dir, run: runWith } = faultyReceiverRun('cc-rerun-');
const run = (options: Omit<RunOptions, 'target'>) => runWith(options);
const reportIn = (reportDir: string) => JSON.parse(readFileSync(join(dir, reportDir, 'report.json'), 'utf8')) as RunReport;

describe('run --rerun-failed', () => {
  it('reruns only the cases that were FAIL or ERROR in the report of --report-dir', async () => {
    expect((await run({ only: 'receiver.token.*', reportDir: 'a' })).code).toBe(1);
    const first = reportIn('a').cases;
    expect(first.length).toBe(11);
    // The fault's case, and any a busy machine made ERROR (a reply past its limit) the first time.
    const failed = first.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => c.id);
    expect(failed).toContain('receiver.token.different-case');
    const again = await run({ rerunFailed: true, reportDir: 'a' });
    expect(again.code).toBe(1);
    expect(reportIn('a').cases.map((c) => c.id)).toEqual(failed);
    expect(reportIn('a').cases.find((c) => c.id === 'receiver.token.different-case')?.verdict).toBe('FAIL');
    expect(again.stdout).toMatch(new RegExp(`: ${failed.length} case\\(s\\) against `));
  });
  it('a report named as its value; with --only, the failed cases it matches; none left is said, exit 0', async () => {
    expect((await run({ only: 'receiver.token.*', reportDir: 'b' })).code).toBe(1);
    const none = await run({ rerunFailed: join(dir, 'b', 'report.json'), only: 'receiver.token.valid', reportDir: 'c' });
    expect(none.code).toBe(0);
    // Of the fault's case (and any a busy machine made ERROR), none is receiver.token.valid.
    const failedInB = reportIn('b').cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').length;
    const which = failedInB === 1 ? 'the 1 case that was' : `none of the ${failedInB} cases that were`;
    expect(none.stdout).toContain(`--rerun-failed: nothing to rerun: ${which} FAIL or ERROR in ${join(dir, 'b', 'report.json')} ${failedInB === 1 ? 'does not match' : 'matches'} --only "receiver.token.valid"`);
    expect((await run({ only: 'receiver.token.valid', reportDir: 'd' })).code).toBe(0);
    const passed = await run({ rerunFailed: true, reportDir: 'd' });
    expect(passed.code).toBe(0);
    expect(passed.stdout).toBe(`collect-conformance: --rerun-failed: nothing to rerun: no case was FAIL or ERROR in ${join('d', 'report.json')} (1 case)\n`);
  });
  it('a report that is missing, or not a run\'s report.json: exit 2 naming the file', async () => {
    await expect(run({ rerunFailed: 'nowhere.json' })).rejects.toMatchObject({ exitCode: 2, code: 'ERR_RERUN_REPORT', message: expect.stringContaining('nowhere.json: cannot read the file (ENOENT)') });
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ cases: 'none' }));
    await expect(run({ rerunFailed: 'other.json' })).rejects.toMatchObject({ code: 'ERR_RERUN_REPORT', message: expect.stringContaining('is not the report.json of a run') });
  });
});
