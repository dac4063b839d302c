// report.md: for a pull-request comment or a ticket, so it fits one (MARKDOWN_BUDGET UTF-8 bytes,
// under GitHub's 65,536 characters). First what a reviewer needs: the verdict, the shared causes
// (diagnoses), the preflight and the failures; then as much detail as fits (counts by side and group, the
// evidence of each failure, every case's row, measurements); then where the whole report is;
// the target last. Plain Markdown: markup characters are backslash-escaped, never written as
// HTML entities (`&amp;` would show as such in a title).
import { VERDICTS, type CaseResult, type RunReport } from '../results/index.ts';
import { evidenceSections, latencyText, type EvidenceOptions } from './evidence-text.ts';
import { formatMs, isWaived, waiverState } from './group.ts';
import { perCase } from './memo.ts';
import { diagnosesFor, diagnosesOf, failures, failuresHeading, hasSeed, headline, outline, replyDeadlineFor, reportTitle } from './outline.ts';
import { printable } from './printable.ts';
import type { ReportWriter } from './writer.ts';

/**
 * The most report.md holds: a GitHub comment takes 65,536; the rest is room for a heading around
 * it. Counted in UTF-8 bytes, so it holds however a reader counts (bytes, code points, UTF-16
 * units): a report of non-ASCII answers counted in characters was 75,566 bytes.
 */
export const MARKDOWN_BUDGET = 60_000;

/** What a text costs of the budget: its UTF-8 bytes. */
function sizeOf(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** One evidence block longer than this is cut (the whole text is in report.json). */
const BLOCK_LIMIT = 4_000;
/** A failure's line in the list is cut after this many characters of reason. */
const REASON_LIMIT = 300;

const caseRow = perCase((c: CaseResult): string =>
  `| ${code(c.id)} | ${c.level} | ${verdictCell(c)} | ${mdCell(c.title)} | ${mdCell(c.specRef)} | ${formatMs(c.durationMs)} ms |`);

const measurement = perCase((c: CaseResult): string => {
  const parts: string[] = [];
  const t = c.evidence?.timeline;
  if (t && Array.isArray(t.offsetsMs) && Array.isArray(t.intervalsMs)) {
    parts.push(`deliveries at ${t.offsetsMs.map((o) => `+${formatMs(o)}`).join(', ')} ms; intervals ${t.intervalsMs.map(formatMs).join(', ')} ms`);
  }
  if (c.evidence?.latency) parts.push(`latency ${latencyText(c.evidence.latency)}`);
  return `- ${code(c.id)}: ${mdText(parts.join('; '))}`;
});

interface FindingContext {
  evidence: EvidenceOptions;
  /** Numbers of the shared causes (in "Shared causes") that explain this case. */
  causes: number[];
}

const finding = perCase((c: CaseResult, ctx: FindingContext): string => {
  const out: string[] = [];
  out.push(`### ${c.verdict}: ${code(c.id)}`, '');
  out.push(`${mdText(c.title)} (${c.level}, ${mdText(c.specRef)}, ${formatMs(c.durationMs)} ms)`, '');
  if (ctx.causes.length > 0) out.push(`Explained by shared cause ${ctx.causes.join(', ')} (see "Shared causes" above).`, '');
  if (c.waiver) {
    const note = WAIVER_NOTE[waiverState(c) ?? 'waived'];
    out.push(`> ${note}: ${mdText(c.waiver.reason)}${c.waiver.expires ? ` (expires ${mdText(c.waiver.expires)})` : ''}`, '');
  }
  out.push(`**Reason:** ${mdText(c.reason ?? '(none given)').replace(/\r?\n/g, '  \n')}`, '');
  for (const s of evidenceSections(c.evidence, ctx.evidence)) {
    out.push(`**${mdText(s.title)}**`, '', fenced(clip(s.text, BLOCK_LIMIT), s.kind === 'curl' ? 'sh' : s.kind === 'other' ? 'json' : 'text'), '');
  }
  return out.join('\n');
});

// CommonMark: any ASCII punctuation may be backslash-escaped and then stands for itself. These
// are the ones that could start markup, a link, HTML or an entity.
const MARKUP = /[\\`*_[\]<>&#|~!]/g;

// Reasons and causes quote names as `code` (`locale-order`): such a span is kept, since
// nothing inside a code span is markup; everything else is escaped.
const CODE_SPAN = /(`[^`\r\n]+`)/;

function escapeOutsideCode(text: string): string {
  return printable(text).split(CODE_SPAN).map((part, i) => (i % 2 === 1 ? part : part.replace(MARKUP, '\\$&'))).join('');
}

/** A table cell: markup escaped (a `|` stays inside its cell, also in a code span), line breaks as spaces. */
export function mdCell(text: string): string {
  return escapeOutsideCode(String(text).replace(/\s*(\r\n|\r|\n)\s*/g, ' ')).replace(/(?<!\\)\|/g, '\\|');
}

/** Running text outside tables: markup escaped, so it reads as the text it is. */
export function mdText(text: string): string {
  return escapeOutsideCode(text);
}

/** An inline code span whose fence is longer than any backtick run inside (ids, commands). */
function code(raw: string): string {
  const text = printable(raw).replace(/\s+/g, ' ');
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  // A `|` ends a table cell even inside a code span (GFM); escaped, it stays.
  return `${fence}${pad}${text.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/** A fenced block whose fence is longer than any backtick run inside it. */
function fenced(raw: string, lang = 'text'): string {
  const text = printable(raw);
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n… (${text.length - limit} more characters in report.json)`;
}

function oneLine(text: string, limit: number): string {
  const flat = String(text).replace(/\s+/g, ' ').trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

function verdictCell(c: CaseResult): string {
  return waiverState(c) === 'waived' ? `${c.verdict} (waived)` : c.verdict;
}

const WAIVER_NOTE = { waived: 'Waived', 'not-needed': 'Waiver on file, not needed', 'not-applied': 'Waiver on file, not applied' } as const;

/** Adds blocks while they fit the budget; says how many were left out. */
class Budget {
  readonly out: string[] = [];
  private used = 0;
  constructor(private readonly limit: number) {}
  get left(): number {
    return this.limit - this.used;
  }
  /** Adds the text when it fits (and the line break after it); returns whether it did. */
  add(text: string): boolean {
    const cost = sizeOf(text) + 1;
    if (cost > this.left) return false;
    this.out.push(text);
    this.used += cost;
    return true;
  }
  /** Adds as many of the items as fit, then `note(omitted)` when some did not. */
  addAll(items: readonly string[], note: (omitted: number) => string, reserve = 0): number {
    let i = 0;
    for (; i < items.length; i++) {
      if (sizeOf(items[i] ?? '') + 1 > this.left - reserve - 300) break;
      this.add(items[i] ?? '');
    }
    if (i < items.length) this.add(note(items.length - i));
    return i;
  }
}

function head(report: RunReport): string {
  const title = reportTitle(report);
  const meta = [
    `collect-conformance ${mdText(report.tool.version)}`,
    `started ${mdText(report.startedAt)}`,
    report.finishedAt ? `finished ${mdText(report.finishedAt)}` : 'not finished (running, or stopped early)',
    // A vectors run draws nothing at random: it has no seed to repeat.
    ...(hasSeed(report) ? [`seed ${report.seed} (repeat with \`--seed ${report.seed}\`)`] : []),
  ];
  return [
    `# ${title}`,
    '',
    `**${mdText(headline(report).text)}**`,
    '',
    `| ${VERDICTS.join(' | ')} | total |`,
    `|${' ---: |'.repeat(VERDICTS.length + 1)}`,
    `| ${VERDICTS.map((v) => report.summary[v]).join(' | ')} | ${report.cases.length} |`,
    '',
    meta.join(' · '),
    '',
  ].join('\n');
}

/** Each side's preflight, the control the negative cases rest on; one that did not pass with its evidence. */
function preflightBlock(report: RunReport): string[] {
  const list = report.preflights ?? [];
  if (list.length === 0) return [];
  const line = (c: CaseResult) => `- **${c.verdict}** ${code(c.id)} (${formatMs(c.durationMs)} ms): ${mdText(c.title)}${c.verdict === 'PASS' ? '' : `: ${mdText(oneLine(c.reason ?? '', REASON_LIMIT))}`}`;
  const failed = list.filter((c) => c.verdict !== 'PASS').map((c) => finding(c, { evidence: {}, causes: [] }));
  return ['## Preflight (the positive control of each side)\n', ...list.map(line), '', ...failed];
}

function diagnosesBlock(report: RunReport): string[] {
  const list = diagnosesOf(report);
  if (list.length === 0) return [];
  return ['## Shared causes\n', ...list.map((d, i) => {
    const cases = Array.isArray(d.cases) ? d.cases : [];
    const shown = cases.slice(0, 20).map(code).join(', ');
    return `${i + 1}. ${mdText(d.summary)} (explains ${cases.length} ${cases.length === 1 ? 'case' : 'cases'}: ${shown}${cases.length > 20 ? ` and ${cases.length - 20} more` : ''})`;
  }), ''];
}

function causeNumbers(report: RunReport, numberOf: Map<string, number>, c: CaseResult): number[] {
  return diagnosesFor(report, c).map((d) => numberOf.get(d.id)).filter((n) => n !== undefined);
}

function failureLine(report: RunReport, numberOf: Map<string, number>, c: CaseResult): string {
  const causes = causeNumbers(report, numberOf, c);
  const marks = [...(isWaived(c) ? ['waived'] : []), ...(causes.length > 0 ? [`shared cause ${causes.join(', ')}`] : [])];
  return `- **${c.verdict}** ${code(c.id)}${marks.length > 0 ? ` (${marks.join('; ')})` : ''}: ${mdText(oneLine(c.reason ?? '', REASON_LIMIT))}`;
}

function countsLine(cases: readonly CaseResult[]): string {
  return VERDICTS.map((v) => [v, cases.filter((c) => c.verdict === v).length] as const).filter(([, n]) => n > 0).map(([v, n]) => `${n} ${v}`).join(', ');
}

/**
 * The head of report.md: the verdict and counts, the shared causes, each side's preflight, the
 * failures one line each. What a reviewer needs first, and what a CI job's summary shows
 * (harness/run's GitHub reporter appends it to GITHUB_STEP_SUMMARY).
 */
function addHead(b: Budget, report: RunReport, numberOf: Map<string, number>, failed: readonly CaseResult[]): void {
  b.add(head(report));
  // The causes first: a reader of a pull-request comment meets the cause before its symptoms,
  // then the preflight's evidence, which the causes point to.
  const diagnoses = diagnosesBlock(report);
  if (diagnoses.length > 0) b.addAll(diagnoses, (n) => `(${n} more lines of causes left out: see index.html)`);
  const preflights = preflightBlock(report);
  if (preflights.length > 0) b.addAll(preflights, (n) => `(${n} more lines of the preflight left out: see index.html)`);
  if (failed.length > 0) {
    b.add(`## ${failuresHeading(failed)}\n`);
    // The list may take most of the budget, leaving room for the counts below it.
    b.addAll(failed.map((c) => failureLine(report, numberOf, c)), (n) => `- … and ${n} more: see index.html or report.json`, 2_000);
    b.add('');
  }
}

/** The head of report.md alone (addHead), within `budget` UTF-8 bytes. */
export function renderMarkdownHead(report: RunReport, budget: number = MARKDOWN_BUDGET): string {
  const b = new Budget(budget);
  addHead(b, report, new Map(diagnosesOf(report).map((d, i) => [d.id, i + 1])), failures(report));
  return `${b.out.join('\n').replace(/\n+$/, '')}\n`;
}

export function renderMarkdown(report: RunReport, budget: number = MARKDOWN_BUDGET): string {
  const target = ['## Target (secrets redacted)', '', fenced(clip(JSON.stringify(report.target, null, 2), 8_000), 'json'), ''].join('\n');
  const pointer = '---\n\nThe whole report, every case with its evidence: `index.html` (open it in a browser) and `report.json`, beside this file.\n';
  const b = new Budget(budget - sizeOf(target) - sizeOf(pointer) - 2);
  const numberOf = new Map(diagnosesOf(report).map((d, i) => [d.id, i + 1]));
  const failed = failures(report);
  const sides = outline(report.cases);
  const evidenceOf = (c: CaseResult): EvidenceOptions => {
    const slowMs = replyDeadlineFor(report, c);
    return slowMs === undefined ? {} : { slowMs };
  };

  addHead(b, report, numberOf, failed);

  b.add('## Cases by side and group\n');
  b.addAll(sides.map((s) => `- **${mdText(s.side)}**: ${s.groups.map((g) => `${code(g.group)} ${countsLine(g.cases)}`).join('; ')}`), (n) => `- … and ${n} more sides`);
  b.add('');

  if (failed.length > 0) {
    b.add('## Evidence of the failures\n');
    b.addAll(failed.map((c) => finding(c, { evidence: evidenceOf(c), causes: causeNumbers(report, numberOf, c) })), (n) => `_The evidence of ${n} more ${n === 1 ? 'failure is' : 'failures is'} left out to keep this file under ${budget} characters: see index.html or report.json._\n`);
  }

  const tables = sides.flatMap((s) => s.groups.map((g) =>
    [`### ${code(g.group)}`, '', '| id | level | verdict | title | spec | duration |', '| --- | --- | --- | --- | --- | ---: |', ...g.cases.map((c) => caseRow(c)), ''].join('\n')));
  if (b.add('## Every case\n')) b.addAll(tables, (n) => `_${n} more ${n === 1 ? 'group is' : 'groups are'} left out to fit: see index.html._\n`);

  // Passing cases that measured something (retry schedules, reply latency): the numbers are
  // worth reading even when they met the rule.
  const measured = report.cases.filter((c) => c.verdict === 'PASS' && (c.evidence?.timeline || c.evidence?.latency));
  if (measured.length > 0 && b.add('## Measurements of passing cases\n')) {
    b.addAll(measured.map((c) => measurement(c)), (n) => `- … and ${n} more: see index.html`);
    b.add('');
  }
  return `${[...b.out, pointer, target].join('\n').replace(/\n+$/, '')}\n`;
}

export const markdownWriter: ReportWriter = { fileName: 'report.md', render: (report) => renderMarkdown(report) };
