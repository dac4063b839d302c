// index.html: one self-contained page (inline CSS, no scripts, no fonts, no images, nothing
// fetched; a Content-Security-Policy says so to the browser too). It opens with the verdict,
// the shared causes (diagnoses) and the failures, each linking to its evidence; then the cases
// by side and case group, evidence folded in a full-width row under each case, retry timelines
// as a small inline SVG chart with units and a legend, latency statistics; the target last.
import { VERDICTS, type CaseResult, type Delivery, type Evidence, type RunReport, type Verdict } from '../results/index.ts';
import { evidenceSections, latencyText, type EvidenceSection } from './evidence-text.ts';
import { formatMs, isWaived, waiverState } from './group.ts';
import { diagnosesFor, diagnosesOf, failures, failuresHeading, hasSeed, headline, outline, replyDeadlineFor, reportTitle } from './outline.ts';
import { perCase } from './memo.ts';
import { printable } from './printable.ts';
import type { ReportWriter } from './writer.ts';
import { stormChartSvg } from './storm-chart.ts';
import { isSuccess } from '../http/index.ts';

export function htmlEscape(text: string): string {
  return printable(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Text a case wrote (a reason, a cause): escaped, with names quoted as `code` shown as code. */
function prose(text: string): string {
  return htmlEscape(text).replace(/`([^`\r\n]+)`/g, '<code>$1</code>');
}

const COLOURS: Record<Verdict, string> = {
  PASS: '#1a7f37',
  FAIL: '#cf222e',
  WARN: '#9a6700',
  SKIP: '#6e7781',
  ERROR: '#8250df',
};

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.2rem 2rem;color:#1f2328;background:#fff}
h1{font-size:1.35rem;margin:0}h2{font-size:1.15rem;margin:1.4rem 0 .4rem;border-bottom:1px solid #d0d7de}
h3{font-size:1rem;margin:1rem 0 .3rem}h3 .counts{font-weight:normal;color:#57606a;font-size:.85rem;margin-left:.5rem}
.meta{color:#57606a;margin:.1rem 0 .6rem}
.headline{font-size:1.1rem;font-weight:600;margin:.4rem 0}
.headline.failed{color:${COLOURS.FAIL}}.headline.passed{color:${COLOURS.PASS}}
.badges{display:flex;gap:.4rem;flex-wrap:wrap;margin:.4rem 0}
.badge{display:inline-block;padding:.1rem .6rem;border-radius:1rem;color:#fff;font-weight:600;font-size:.85rem}
${VERDICTS.map((v) => `.v-${v}{background:${COLOURS[v]}}`).join('')}
.badge.zero{opacity:.35}
h2#diagnoses-h,h2#failures-h{margin-top:.8rem}
ul.diagnoses{margin:.2rem 0;padding-left:1.2rem}ul.diagnoses li{margin:.2rem 0}
.explains{color:#57606a;font-size:.9rem}
table{border-collapse:collapse;width:100%}
table.cases{table-layout:fixed}
th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #eaeef2;vertical-align:top}
th{background:#f6f8fa}
td.num{text-align:right;white-space:nowrap}
td.id,td.spec{overflow-wrap:anywhere}
table.failures td{padding:.15rem .5rem;border:0}
table.failures td.fr{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:0;width:100%}
table.failures td.fid{white-space:nowrap}
tbody.case tr.more td{border-bottom:1px solid #d0d7de;padding-top:0}
tbody.case tr.main td{border-bottom:0}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0}
details{margin:.2rem 0 .4rem}summary{cursor:pointer;color:#0969da}
details.pass>summary{color:#8c959f}
.reason{margin:.2rem 0}
.cause{margin:.2rem 0;font-size:.9rem}
.latency{margin:.2rem 0;color:#57606a}
.chart svg{max-width:100%;height:auto;display:block}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;font-size:.8rem;color:#57606a;margin:.1rem 0 .3rem 1.2rem}
.dot{display:inline-block;width:.7rem;height:.7rem;border-radius:50%;margin-right:.3rem;vertical-align:-.05rem}
.waiver{color:#9a6700}
h4{margin:.6rem 0 .2rem;font-size:.9rem}
svg text{font:11px system-ui,sans-serif;fill:#1f2328}svg text.quiet{fill:#57606a}
.filter{display:block;margin:1rem 0 .2rem;color:#57606a}
body:has(#hide-pass:checked) .r-PASS,body:has(#hide-pass:checked) .all-pass{display:none}
a{color:#0969da}
tbody.case{position:relative}.anchor{position:absolute;top:0;left:0;scroll-margin-top:1rem}
`;

function badge(v: Verdict, n: number): string {
  return `<span class="badge v-${v}${n === 0 ? ' zero' : ''}">${v} ${n}</span>`;
}

/** A link to a case's row; `#ev-` targets its evidence, which the browser unfolds on arrival. */
function caseLink(id: string, to: 'case' | 'evidence' = 'case'): string {
  return `<a href="#${to === 'evidence' ? 'ev-' : ''}${htmlEscape(encodeURIComponent(id))}"><code>${htmlEscape(id)}</code></a>`;
}

/**
 * Deliveries as marks on a time axis, each mark coloured by what the listener answered, the
 * interval between neighbours written above as `↔ 403 ms`; the axis says its unit. The legend
 * is HTML beside it (chartLegend), so it wraps instead of being cut.
 */
export function timelineSvg(timeline: NonNullable<Evidence['timeline']>, deliveries?: readonly Delivery[]): string {
  const offsets = Array.isArray(timeline.offsetsMs) ? timeline.offsetsMs.filter((n) => Number.isFinite(n)) : [];
  const intervals = Array.isArray(timeline.intervalsMs) ? timeline.intervalsMs : [];
  const width = 640;
  const height = 74;
  const left = 20;
  const right = width - 20;
  const axisY = 50;
  const span = Math.max(1, ...offsets);
  const x = (ms: number): number => left + ((right - left) * Math.max(0, ms)) / span;
  const statuses = deliveries && deliveries.length === offsets.length ? deliveries.map((d) => d?.answeredStatus) : undefined;
  const parts: string[] = [
    `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="delivery timeline: ${offsets.length} deliveries over ${htmlEscape(formatMs(span))} ms">`,
    `<line x1="${left}" y1="${axisY}" x2="${right}" y2="${axisY}" stroke="#8c959f"/>`,
    `<text x="${left}" y="${axisY + 18}" class="quiet">0 ms</text>`,
    `<text x="${width / 2}" y="${axisY + 18}" text-anchor="middle" class="quiet">time since the case's first request (ms)</text>`,
    `<text x="${right}" y="${axisY + 18}" text-anchor="end" class="quiet">${htmlEscape(formatMs(span))} ms</text>`,
  ];
  offsets.forEach((ms, i) => {
    const status = statuses?.[i];
    const colour = status === undefined ? '#0969da' : isSuccess(status) ? COLOURS.PASS : COLOURS.FAIL;
    const cx = x(ms).toFixed(1);
    parts.push(`<circle cx="${cx}" cy="${axisY}" r="5" fill="${colour}"><title>delivery ${i + 1} at +${htmlEscape(formatMs(ms))} ms${status === undefined ? '' : `, answered ${status}`}</title></circle>`);
  });
  for (let i = 1; i < offsets.length; i++) {
    const a = offsets[i - 1] ?? 0;
    const b = offsets[i] ?? 0;
    const interval = intervals[i - 1] ?? b - a;
    const mid = ((x(a) + x(b)) / 2).toFixed(1);
    // Alternate heights so labels of close marks do not overlap.
    const y = i % 2 === 1 ? axisY - 12 : axisY - 28;
    parts.push(`<text x="${mid}" y="${y}" text-anchor="middle" class="quiet">↔ ${htmlEscape(formatMs(interval))} ms</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** What the chart's colours and numbers mean. */
function chartLegend(coloured: boolean): string {
  const dot = (colour: string): string => `<span class="dot" style="background:${colour}"></span>`;
  const items = coloured
    ? [`${dot(COLOURS.PASS)}delivery answered 2xx`, `${dot(COLOURS.FAIL)}delivery answered non-2xx (the listener asked for a retry)`]
    : [`${dot('#0969da')}delivery`];
  return `<div class="legend">${[...items, '↔ ms between two deliveries'].map((i) => `<span>${i}</span>`).join('')}</div>`;
}

/** Measurements shown for every verdict: the observed retry schedule, reply latency. */
function measurements(c: CaseResult): string {
  const e = c.evidence;
  const out: string[] = [];
  if (e?.timeline && typeof e.timeline === 'object') {
    const deliveries = Array.isArray(e.deliveries) ? e.deliveries : undefined;
    const coloured = deliveries !== undefined && Array.isArray(e.timeline.offsetsMs) && deliveries.length === e.timeline.offsetsMs.length;
    out.push(`<div class="chart">${timelineSvg(e.timeline, deliveries)}${chartLegend(coloured)}</div>`);
  }
  if (e?.latency && typeof e.latency === 'object') out.push(`<div class="latency">latency: ${htmlEscape(latencyText(e.latency))}</div>`);
  if (e?.perSecond !== undefined) out.push(stormChartSvg(e.perSecond, e.replyDeadlineMs));
  return out.join('');
}

function sectionsHtml(sections: readonly EvidenceSection[]): string {
  return sections.map((s) => `<h4>${htmlEscape(s.title)}</h4>\n<pre>${htmlEscape(s.text)}</pre>`).join('\n');
}

/** `evidence: 20 requests, record readings` */
function evidenceLabel(sections: readonly EvidenceSection[]): string {
  const requests = sections.filter((s) => s.kind === 'exchange').length;
  const alike = sections.filter((s) => s.kind === 'alike').reduce((n, s) => n + (Number(/^(\d+) requests/.exec(s.text)?.[1]) || 0) - 1, 0);
  const parts: string[] = [];
  if (requests + alike > 0) parts.push(`${requests + alike} ${requests + alike === 1 ? 'request' : 'requests'}`);
  for (const s of sections) if (s.kind !== 'exchange' && s.kind !== 'curl' && s.kind !== 'alike') parts.push(s.title);
  return `evidence: ${parts.join(', ')}`;
}

const WAIVER_NOTE = { waived: 'waived', 'not-needed': 'waiver on file, not needed', 'not-applied': 'waiver on file, not applied' } as const;

interface CaseContext {
  slowMs?: number;
  /** The diagnoses explaining this case: their number in the report and summary. */
  causes: { n: number; summary: string }[];
}

const caseBody = perCase((c: CaseResult, ctx: CaseContext): string => {
  const waiver = waiverState(c);
  const verdict = `<span class="badge v-${c.verdict}">${c.verdict}</span>${waiver === 'waived' ? ' <span class="waiver">waived</span>' : ''}`;
  let detail = htmlEscape(c.title);
  if (c.waiver) {
    detail += `<div class="waiver">${WAIVER_NOTE[waiver ?? 'waived']}: ${htmlEscape(c.waiver.reason)}${c.waiver.expires ? ` (expires ${htmlEscape(c.waiver.expires)})` : ''}</div>`;
  }
  if (c.verdict !== 'PASS') detail += `<div class="reason">${prose(c.reason ?? '')}</div>`;
  // The cause in full is at the top of the page; here its start, enough to recognise it.
  for (const cause of ctx.causes) {
    detail += `<div class="cause" title="${htmlEscape(cause.summary)}">shared cause <a href="#diagnosis-${cause.n}">${cause.n}</a>: ${prose(clip(cause.summary, 120))}</div>`;
  }
  const main = `<tr class="main"><td>${verdict}</td><td class="id"><code>${htmlEscape(c.id)}</code></td><td>${c.level}</td><td class="spec">${htmlEscape(c.specRef)}</td><td>${detail}</td><td class="num">${htmlEscape(formatMs(c.durationMs))} ms</td></tr>`;
  // Below the row, across the whole table: the chart, then the evidence, folded. A failure's
  // evidence is one click away; a passing case's is there too, for whoever wants to see what
  // "passed" looked like.
  const sections = evidenceSections(c.evidence, ctx.slowMs === undefined ? {} : { slowMs: ctx.slowMs });
  let more = measurements(c);
  if (sections.length > 0) {
    // The link target is inside the fold, so following a link to it unfolds it (ancestor details
    // revealing); placed at the top of the case (CSS), so the case's own row is in sight too.
    more += `<details${c.verdict === 'PASS' ? ' class="pass"' : ''}><summary>${htmlEscape(evidenceLabel(sections))}</summary>\n<span class="anchor" id="ev-${htmlEscape(c.id)}"></span>\n${sectionsHtml(sections)}\n</details>`;
  }
  const rows = more ? `${main}<tr class="more"><td colspan="6">${more}</td></tr>` : main.replace('<tr class="main">', '<tr class="main only">');
  return `<tbody id="${htmlEscape(c.id)}" class="case r-${c.verdict}">${rows}</tbody>`;
});

/** The failures as one line each, linking to their evidence; long lists fold after the first 15. */
function failureList(report: RunReport, numberOf: Map<string, number>): string {
  const list = failures(report);
  if (list.length === 0) return '';
  const line = (c: CaseResult): string => {
    const causes = diagnosesFor(report, c).map((d) => numberOf.get(d.id)).filter((n) => n !== undefined);
    const cause = causes.length > 0 ? ` <span class="explains">(shared cause ${causes.map((n) => `<a href="#diagnosis-${n}">${n}</a>`).join(', ')})</span>` : '';
    const waived = isWaived(c) ? ' <span class="waiver">waived</span>' : '';
    const reason = oneLine(c.reason ?? '');
    return `<tr class="r-${c.verdict}"><td><span class="badge v-${c.verdict}">${c.verdict}</span></td><td class="fid">${caseLink(c.id, c.evidence ? 'evidence' : 'case')}${waived}${cause}</td><td class="fr" title="${htmlEscape(reason)}">${prose(reason)}</td></tr>`;
  };
  const shown = list.slice(0, 15).map(line).join('\n');
  const rest = list.slice(15);
  return [
    `<h2 id="failures-h">${failuresHeading(list)}</h2>`,
    `<table class="failures" id="failures"><tbody>\n${shown}\n</tbody></table>`,
    rest.length > 0 ? `<details><summary>${rest.length} more</summary><table class="failures"><tbody>\n${rest.map(line).join('\n')}\n</tbody></table></details>` : '',
  ].join('\n');
}

/** The columns of a table of cases: verdict, id, level, spec, case, duration. */
const CASE_COLUMNS = '<colgroup><col style="width:6.5rem"><col style="width:24%"><col style="width:4.5rem"><col style="width:8.5rem"><col><col style="width:5.5rem"></colgroup>';

/** Each side's preflight, the control the negative cases rest on, as a case row with its evidence. */
function preflightTable(report: RunReport): string {
  const list = report.preflights ?? [];
  if (list.length === 0) return '';
  return [
    '<h2 id="preflight-h">Preflight (the positive control of each side)</h2>',
    `<table class="cases" id="preflight">${CASE_COLUMNS}`,
    ...list.map((c) => caseBody(c, { causes: [] })),
    '</table>',
  ].join('\n');
}

function diagnosisList(report: RunReport): string {
  const list = diagnosesOf(report);
  if (list.length === 0) return '';
  const items = list.map((d, i) => {
    const cases = Array.isArray(d.cases) ? d.cases : [];
    const shown = cases.slice(0, 12).map((id) => caseLink(id)).join(', ');
    const more = cases.length > 12 ? ` and ${cases.length - 12} more` : '';
    const sections = evidenceSections(d.evidence);
    const evidence = sections.length > 0 ? `<details><summary>${htmlEscape(evidenceLabel(sections))}</summary>\n${sectionsHtml(sections)}\n</details>` : '';
    return `<li id="diagnosis-${i + 1}">${prose(d.summary)}<div class="explains">explains ${cases.length} ${cases.length === 1 ? 'case' : 'cases'}: ${shown}${more}</div>${evidence}</li>`;
  });
  // The first three in sight; more would push the failures off the first screen.
  const rest = items.length > 3 ? `\n<details><summary>${items.length - 3} more shared causes</summary><ol class="diagnoses" start="4">\n${items.slice(3).join('\n')}\n</ol></details>` : '';
  return `<h2 id="diagnoses-h">Shared causes (${list.length})</h2>\n<ol class="diagnoses" id="diagnoses">\n${items.slice(0, 3).join('\n')}\n</ol>${rest}`;
}

function oneLine(text: string): string {
  return String(text).replace(/\s+/g, ' ').trim();
}

function clip(text: string, limit: number): string {
  const flat = oneLine(text);
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

export function renderHtml(report: RunReport): string {
  const title = reportTitle(report);
  const head = headline(report);
  const numberOf = new Map(diagnosesOf(report).map((d, i) => [d.id, i + 1]));
  const body: string[] = [
    `<h1>${htmlEscape(title)}</h1>`,
    `<p class="meta">collect-conformance ${htmlEscape(report.tool.version)} · started ${htmlEscape(report.startedAt)} · ${
      report.finishedAt ? `finished ${htmlEscape(report.finishedAt)}` : 'not finished (running, or stopped early)'
    }${hasSeed(report) ? ` · seed ${report.seed}` : ''} · <a href="#target">target</a></p>`,
    `<p class="headline ${head.passed ? 'passed' : 'failed'}" id="summary">${htmlEscape(head.text)}</p>`,
    `<div class="badges">${VERDICTS.map((v) => badge(v, report.summary[v])).join('')}<span class="badge" style="background:#24292f">total ${report.cases.length}</span></div>`,
    preflightTable(report),
    diagnosisList(report),
    failureList(report, numberOf),
    // A filter without scripts: the checkbox hides passing cases, and groups with nothing else, through CSS :has().
    '<label class="filter"><input type="checkbox" id="hide-pass"> show only cases that did not pass</label>',
  ];
  for (const side of outline(report.cases)) {
    body.push(`<section class="side${side.allPass ? ' all-pass' : ''}" id="side-${htmlEscape(side.side)}">`, `<h2>${htmlEscape(side.side)}</h2>`);
    for (const group of side.groups) {
      const counts = VERDICTS.map((v) => [v, group.cases.filter((c) => c.verdict === v).length] as const).filter(([, n]) => n > 0).map(([v, n]) => `${n} ${v}`).join(', ');
      body.push(`<section class="group${group.allPass ? ' all-pass' : ''}" id="group-${htmlEscape(group.group)}">`);
      body.push(`<h3>${htmlEscape(group.group)}<span class="counts">${counts}</span></h3>`);
      body.push(`<table class="cases">${CASE_COLUMNS}`);
      body.push('<thead><tr><th>verdict</th><th>id</th><th>level</th><th>spec</th><th>case</th><th>duration</th></tr></thead>');
      for (const c of group.cases) {
        const causes = diagnosesFor(report, c).map((d) => ({ n: numberOf.get(d.id) ?? 0, summary: d.summary }));
        const slowMs = replyDeadlineFor(report, c);
        body.push(caseBody(c, slowMs === undefined ? { causes } : { slowMs, causes }));
      }
      body.push('</table>', '</section>');
    }
    body.push('</section>');
  }
  body.push(`<h2 id="target">Target (secrets redacted)</h2>`, `<pre>${htmlEscape(JSON.stringify(report.target, null, 2))}</pre>`);
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
    ...body.filter((b) => b !== ''),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export const htmlWriter: ReportWriter = { fileName: 'index.html', render: renderHtml };
