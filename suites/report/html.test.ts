import { describe, expect, it } from 'vitest';
import { renderHtml, timelineSvg } from '../../harness/report/index.ts';
import { sampleReport } from './sample.ts';

const html = renderHtml(sampleReport());

/** The rows of one case (its row and the full-width row below it with chart and evidence). */
function rowOf(id: string): string {
  const start = html.indexOf(`<tbody id="${id}" `);
  expect(start, id).toBeGreaterThan(0);
  return html.slice(start, html.indexOf('</tbody>', start));
}

/** The part of the page before the first side's cases: what a reader sees first. */
const top = html.slice(0, html.indexOf('<section class="side'));

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
  it('a name quoted as `code` in a reason is shown as code; the rest stays escaped', () => {
    const report = sampleReport();
    report.cases[1]!.reason = 'follows `locale-order` <b> `<i>`';
    expect(renderHtml(report)).toContain('<div class="reason">follows <code>locale-order</code> &lt;b&gt; <code>&lt;i&gt;</code></div>');
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

describe('index.html: the verdict, the shared causes and the failures come first', () => {
  it('says the verdict in one line, then a badge per verdict with its count', () => {
    expect(top).toContain('<p class="headline failed" id="summary">FAILED: 3 of 10 cases failed (2 FAIL, 1 ERROR); 1 failure waived; 1 WARN, 1 SKIP</p>');
    for (const [v, n] of [['PASS', 4], ['FAIL', 3], ['WARN', 1], ['SKIP', 1], ['ERROR', 1]] as const) {
      expect(top).toContain(`v-${v}">${v} ${n}</span>`);
    }
  });
  it('lists the diagnoses, each with the cases it explains linked', () => {
    expect(top).toContain('<h2 id="diagnoses-h">Shared causes (1)</h2>');
    expect(top).toMatch(/<li id="diagnosis-1">every connection to 127\.0\.0\.1:9000 was refused: the service is likely not running there &amp; &lt;script&gt;/);
    expect(top).toContain('explains 2 cases: <a href="#service.auth.source-ip"><code>service.auth.source-ip</code></a>, <a href="#service.callback.retry-backoff">');
  });
  it('shows three shared causes, folds the rest (the failures stay on the first screen)', () => {
    const report = sampleReport();
    report.diagnoses = [1, 2, 3, 4, 5].map((n) => ({ id: `d${n}`, summary: `cause ${n}`, cases: ['receiver.token.wrong'] }));
    const page = renderHtml(report);
    expect(page).toMatch(/<ol class="diagnoses" id="diagnoses">\n<li id="diagnosis-1">cause 1[\s\S]*<li id="diagnosis-3">cause 3[^\n]*\n<\/ol>\n<details><summary>2 more shared causes<\/summary><ol class="diagnoses" start="4">\n<li id="diagnosis-4">cause 4/);
  });
  it('lists the failures, FAIL then ERROR then WARN, each linking to its evidence, the diagnosis marked', () => {
    const list = top.slice(top.indexOf('<table class="failures"'));
    const ids = [...list.matchAll(/<td class="fid"><a href="#([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['ev-receiver.token.wrong', 'ev-service.callback.retry-backoff', 'service.sandbox.leading-zeros', 'ev-service.auth.source-ip', 'ev-receiver.latency.burst']);
    expect(list).toContain('<code>service.auth.source-ip</code></a> <span class="explains">(shared cause <a href="#diagnosis-1">1</a>)</span>');
    expect(list).toContain('<code>service.sandbox.leading-zeros</code></a> <span class="waiver">waived</span>');
  });
  it('every link to a case or its evidence has a target on the page', () => {
    for (const [, target] of html.matchAll(/href="#([^"]+)"/g)) {
      expect(html, target).toContain(`id="${decodeURIComponent(target!)}"`);
    }
  });
  it('the target comes last, not at the top', () => {
    expect(top).not.toContain('callbackUrl');
    expect(html.indexOf('<h2 id="target">')).toBeGreaterThan(html.lastIndexOf('<tbody'));
  });
  it('a vectors report says no seed (vectors runs draw nothing at random)', () => {
    expect(top).toContain(' · seed 42 · ');
    expect(renderHtml({ ...sampleReport(), kind: 'vectors', seed: 0 })).not.toMatch(/seed/);
  });
});

describe('index.html: cases grouped by side, then case group', () => {
  it('one section per side (service before receiver), one per case group inside it', () => {
    expect([...html.matchAll(/<section class="side[^"]*" id="side-([^"]+)">/g)].map((m) => m[1])).toEqual(['service', 'receiver']);
    expect([...html.matchAll(/<h3>([^<]+)<span class="counts">([^<]+)<\/span><\/h3>/g)].map((m) => `${m[1]}: ${m[2]}`)).toEqual([
      'service.callback: 1 PASS, 1 FAIL', 'service.auth: 1 ERROR', 'service.sandbox: 1 PASS, 1 FAIL',
      'receiver.token: 1 PASS, 1 FAIL', 'receiver.latency: 1 PASS, 1 WARN', 'receiver.idempotence: 1 SKIP',
    ]);
  });
  it('a third side (client) gets its own section without any change to the writer', () => {
    const report = sampleReport();
    report.cases.push({ id: 'client.collect.body-bytes', title: 't', level: 'MUST', specRef: '§5', verdict: 'FAIL', reason: 'r', durationMs: 1 });
    const page = renderHtml(report);
    expect([...page.matchAll(/id="side-([^"]+)"/g)].map((m) => m[1])).toEqual(['service', 'receiver', 'client']);
    expect(page).toContain('<section class="group" id="group-client.collect">');
  });
  it('a checkbox hides passing cases and groups and sides with nothing else, without any script', () => {
    expect(html).toContain('<input type="checkbox" id="hide-pass">');
    expect(html).toContain('body:has(#hide-pass:checked) .r-PASS,body:has(#hide-pass:checked) .all-pass{display:none}');
    expect(html.match(/<tbody id="[^"]+" class="case r-PASS">/g)).toHaveLength(4);
    const report = sampleReport();
    report.cases = report.cases.filter((c) => c.id !== 'receiver.token.wrong');
    expect(renderHtml(report)).toContain('<section class="group all-pass" id="group-receiver.token">');
  });
  it('a row per case, the evidence below it across the whole table (id and spec columns keep their width)', () => {
    for (const c of sampleReport().cases) rowOf(c.id);
    expect(html.match(/<tbody id=/g)).toHaveLength(10);
    expect(html).toContain('<col style="width:24%">');
    expect(rowOf('receiver.token.wrong')).toMatch(/<tr class="more"><td colspan="6"><details><summary>evidence: 1 request, record readings, notes<\/summary>\n<span class="anchor" id="ev-receiver\.token\.wrong"><\/span>[\s\S]*curl -sS/);
  });
  it('evidence of a passing case is folded and greyed; a case without evidence has no second row', () => {
    expect(rowOf('service.callback.retries-stop-after-2xx')).toContain('<details class="pass"><summary>evidence: deliveries (2), timeline</summary>\n<span class="anchor" id="ev-service.callback.retries-stop-after-2xx"></span>');
    expect(rowOf('receiver.token.missing')).not.toContain('<details');
    expect(rowOf('receiver.token.missing')).not.toContain('class="more"');
  });
  it('a case a diagnosis explains links to it', () => {
    // Its start only (the whole text is at the top of the page and in the tooltip).
    expect(rowOf('service.auth.source-ip')).toMatch(/<div class="cause" title="every connection[^"]*done">shared cause <a href="#diagnosis-1">1<\/a>: every connection to 127\.0\.0\.1:9000 was refused: the service is likely not running there &amp; &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp;…<\/div>/);
  });
  it('the reply deadline counts only for receiver cases, also in a run of both sides', () => {
    const report = sampleReport();
    report.target = { side: 'all', embedded: true, targets: [{ side: 'service' }, { side: 'receiver', timing: { replyDeadlineMs: 1000 } }] };
    const burst = report.cases.find((c) => c.id === 'receiver.latency.burst')!;
    report.cases.push({ ...structuredClone(burst), id: 'service.auth.burst', verdict: 'FAIL', reason: 'r' });
    const page = renderHtml(report);
    const row = (id: string): string => page.slice(page.indexOf(`<tbody id="${id}"`), page.indexOf('</tbody>', page.indexOf(`<tbody id="${id}"`)));
    expect(row('receiver.latency.burst')).toContain('1 of 5 answered 503; 2 of 5 took longer than 1000 ms');
    expect(row('service.auth.burst')).toContain('4 of 5 answered 200; 1 of 5 answered 503\nanswer time');
  });
  it('a burst of alike requests is shown as one request and the distribution of the rest', () => {
    const row = rowOf('receiver.latency.burst');
    expect(row).toContain('<summary>evidence: 5 requests, latency</summary>');
    expect(row.match(/curl -sS/g)).toHaveLength(1);
    expect(row).toContain('<h4>requests 1–5: alike, request 1 shown above</h4>');
    expect(row).toContain('5 requests like this one; 4 of 5 answered 200; 1 of 5 answered 503; 2 of 5 took longer than 2000 ms');
  });
});

describe('index.html: retry timeline chart and latency', () => {
  it('draws an inline <svg> with a mark per delivery, the intervals labelled with their unit, the axis named', () => {
    const row = rowOf('service.callback.retry-backoff');
    expect(row).toContain('<svg');
    expect(row.match(/<circle /g)).toHaveLength(4);
    expect(row.match(/text-anchor="middle" class="quiet">↔ 100 ms<\/text>/g)).toHaveLength(3);
    expect(row).toContain("time since the case's first request (ms)");
  });
  it('has a legend: what the colours mean and that the numbers are intervals, not statuses', () => {
    expect(rowOf('service.callback.retry-backoff')).toContain('delivery answered 2xx</span><span><span class="dot" style="background:#cf222e"></span>delivery answered non-2xx (the listener asked for a retry)</span><span>↔ ms between two deliveries</span>');
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
    expect(row).toContain('>↔ 212 ms</text>');
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
