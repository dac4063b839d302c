// The run as a library (docs/ci.md): runConformance is the whole pipeline of `run`, resolving with
// report.json's object; nothing printed and nothing written unless a reporter is asked for; the
// reporters told in order (start, the preflight before its cases, results in case order, the end
// with the very report it resolves with); a bad option is a UsageError with its code, as the
// command's exit 2.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { exitStatusOf, runConformance, UsageError, type RunReporter } from '../../harness/run/index.ts';
import { REPORT_FILES, validateReportJson } from '../../harness/report/index.ts';
import type { RunReport } from '../../harness/results/index.ts';

const TOKEN_CASES = RECEIVER_CASES.filter((c) => c.id.startsWith('receiver.token.')).map((c) => c.id);

describe('runConformance(options) → Promise<Report>', () => {
  it('runs the embedded receiver\'s token cases: the report as report.json holds it, nothing printed, no file written, hooks in order', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cc-library-'));
    const out = vi.spyOn(process.stdout, 'write');
    const err = vi.spyOn(process.stderr, 'write');
    const told: string[] = [];
    let ended: RunReport | undefined;
    const reporter: RunReporter = {
      onRunStart: (start) => { told.push(`start ${start.cases.length} ${start.against}`); },
      onPreflight: (result) => { told.push(`preflight ${result.id} ${result.verdict}`); },
      onCaseResult: (result) => { told.push(result.id); },
      onEnd: (report) => { ended = report; told.push('end'); },
    };
    try {
      const report = await runConformance({ side: 'receiver', only: 'receiver.token.*', seed: 11, cwd, reporters: [reporter] });
      expect(out).not.toHaveBeenCalled();
      expect(err).not.toHaveBeenCalled();
      expect(readdirSync(cwd)).toEqual([]);
      expect(validateReportJson(report)).toEqual([]);
      expect(report).toMatchObject({ kind: 'run', seed: 11, summary: { PASS: TOKEN_CASES.length, FAIL: 0, ERROR: 0 } });
      expect(report.cases.map((c) => c.id)).toEqual(TOKEN_CASES);
      expect(exitStatusOf(report)).toBe(0);
      expect(ended).toBe(report);
      expect(told).toEqual([`start ${TOKEN_CASES.length} the embedded reference implementations`, 'preflight preflight.receiver PASS', ...TOKEN_CASES, 'end']);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });

  it('with reportDir: the four files, report.json the very object it resolves with', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cc-library-')), 'reports');
    const report = await runConformance({ side: 'receiver', only: 'receiver.token.valid,receiver.token.missing', reportDir: dir });
    expect(readdirSync(dir).sort()).toEqual([...REPORT_FILES].sort());
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toEqual(report);
  });

  it('bad options are a UsageError with a stable code, before anything starts', async () => {
    await expect(runConformance({ concurrency: 0 })).rejects.toMatchObject({ name: 'UsageError', code: 'ERR_USAGE', exitCode: 2 });
    await expect(runConformance({ seed: -1 })).rejects.toBeInstanceOf(UsageError);
    await expect(runConformance({ only: 'nothing.matches.*' })).rejects.toThrow(/selects no case of side all/);
    await expect(runConformance({ target: { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', callbackToken: 'a literal' } }))
      .rejects.toMatchObject({ code: 'ERR_TARGET_INVALID', message: expect.stringContaining('/callbackToken: secrets are not written in target files') });
  });
});
