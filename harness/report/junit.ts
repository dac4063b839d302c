// junit.xml: one <testsuite> per case group (`receiver.token`), one <testcase> per case, in the
// dialect most CI systems read (Jenkins, GitLab, GitHub test-report actions). Hand-written: the
// format is small, and one escaper is less risk than another dependency.
//   FAIL  → <failure message=reason>evidence</failure>
//   ERROR → <error message=reason>evidence</error>
//   SKIP  → <skipped message=reason/>
//   WARN  → passes, with <system-out> carrying the warning
//   waived FAIL/ERROR → <skipped message="waived: …"/> (the observed verdict stays in the text)
import type { CaseResult, RunReport } from '../results/index.ts';
import { evidenceSections, evidenceText, type EvidenceOptions } from './evidence-text.ts';
import { isWaived } from './group.ts';
import { diagnosesFor, outline, replyDeadlineFor } from './outline.ts';
import { perCase } from './memo.ts';
import { printable } from './printable.ts';
import type { ReportWriter } from './writer.ts';

/** Escapes text content (`]]>` is harmless once `>` is escaped). */
export function xmlText(text: string): string {
  return printable(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value; line breaks and tabs as references so parsers keep them. */
export function xmlAttr(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values).map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`).join('');
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

interface Counts { tests: number; failures: number; errors: number; skipped: number; time: number }

function countsOf(cases: readonly CaseResult[]): Counts {
  const c: Counts = { tests: cases.length, failures: 0, errors: 0, skipped: 0, time: 0 };
  for (const r of cases) {
    c.time += r.durationMs;
    if (isWaived(r) || r.verdict === 'SKIP') c.skipped++;
    else if (r.verdict === 'FAIL') c.failures++;
    else if (r.verdict === 'ERROR') c.errors++;
  }
  return c;
}

function counted(c: Counts): Record<string, string | number> {
  return { tests: c.tests, failures: c.failures, errors: c.errors, skipped: c.skipped, time: seconds(c.time) };
}

interface CaseContext {
  group: string;
  evidence: EvidenceOptions;
  /** Summaries of the diagnoses that explain this case: said first, the cause shared with other cases. */
  causes: string[];
}

const testcase = perCase((r: CaseResult, ctx: CaseContext): string => {
  const { group } = ctx;
  const open = `    <testcase${attrs({ classname: group, name: r.id, time: seconds(r.durationMs) })}>`;
  const body: string[] = [
    '      <properties>',
    `        <property${attrs({ name: 'title', value: r.title })}/>`,
    `        <property${attrs({ name: 'level', value: r.level })}/>`,
    `        <property${attrs({ name: 'specRef', value: r.specRef })}/>`,
    `        <property${attrs({ name: 'verdict', value: r.verdict })}/>`,
    ...(r.waiver ? [`        <property${attrs({ name: 'waiver', value: r.waiver.reason })}/>`] : []),
    '      </properties>',
  ];
  const reason = r.reason || r.verdict;
  const evidence = [...ctx.causes.map((c) => `shared cause (it explains other cases too): ${c}`), evidenceText(r.evidence, ctx.evidence)].filter((t) => t !== '').join('\n\n');
  if (isWaived(r)) {
    body.push(`      <skipped${attrs({ message: `waived: ${r.waiver?.reason ?? ''}` })}/>`);
    body.push(`      <system-out>${xmlText(`${r.verdict} (waived): ${reason}${evidence ? `\n\n${evidence}` : ''}`)}</system-out>`);
  } else if (r.verdict === 'FAIL' || r.verdict === 'ERROR') {
    const tag = r.verdict === 'FAIL' ? 'failure' : 'error';
    // The reason again at the top of the text: several CI views show only the element's text.
    const text = `${r.verdict} (${r.level}, ${r.specRef}): ${reason}${evidence ? `\n\n${evidence}` : ''}`;
    body.push(`      <${tag}${attrs({ message: reason, type: r.verdict })}>${xmlText(text)}</${tag}>`);
  } else if (r.verdict === 'SKIP') {
    body.push(`      <skipped${attrs({ message: reason })}/>`);
  } else if (r.verdict === 'WARN') {
    body.push(`      <system-out>${xmlText(`WARN (${r.level}): ${reason}${evidence ? `\n\n${evidence}` : ''}`)}</system-out>`);
  } else {
    // PASS: say what was measured (retry schedule, latency), and whether a waiver is now idle.
    const lines = evidenceSections(r.evidence, ctx.evidence).filter((s) => s.kind === 'timeline' || s.kind === 'latency').map((s) => `${s.title}:\n${s.text}`);
    if (r.waiver) lines.push(`passes; the waiver is no longer needed (${r.waiver.reason})`);
    if (lines.length > 0) body.push(`      <system-out>${xmlText(lines.join('\n'))}</system-out>`);
  }
  return [open, ...body, '    </testcase>'].join('\n');
});

/** The JUnit XSD wants `YYYY-MM-DDTHH:MM:SS` with no zone; startedAt is UTC. */
function junitTimestamp(iso: string): string {
  const m = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.exec(iso);
  return m ? m[0] : iso;
}

export function renderJunit(report: RunReport): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  lines.push(`<testsuites${attrs({ name: `collect-conformance ${report.kind}`, ...counted(countsOf(report.cases)) })}>`);
  // Suites by side, then case group (service.auth, …, receiver.token, …), as every report orders them.
  for (const { group, cases } of outline(report.cases).flatMap((s) => s.groups)) {
    lines.push(`  <testsuite${attrs({ name: group, ...counted(countsOf(cases)), timestamp: junitTimestamp(report.startedAt) })}>`);
    for (const c of cases) {
      const slowMs = replyDeadlineFor(report, c);
      const evidence: EvidenceOptions = slowMs === undefined ? {} : { slowMs };
      lines.push(testcase(c, { group, evidence, causes: diagnosesFor(report, c).map((d) => d.summary) }));
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

export const junitWriter: ReportWriter = { fileName: 'junit.xml', render: renderJunit };
