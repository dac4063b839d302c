import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../harness/report/index.ts';
import { sampleReport } from './sample.ts';

const md = renderMarkdown(sampleReport());
const lines = md.split('\n');

/** Splits a table row on unescaped pipes, the way GFM does. */
function cells(row: string): string[] {
  return row.replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim());
}

describe('report.md: structure', () => {
  it('has a title, the target and a summary table with every verdict', () => {
    expect(lines[0]).toBe('# collect-conformance conformance report');
    expect(md).toContain('"callbackUrl": "http://127.0.0.1:8081/callback"');
    const header = lines.indexOf('| PASS | FAIL | WARN | SKIP | ERROR | total |');
    expect(header).toBeGreaterThan(0);
    expect(lines[header + 2]).toBe('| 4 | 3 | 1 | 1 | 1 | 10 |');
  });
  it('has one table per case group', () => {
    const groups = lines.filter((l) => l.startsWith('### ') && !/^### (PASS|FAIL|WARN|SKIP|ERROR):/.test(l));
    expect(groups).toEqual([
      '### receiver.token', '### receiver.latency', '### receiver.idempotence',
      '### service.callback', '### service.auth', '### service.sandbox',
    ]);
  });
  it('contains every case id in a table row', () => {
    for (const c of sampleReport().cases) {
      expect(lines.some((l) => l.startsWith(`| \`${c.id}\` |`)), c.id).toBe(true);
    }
  });
  it('marks the waived failure in its row', () => {
    const row = lines.find((l) => l.startsWith('| `service.sandbox.leading-zeros` |'))!;
    expect(cells(row)[2]).toBe('FAIL (waived)');
  });
});

describe('report.md: table cells are escaped', () => {
  it('a `|` in a title stays inside its cell (six cells per row)', () => {
    const row = lines.find((l) => l.startsWith('| `receiver.token.wrong` |'))!;
    expect(cells(row)).toHaveLength(6);
    expect(cells(row)[3]).toBe('a wrong token \\| gets 403 and no action');
  });
  it('no table row contains a raw line break or raw HTML', () => {
    for (const l of lines.filter((x) => x.startsWith('| `'))) {
      expect(cells(l)).toHaveLength(6);
      expect(l).not.toMatch(/<(?!br>)/);
    }
  });
});

describe('report.md: Measurements of passing cases', () => {
  it('lists the retry schedule and latency of passing cases that measured them', () => {
    const section = md.slice(md.indexOf('## Measurements'), md.indexOf('## Findings'));
    expect(section.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- `service.callback.retries-stop-after-2xx`: deliveries at +0, +212 ms; intervals 212 ms',
      '- `receiver.latency.single`: latency samples 1, p50 0.8 ms, p99 0.8 ms, max 0.8 ms',
    ]);
  });
});

describe('report.md: Findings', () => {
  const findings = md.slice(md.indexOf('## Findings'));
  it('lists each non-PASS case and no PASS case', () => {
    for (const c of sampleReport().cases) {
      const heading = `### ${c.verdict}: ${c.id}`;
      if (c.verdict === 'PASS') expect(findings).not.toContain(c.id);
      else expect(findings, c.id).toContain(heading);
    }
  });
  it('control characters and lone surrogates are shown as \\uXXXX, never written raw', () => {
    expect(findings).toContain('control \\u0001 character and a lone \\uD800 surrogate');
  });
  it('escapes HTML in reasons', () => {
    expect(findings).toContain('&lt;script&gt;alert("x")&lt;/script&gt; &amp; "quoted"');
    expect(findings).not.toContain('<script>');
  });
  it('shows requests, curl lines (sh), responses, hook readings in fenced blocks', () => {
    expect(findings).toContain("```sh\ncurl -sS -H \"X-Callback-Token: $COLLECT_CALLBACK_TOKEN\"");
    expect(findings).toContain('→ 200 in 3.2 ms');
    expect(findings).toContain('before: {"transaction_id":"T-1","state":"pending","actions":0}');
  });
  it('a body containing ``` gets a longer fence', () => {
    expect(findings).toContain('````text\nGET http://127.0.0.1:8081/callback');
  });
  it('shows deliveries, the retry timeline and latency stats', () => {
    expect(findings).toContain('+100 ms  GET /cb?transaction_id=T-2&status=SUCCESS&message=paid+in+full  → answered 500  (http)');
    expect(findings).toContain('offsets (ms):   0, 100, 200, 300\nintervals (ms): 100, 100, 100');
    expect(findings).toContain('samples 50, p50 120 ms, p99 2900 ms, max 2950 ms');
  });
  it('an expired waiver on a failure is shown as not applied, in the row and the finding', () => {
    const report = sampleReport();
    const c = report.cases.find((x) => x.id === 'service.sandbox.leading-zeros')!;
    c.waiver = { reason: 'old', expires: '2020-01-01', applied: false };
    const text = renderMarkdown(report);
    expect(text).toContain('| `service.sandbox.leading-zeros` | MUST | FAIL |');
    expect(text).toContain('> Waiver on file, not applied: old (expires 2020-01-01)');
  });
  it('shows the waiver of a waived failure', () => {
    expect(findings).toContain('> Waived: vendor ticket 12 &lt;b&gt; (expires 2027-01-31)');
  });
});
