// report.md: for a pull request or a ticket. Title, target, summary table, one table per case
// group, then "Findings": every case that did not PASS, with its reason and evidence in
// fenced blocks (curl lines as `sh`).
import { VERDICTS, type CaseResult, type RunReport } from '../results/index.ts';
import { evidenceSections, latencyText } from './evidence-text.ts';
import { caseGroup, formatMs, groupBy, isWaived, waiverState } from './group.ts';
import { perCase } from './memo.ts';
import { printable } from './printable.ts';
import type { ReportWriter } from './writer.ts';

const caseRow = perCase((c: CaseResult): string =>
  `| \`${mdCell(c.id)}\` | ${c.level} | ${verdictCell(c)} | ${mdCell(c.title)} | ${mdCell(c.specRef)} | ${formatMs(c.durationMs)} ms |`);

const measurement = perCase((c: CaseResult): string => {
  const parts: string[] = [];
  const t = c.evidence?.timeline;
  if (t && Array.isArray(t.offsetsMs) && Array.isArray(t.intervalsMs)) {
    parts.push(`deliveries at ${t.offsetsMs.map((o) => `+${formatMs(o)}`).join(', ')} ms; intervals ${t.intervalsMs.map(formatMs).join(', ')} ms`);
  }
  if (c.evidence?.latency) parts.push(`latency ${latencyText(c.evidence.latency)}`);
  return `- \`${mdCell(c.id)}\`: ${mdText(parts.join('; '))}`;
});

const finding = perCase((c: CaseResult): string => {
  const out: string[] = [];
  out.push(`### ${c.verdict}: ${mdText(c.id)}`, '');
  out.push(`${mdText(c.title)} (${c.level}, ${mdText(c.specRef)}, ${formatMs(c.durationMs)} ms)`, '');
  if (c.waiver) {
    const note = WAIVER_NOTE[waiverState(c) ?? 'waived'];
    out.push(`> ${note}: ${mdText(c.waiver.reason)}${c.waiver.expires ? ` (expires ${mdText(c.waiver.expires)})` : ''}`, '');
  }
  out.push(`**Reason:** ${mdText(c.reason ?? '(none given)').replace(/\r?\n/g, '  \n')}`, '');
  for (const s of evidenceSections(c.evidence)) {
    out.push(`**${mdText(s.title)}**`, '', fenced(s.text, s.kind === 'curl' ? 'sh' : s.kind === 'other' ? 'json' : 'text'), '');
  }
  return out.join('\n');
});

/** A table cell: no raw `|`, line breaks, or HTML (GitHub renders inline HTML). */
export function mdCell(text: string): string {
  return printable(text)
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\r\n|\r|\n/g, '<br>');
}

/** Running text outside tables: inline HTML and markdown markup neutralised. */
function mdText(text: string): string {
  return printable(text)
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([`*_[\]#|])/g, '\\$1');
}

/** A fenced block whose fence is longer than any backtick run inside it. */
function fenced(raw: string, lang = 'text'): string {
  const text = printable(raw);
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

function verdictCell(c: CaseResult): string {
  return waiverState(c) === 'waived' ? `${c.verdict} (waived)` : c.verdict;
}

const WAIVER_NOTE = { waived: 'Waived', 'not-needed': 'Waiver on file, not needed', 'not-applied': 'Waiver on file, not applied' } as const;

export function renderMarkdown(report: RunReport): string {
  const out: string[] = [];
  const title = report.kind === 'vectors' ? 'collect-conformance vectors report' : 'collect-conformance conformance report';
  out.push(`# ${title}`, '');
  out.push(`- Tool: collect-conformance ${mdText(report.tool.version)}`);
  out.push(`- Started: ${mdText(report.startedAt)}`);
  out.push(`- Finished: ${report.finishedAt ? mdText(report.finishedAt) : '(still running, or stopped before the end)'}`);
  out.push(`- Seed: ${report.seed}`, '');
  out.push('Target (secrets redacted):', '', fenced(JSON.stringify(report.target, null, 2), 'json'), '');

  out.push('## Summary', '');
  out.push(`| ${VERDICTS.join(' | ')} | total |`, `|${' ---: |'.repeat(VERDICTS.length + 1)}`);
  out.push(`| ${VERDICTS.map((v) => report.summary[v]).join(' | ')} | ${report.cases.length} |`, '');
  const waived = report.cases.filter(isWaived);
  if (waived.length > 0) out.push(`${waived.length} failure(s) waived: ${waived.map((c) => `\`${c.id}\``).join(', ')}.`, '');

  out.push('## Cases', '');
  for (const [group, cases] of groupBy(report.cases, (c) => caseGroup(c.id))) {
    out.push(`### ${mdText(group)}`, '');
    out.push('| id | level | verdict | title | spec | duration |', '| --- | --- | --- | --- | --- | ---: |');
    for (const c of cases) out.push(caseRow(c));
    out.push('');
  }

  // Passing cases that measured something (retry schedules, reply latency): the numbers are
  // worth reading even when they met the rule.
  const measured = report.cases.filter((c) => c.verdict === 'PASS' && (c.evidence?.timeline || c.evidence?.latency));
  if (measured.length > 0) {
    out.push('## Measurements', '');
    for (const c of measured) out.push(measurement(c));
    out.push('');
  }

  const findings = report.cases.filter((c) => c.verdict !== 'PASS');
  out.push('## Findings', '');
  if (findings.length === 0) out.push('Every case passed.', '');
  for (const c of findings) out.push(finding(c));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

export const markdownWriter: ReportWriter = { fileName: 'report.md', render: renderMarkdown };
