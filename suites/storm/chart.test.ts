// The storm's chart in index.html (harness/report/storm-chart.ts): attempts and p99 per second, the deadline.
import { describe, expect, it } from 'vitest';
import { renderHtml, renderJunit, renderMarkdown } from '../../harness/report/index.ts';
import { stormChartSvg } from '../../harness/report/storm-chart.ts';
import type { RunReport } from '../../harness/results/index.ts';

const seconds = [{ second: 0, sent: 100, p99Ms: 40, notOk: 0 }, { second: 1, sent: 120, p99Ms: 1500, notOk: 30 }];
const report = (kind: RunReport['kind']): RunReport => ({
  tool: { name: 'collect-conformance', version: '0' }, kind, target: {}, startedAt: '', seed: 1,
  summary: { PASS: 1, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0 },
  cases: [{ id: 'storm.reply-deadline', title: 't', level: 'MUST', specRef: '§6 rule 3', verdict: 'PASS', durationMs: 1, evidence: { perSecond: seconds, replyDeadlineMs: 1000 } }],
});

describe('storm chart: replies and latency over time', () => {
  it('a bar per second (its part not answered 2xx in red), the p99 line and the dashed deadline', () => {
    const svg = stormChartSvg(seconds, 1000);
    expect(svg.match(/<rect /g)).toHaveLength(3);
    expect(svg).toContain('<title>second 1: 120 attempts, 30 not answered 2xx, p99 1500 ms</title>');
    expect(svg).toContain('<polyline points=');
    expect(svg).toContain('deadline 1000 ms');
  });
  it('nothing drawn for evidence without seconds, or with none drawable', () => {
    expect(stormChartSvg([], 1000)).toBe('');
    expect(stormChartSvg([{ second: Number.NaN, sent: 1, p99Ms: 1, notOk: 0 }], 1000)).toBe('');
    expect(stormChartSvg(undefined)).toBe('');
  });
  it('index.html of a storm report holds it', () => {
    expect(renderHtml(report('storm'))).toContain('aria-label="storm: attempts and p99 reply time per second over 2 s"');
  });
});

describe('a storm report is titled a storm report in each file', () => {
  it('report.md, index.html and junit.xml say "storm"; a run\'s report stays the conformance report', () => {
    expect(renderMarkdown(report('storm')).split('\n')[0]).toBe('# collect-conformance storm report');
    expect(renderHtml(report('storm'))).toContain('<title>collect-conformance storm report</title>');
    expect(renderJunit(report('storm'))).toContain('<testsuites name="collect-conformance storm"');
    expect(renderMarkdown(report('run')).split('\n')[0]).toBe('# collect-conformance conformance report');
    expect(renderHtml(report('run'))).toContain('<title>collect-conformance conformance report</title>');
  });
});
