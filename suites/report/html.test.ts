import { describe, expect, it } from 'vitest';
import { renderHtml, timelineSvg } from '../../harness/report/index.ts';
import { sampleReport } from './sample.ts';

const html = renderHtml(sampleReport());

/** The row of one case, up to the next row. */
function rowOf(id: string): string {
  const start = html.indexOf(`<tr id="${id}" `);
  expect(start, id).toBeGreaterThan(0);
  return html.slice(start, html.indexOf('</tr>', start));
}

describe('index.html: self-contained (opens offline)', () => {
  it('references no resource by URL: no src/href/url() to http(s), no <script>, no <link>, no @import', () => {
    expect(html).not.toMatch(/\b(src|href|xlink:href|action)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<iframe/i);
  });
  it('tells the browser to fetch nothing (Content-Security-Policy default-src none)', () => {
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });
  it('inlines its CSS', () => {
    expect(html).toMatch(/<style>[\s\S]+\.badge[\s\S]+<\/style>/);
  });
});

describe('index.html: text is HTML-escaped', () => {
  it('a reason with <script>&"\' is shown as text', () => {
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39; ]]&gt; done');
  });
  it('the waiver reason is escaped', () => {
    expect(rowOf('service.sandbox.leading-zeros')).toContain('waived: vendor ticket 12 &lt;b&gt; (expires 2027-01-31)');
  });
  it('control characters and lone surrogates are shown as \\uXXXX, never written raw', () => {
    expect(html).toContain('control \\u0001 character and a lone \\uD800 surrogate');
    expect(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(html)).toBe(false);
  });
  it('non-ASCII text is kept, with a utf-8 charset', () => {
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('Grüße ✓ 𝄞');
  });
});

describe('index.html: summary and rows grouped by spec section', () => {
  it('shows a badge per verdict with its count', () => {
    for (const [v, n] of [['PASS', 4], ['FAIL', 3], ['WARN', 1], ['SKIP', 1], ['ERROR', 1]] as const) {
      expect(html).toContain(`v-${v}">${v} ${n}</span>`);
    }
  });
  it('one section per spec section, in section order (§5.3 < §5.4 < §6 < §8)', () => {
    const headings = [...html.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(['§5.3', '§5.4', '§6', '§8']);
  });
  it('a checkbox hides passing rows without any script (CSS :has on r-PASS rows)', () => {
    expect(html).toContain('<input type="checkbox" id="hide-pass">');
    expect(html).toContain('body:has(#hide-pass:checked) tr.r-PASS{display:none}');
    expect(html.match(/<tr id="[^"]+" class="r-PASS">/g)).toHaveLength(4);
  });
  it('a row per case', () => {
    for (const c of sampleReport().cases) rowOf(c.id);
    expect(html.match(/<tr id=/g)).toHaveLength(10);
  });
  it('evidence folded under each non-PASS case with <details>, none under PASS rows', () => {
    expect(rowOf('receiver.token.wrong')).toMatch(/<details><summary>evidence<\/summary>[\s\S]*curl -sS/);
    expect(rowOf('receiver.token.missing')).not.toContain('<details>');
  });
});

describe('index.html: retry timeline chart and latency', () => {
  it('draws an inline <svg> with a mark per delivery and the intervals labelled', () => {
    const row = rowOf('service.callback.retry-backoff');
    expect(row).toContain('<svg');
    expect(row.match(/<circle /g)).toHaveLength(4);
    expect(row.match(/text-anchor="middle">100<\/text>/g)).toHaveLength(3);
  });
  it('colours marks by the answered status (500 red, 200 green)', () => {
    const row = rowOf('service.callback.retry-backoff');
    expect(row.match(/fill="#cf222e"/g)).toHaveLength(3);
    expect(row.match(/fill="#1a7f37"/g)).toHaveLength(1);
  });
  it('only cases with a timeline have a chart, passing ones too (the observed schedule is reported)', () => {
    expect(html.match(/<svg/g)).toHaveLength(2);
    const row = rowOf('service.callback.retries-stop-after-2xx');
    expect(row).toContain('<svg');
    expect(row).toContain('text-anchor="middle">212</text>');
    expect(row).toContain('<details class="pass"><summary>evidence</summary>');
  });
  it('places marks proportionally on the axis', () => {
    const svg = timelineSvg({ offsetsMs: [0, 100, 300], intervalsMs: [100, 200] });
    const xs = [...svg.matchAll(/<circle cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs).toEqual([20, 220, 620]);
  });
  it('shows latency statistics, for passing cases too', () => {
    expect(rowOf('receiver.latency.burst')).toContain('samples 50, p50 120 ms, p99 2900 ms, max 2950 ms');
    expect(rowOf('receiver.latency.single')).toContain('<div class="latency">latency: samples 1, p50 0.8 ms, p99 0.8 ms, max 0.8 ms</div>');
  });
});
