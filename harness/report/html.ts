// index.html: one self-contained page (inline CSS, no scripts, no fonts, no images, nothing
// fetched; a Content-Security-Policy says so to the browser too). Summary badges, one row per
// case grouped by spec section, evidence folded under every case that did not PASS, retry
// timelines as a small inline SVG chart, latency statistics.
import { VERDICTS, type CaseResult, type Delivery, type Evidence, type RunReport, type Verdict } from '../results/index.ts';
import { evidenceSections, latencyText } from './evidence-text.ts';
import { compareSections, formatMs, groupBy, specSection, waiverState } from './group.ts';
import { perCase } from './memo.ts';
import { printable } from './printable.ts';
import type { ReportWriter } from './writer.ts';

export function htmlEscape(text: string): string {
  return printable(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const COLOURS: Record<Verdict, string> = {
  PASS: '#1a7f37',
  FAIL: '#cf222e',
  WARN: '#9a6700',
  SKIP: '#6e7781',
  ERROR: '#8250df',
};

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem;color:#1f2328;background:#fff}
h1{font-size:1.5rem;margin:0 0 .5rem}h2{font-size:1.15rem;margin:1.6rem 0 .4rem;border-bottom:1px solid #d0d7de}
.meta{color:#57606a;margin:.2rem 0}
.badges{display:flex;gap:.5rem;flex-wrap:wrap;margin:1rem 0}
.badge{display:inline-block;padding:.25rem .7rem;border-radius:1rem;color:#fff;font-weight:600}
${VERDICTS.map((v) => `.v-${v}{background:${COLOURS[v]}}`).join('')}
.badge.zero{opacity:.35}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eaeef2;vertical-align:top}
th{background:#f6f8fa}
td.num{text-align:right;white-space:nowrap}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-all;margin:.3rem 0}
details{margin:.3rem 0 .6rem}summary{cursor:pointer;color:#57606a}
.reason{margin:.2rem 0}
.latency{margin:.2rem 0;color:#57606a}.chart{margin:.3rem 0}
details.pass summary{color:#8c959f}
.waiver{color:#9a6700}
h4{margin:.6rem 0 .2rem;font-size:.9rem}
svg text{font:11px ui-monospace,monospace;fill:#1f2328}
.filter{margin:.5rem 0;color:#57606a}
body:has(#hide-pass:checked) tr.r-PASS{display:none}
`;

function badge(v: Verdict, n: number): string {
  return `<span class="badge v-${v}${n === 0 ? ' zero' : ''}">${v} ${n}</span>`;
}

/** Deliveries as marks on a time axis, the interval between neighbours written above. */
export function timelineSvg(timeline: NonNullable<Evidence['timeline']>, deliveries?: readonly Delivery[]): string {
  const offsets = Array.isArray(timeline.offsetsMs) ? timeline.offsetsMs.filter((n) => Number.isFinite(n)) : [];
  const intervals = Array.isArray(timeline.intervalsMs) ? timeline.intervalsMs : [];
  const width = 640;
  const height = 74;
  const left = 20;
  const right = width - 20;
  const axisY = 46;
  const span = Math.max(1, ...offsets);
  const x = (ms: number): number => left + ((right - left) * Math.max(0, ms)) / span;
  const parts: string[] = [
    `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="delivery timeline">`,
    `<line x1="${left}" y1="${axisY}" x2="${right}" y2="${axisY}" stroke="#8c959f"/>`,
    `<text x="${left}" y="${height - 4}">0 ms</text>`,
    `<text x="${right}" y="${height - 4}" text-anchor="end">${htmlEscape(formatMs(span))} ms</text>`,
  ];
  offsets.forEach((ms, i) => {
    // Colour a mark by what the listener answered, when the deliveries line up with the offsets.
    const status = deliveries && deliveries.length === offsets.length ? deliveries[i]?.answeredStatus : undefined;
    const colour = status === undefined ? '#0969da' : status >= 200 && status < 300 ? COLOURS.PASS : COLOURS.FAIL;
    const cx = x(ms).toFixed(1);
    parts.push(`<circle cx="${cx}" cy="${axisY}" r="5" fill="${colour}"><title>delivery ${i + 1} at +${htmlEscape(formatMs(ms))} ms${status === undefined ? '' : `, answered ${status}`}</title></circle>`);
  });
  for (let i = 1; i < offsets.length; i++) {
    const a = offsets[i - 1] ?? 0;
    const b = offsets[i] ?? 0;
    const interval = intervals[i - 1] ?? b - a;
    const mid = ((x(a) + x(b)) / 2).toFixed(1);
    // Alternate heights so labels of close marks do not overlap.
    const y = i % 2 === 1 ? axisY - 12 : axisY - 26;
    parts.push(`<text x="${mid}" y="${y}" text-anchor="middle">${htmlEscape(formatMs(interval))}</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** Measurements shown in the row for every verdict: the observed retry schedule, reply latency. */
function measurements(c: CaseResult): string {
  const e = c.evidence;
  const out: string[] = [];
  if (e?.timeline && typeof e.timeline === 'object') {
    out.push(`<div class="chart" title="deliveries on a time axis; numbers are ms between deliveries">${timelineSvg(e.timeline, Array.isArray(e.deliveries) ? e.deliveries : undefined)}</div>`);
  }
  if (e?.latency && typeof e.latency === 'object') out.push(`<div class="latency">latency: ${htmlEscape(latencyText(e.latency))}</div>`);
  return out.join('');
}

function evidenceHtml(c: CaseResult): string {
  return evidenceSections(c.evidence).map((s) => `<h4>${htmlEscape(s.title)}</h4>\n<pre>${htmlEscape(s.text)}</pre>`).join('\n');
}

const WAIVER_NOTE = { waived: 'waived', 'not-needed': 'waiver on file, not needed', 'not-applied': 'waiver on file, not applied' } as const;

const row = perCase((c: CaseResult): string => {
  const waiver = waiverState(c);
  const verdict = `<span class="badge v-${c.verdict}">${c.verdict}</span>${waiver === 'waived' ? ' <span class="waiver">waived</span>' : ''}`;
  const cells = [
    `<td>${verdict}</td>`,
    `<td><code>${htmlEscape(c.id)}</code></td>`,
    `<td>${c.level}</td>`,
    `<td>${htmlEscape(c.specRef)}</td>`,
  ];
  let detail = htmlEscape(c.title);
  if (c.waiver) {
    detail += `<div class="waiver">${WAIVER_NOTE[waiver ?? 'waived']}: ${htmlEscape(c.waiver.reason)}${c.waiver.expires ? ` (expires ${htmlEscape(c.waiver.expires)})` : ''}</div>`;
  }
  if (c.verdict !== 'PASS') detail += `<div class="reason">${htmlEscape(c.reason ?? '')}</div>`;
  detail += measurements(c);
  // Folded: the evidence of a failure is one click away; a passing case's evidence is there too,
  // for whoever wants to see what "passed" looked like.
  const evidence = evidenceHtml(c);
  if (evidence) detail += `<details${c.verdict === 'PASS' ? ' class="pass"' : ''}><summary>evidence</summary>\n${evidence}\n</details>`;
  cells.push(`<td>${detail}</td>`, `<td class="num">${htmlEscape(formatMs(c.durationMs))} ms</td>`);
  return `<tr id="${htmlEscape(c.id)}" class="r-${c.verdict}">${cells.join('')}</tr>`;
});

export function renderHtml(report: RunReport): string {
  const title = `collect-conformance ${report.kind === 'vectors' ? 'vectors' : 'conformance'} report`;
  const sections = [...groupBy(report.cases, (c) => specSection(c.specRef))].sort(([a], [b]) => compareSections(a, b));
  const body: string[] = [
    `<h1>${htmlEscape(title)}</h1>`,
    `<p class="meta">collect-conformance ${htmlEscape(report.tool.version)} · started ${htmlEscape(report.startedAt)} · ${
      report.finishedAt ? `finished ${htmlEscape(report.finishedAt)}` : 'not finished (running, or stopped early)'
    } · seed ${report.seed}</p>`,
    `<div class="badges">${VERDICTS.map((v) => badge(v, report.summary[v])).join('')}<span class="badge" style="background:#24292f">total ${report.cases.length}</span></div>`,
    // A filter without scripts: the checkbox hides passing rows through CSS :has().
    '<label class="filter"><input type="checkbox" id="hide-pass"> show only cases that did not pass</label>',
    `<details><summary>target (secrets redacted)</summary><pre>${htmlEscape(JSON.stringify(report.target, null, 2))}</pre></details>`,
  ];
  for (const [section, cases] of sections) {
    body.push(`<h2>${htmlEscape(section === 'other' ? 'Other' : section)}</h2>`);
    body.push('<table><thead><tr><th>verdict</th><th>id</th><th>level</th><th>spec</th><th>case</th><th>duration</th></tr></thead><tbody>');
    body.push(...cases.map(row));
    body.push('</tbody></table>');
  }
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // Nothing may be fetched: the page must open offline and a hostile string cannot load anything.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${htmlEscape(title)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export const htmlWriter: ReportWriter = { fileName: 'index.html', render: renderHtml };
