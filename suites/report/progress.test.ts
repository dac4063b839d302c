import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { colorFor } from '../../harness/cli/color.ts';
import { REPORT_FILES, formatCaseLine, formatProgress, formatSummary } from '../../harness/report/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { CASES, sampleReport } from './sample.ts';

const byId = (id: string): CaseResult => CASES.find((c) => c.id === id)!;

describe('formatCaseLine: one line per finished case', () => {
  it('PASS: verdict padded, id, duration', () => {
    expect(formatCaseLine(byId('receiver.token.missing'))).toBe('PASS  receiver.token.missing  12 ms');
  });
  it('FAIL: reason appended, on one line', () => {
    expect(formatCaseLine(byId('service.callback.retry-backoff'))).toBe(
      'FAIL  service.callback.retry-backoff  512 ms  intervals do not grow: 100, 100, 100 ms',
    );
  });
  it('ERROR: a multi-line reason is folded onto the line', () => {
    expect(formatCaseLine(byId('service.auth.source-ip'))).toBe(
      'ERROR service.auth.source-ip  30 ms  connect ECONNREFUSED 127.0.0.1:9000 second line',
    );
  });
  it('WARN and SKIP: same columns', () => {
    expect(formatCaseLine(byId('receiver.latency.burst'))).toBe(
      'WARN  receiver.latency.burst  4100 ms  p99 2900 ms is close to the 3000 ms deadline',
    );
    expect(formatCaseLine(byId('receiver.idempotence.concurrent'))).toBe(
      'SKIP  receiver.idempotence.concurrent  0 ms  the target has no test hooks (hooksUrl not set)',
    );
  });
  it('a waived failure is marked, and a waiver no longer needed too', () => {
    expect(formatCaseLine(byId('service.sandbox.leading-zeros'))).toBe(
      'FAIL  service.sandbox.leading-zeros  44 ms  [waived: vendor ticket 12 <b>]  number 0244000001 rejected as 244000001',
    );
    expect(formatCaseLine(byId('service.sandbox.whitelisted'))).toBe('PASS  service.sandbox.whitelisted  20 ms  [waiver not needed]');
  });
  it('an expired waiver on a failure is "not applied"; a waived WARN is "waived"', () => {
    const expired = { ...byId('service.sandbox.leading-zeros'), reason: 'rejected; waiver expired on 2020-01-01: not applied', waiver: { reason: 'old', expires: '2020-01-01', applied: false } };
    expect(formatCaseLine(expired)).toBe('FAIL  service.sandbox.leading-zeros  44 ms  [waiver not applied]  rejected; waiver expired on 2020-01-01: not applied');
    const warn = { ...byId('receiver.latency.burst'), waiver: { reason: 'slow box', applied: true } };
    expect(formatCaseLine(warn)).toBe('WARN  receiver.latency.burst  4100 ms  [waived: slow box]  p99 2900 ms is close to the 3000 ms deadline');
  });
  it('control characters from a target never reach the terminal (ESC, C1 CSI shown as \\uXXXX)', () => {
    const hostile = { ...byId('receiver.token.wrong'), reason: 'answered \u001b[2J\u001b]0;pwned\u0007 and \u009b31m' };
    expect(formatCaseLine(hostile)).toBe('FAIL  receiver.token.wrong  15 ms  answered \\u001B[2J\\u001B]0;pwned\\u0007 and \\u009B31m');
  });
  it('fractional durations below 10 ms keep one decimal, others are rounded', () => {
    expect(formatCaseLine({ ...byId('receiver.token.missing'), durationMs: 3.24 })).toBe('PASS  receiver.token.missing  3.2 ms');
    expect(formatCaseLine({ ...byId('receiver.token.missing'), durationMs: 15.6 })).toBe('PASS  receiver.token.missing  16 ms');
  });
  it('no ANSI escapes unless color is asked for; with color, the verdict is coloured', () => {
    for (const c of CASES) expect(formatCaseLine(c)).not.toContain('\u001b[');
    expect(formatCaseLine(byId('receiver.token.missing'), { color: true })).toBe('\u001b[32mPASS \u001b[39m receiver.token.missing  12 ms');
    expect(formatCaseLine(byId('receiver.token.wrong'), { color: true })).toMatch(/^\u001b\[31mFAIL \u001b\[39m receiver\.token\.wrong/);
  });
});

describe('formatSummary: closing lines', () => {
  const cwd = '/work/project';
  const files = REPORT_FILES.map((f) => join(cwd, 'reports', 'latest', f));
  it('leads with the verdict, the shared causes and the failures, then counts every verdict and names the report directory and files', () => {
    const report = sampleReport();
    expect(formatSummary(report, files, { cwd })).toBe([
      'FAILED: 3 of 10 cases failed (2 FAIL, 1 ERROR); 1 failure waived; 1 WARN, 1 SKIP',
      'Shared causes:',
      `  1. every connection to 127.0.0.1:9000 was refused: the service is likely not running there & <script>alert("x")</script> & "quoted" 'single' ]]> done (2 cases)`,
      'Failures and warnings:',
      `  FAIL  receiver.token.wrong  15 ms  answered 200, expected 403; <script>alert("x")</script> & "quoted" 'single' ]]> done`,
      '  FAIL  service.callback.retry-backoff  512 ms  intervals do not grow: 100, 100, 100 ms',
      '  FAIL  service.sandbox.leading-zeros  44 ms  [waived: vendor ticket 12 <b>]  number 0244000001 rejected as 244000001',
      '  ERROR service.auth.source-ip  30 ms  connect ECONNREFUSED 127.0.0.1:9000 second line',
      '  WARN  receiver.latency.burst  4100 ms  p99 2900 ms is close to the 3000 ms deadline',
      '10 cases: 4 PASS, 3 FAIL, 1 WARN, 1 SKIP, 1 ERROR — reports in reports/latest/ (report.json, junit.xml, report.md, index.html)',
      '1 waived: service.sandbox.leading-zeros',
    ].join('\n'));
  });
  it('a long list of failures is cut, pointing to the reports', () => {
    const report = sampleReport();
    const lines = formatSummary(report, files, { cwd, maxFailures: 2 }).split('\n');
    expect(lines.filter((l) => /^  (FAIL|ERROR|WARN)/.test(l))).toHaveLength(2);
    expect(lines).toContain('  … and 3 more (see report.md or index.html)');
  });
  it('a run where every case passed: only the counts; a directory outside cwd is shown absolute; one case is "1 case"', () => {
    const report = sampleReport();
    report.cases = [CASES[0]!];
    report.summary = { PASS: 1, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0 };
    delete report.diagnoses;
    expect(formatSummary(report, ['/tmp/out/report.json'], { cwd })).toBe(
      '1 case: 1 PASS, 0 FAIL, 0 WARN, 0 SKIP, 0 ERROR — reports in /tmp/out/ (report.json)',
    );
  });
  it('no ANSI escapes unless color is asked for', () => {
    expect(formatSummary(sampleReport(), files, { cwd })).not.toContain('\u001b[');
    expect(formatSummary(sampleReport(), files, { cwd, color: true })).toContain('\u001b[31m3 FAIL\u001b[39m');
    expect(formatSummary(sampleReport(), files, { cwd, color: true }).split('\n')[0]).toBe('\u001b[31mFAILED: 3 of 10 cases failed (2 FAIL, 1 ERROR); 1 failure waived; 1 WARN, 1 SKIP\u001b[39m');
  });
});

describe('colour: only on a terminal, never with NO_COLOR (no-color.org)', () => {
  it('a TTY without NO_COLOR gets colour', () => {
    expect(colorFor({ isTTY: true }, {})).toBe(true);
  });
  it('a pipe or a file never does', () => {
    expect(colorFor({ isTTY: false }, {})).toBe(false);
    expect(colorFor({}, {})).toBe(false);
  });
  it('NO_COLOR set to any non-empty value turns it off; an empty NO_COLOR does not', () => {
    for (const value of ['1', 'true', '0', 'no']) expect(colorFor({ isTTY: true }, { NO_COLOR: value }), value).toBe(false);
    expect(colorFor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
  });
});

describe('terminal lines: text a target chose never reaches the terminal raw', () => {
  it('control characters and bidi overrides in a reason are shown as \\uXXXX', () => {
    const hostile = { ...byId('service.callback.retry-backoff'), reason: 'got \u001b[2J\u001b]0;owned\u0007 and \u202Eevil\u202C \u2066x\u2069 \u200F' };
    const line = formatCaseLine(hostile);
    expect(line).toBe('FAIL  service.callback.retry-backoff  512 ms  got \\u001B[2J\\u001B]0;owned\\u0007 and \\u202Eevil\\u202C \\u2066x\\u2069 \\u200F');
    expect(line).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F]/);
  });
});

describe('formatProgress: one status line while cases run at once', () => {
  it('counts what is done and names what is running', () => {
    expect(formatProgress({ done: 12, total: 63, running: ['receiver.latency.burst', 'service.callback.retry-back-off'] }))
      .toBe('12/63 done · running 2: receiver.latency.burst, service.callback.retry-back-off');
    expect(formatProgress({ done: 63, total: 63, running: [] })).toBe('63/63 done');
  });
  it('never wider than the terminal: running ids are cut to a count', () => {
    const running = Array.from({ length: 8 }, (_, i) => `service.callback.case-number-${i}`);
    const line = formatProgress({ done: 1, total: 63, running }, { width: 80 });
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line).toMatch(/^1\/63 done · running 8: service\.callback\.case-number-0, .*… \(\+\d\)$/);
  });
  it('a hostile id cannot move the cursor (escape characters shown as text)', () => {
    expect(formatProgress({ done: 0, total: 1, running: ['x\u001b[2Jy'] })).toBe('0/1 done · running 1: x\\u001B[2Jy');
  });
});

describe('formatProgress with waits: how long each case has run, what the longest waits for', () => {
  it('seconds per case; the longest-waiting one says what it waits for', () => {
    const line = formatProgress({
      done: 3, total: 36,
      running: [
        { id: 'service.callback.retry-back-off', waitedMs: 14_200, doing: 'waiting for delivery 3/4' },
        { id: 'service.auth.wrong-secret', waitedMs: 900, doing: 'watching 10000 ms' },
      ],
    }, { width: 140 });
    expect(line).toBe('3/36 done · running 2: service.callback.retry-back-off 14 s (waiting for delivery 3/4), service.auth.wrong-secret 0 s');
  });
});

describe('RunStatus: a live line on a terminal, plain lines elsewhere', () => {
  it('on a terminal the status line is cleared before each case line and redrawn after', async () => {
    const { RunStatus } = await import('../../harness/cli/run-status.ts');
    const err: string[] = [];
    const out: string[] = [];
    const status = new RunStatus({ stderr: (t) => err.push(t), live: true, width: 80 }, 2, () => 5000);
    status.started('receiver.token.wrong');
    status.progress('receiver.token.wrong', 'sending \u001b[2J');
    status.around(() => out.push('PASS  preflight.receiver  3 ms\n'));
    expect(err.at(-1)).toBe('\r\u001b[K0/2 done · running 1: receiver.token.wrong 0 s (sending \\u001B[2J)');
    status.ended('receiver.token.wrong');
    status.around(() => out.push('PASS  receiver.token.wrong  3 ms\n'));
    // Nothing runs any more: the line is cleared and not drawn again.
    expect(err.at(-1)).toBe('\r\u001b[K');
    status.stop();
    expect(out).toHaveLength(2);
  });
  it('without a terminal: no cursor movement at all when a run writes its lines', async () => {
    const { RunStatus } = await import('../../harness/cli/run-status.ts');
    const err: string[] = [];
    const status = new RunStatus({ stderr: (t) => err.push(t), live: false }, 1);
    status.started('receiver.token.wrong');
    status.around(() => {});
    status.ended('receiver.token.wrong');
    status.stop();
    expect(err).toEqual([]);
    expect(status.line()).toBe('1/1 done');
  });
});
