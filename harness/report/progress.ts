// Terminal progress: one line per finished case, and the closing summary. Colour only when
// the caller says so (harness/cli/color.ts decides it the one way every command shares).
import { dirname, isAbsolute, relative, sep, basename } from 'node:path';
import { VERDICTS, type CaseResult, type RunReport, type Verdict } from '../results/index.ts';
import { formatMs, isWaived, waiverState } from './group.ts';
import { diagnosesOf, failures, failuresHeading, headline } from './outline.ts';
import { printable } from './printable.ts';

export interface ProgressOptions {
  /** ANSI colours; pass `stream.isTTY === true`. Default false. */
  color?: boolean;
}

const ANSI: Record<Verdict, string> = { PASS: '32', FAIL: '31', WARN: '33', SKIP: '36', ERROR: '35' };
const WIDTH = Math.max(...VERDICTS.map((v) => v.length));

function paint(text: string, code: string, on: boolean): string {
  return on ? `\u001b[${code}m${text}\u001b[39m` : text;
}

/**
 * One line, whatever the text holds: line breaks and runs of spaces become one space, and
 * control characters (ESC from a hostile target's answer) and bidi overrides are shown, never
 * sent to the terminal.
 */
function oneLine(text: string): string {
  return printable(String(text).replace(/\s+/g, ' ').trim());
}

/**
 * `PASS  receiver.token.missing  12 ms`
 * `FAIL  receiver.token.wrong  15 ms  answered 200, expected 403`
 * `FAIL  receiver.token.wrong  15 ms  [waived: vendor bug 12]  answered 200, expected 403`
 */
export function formatCaseLine(result: CaseResult, options: ProgressOptions = {}): string {
  const color = options.color === true;
  const verdict = paint(result.verdict.padEnd(WIDTH), ANSI[result.verdict], color);
  let line = `${verdict} ${oneLine(result.id)}  ${formatMs(result.durationMs)} ms`;
  if (result.waiver) {
    const state = waiverState(result);
    const mark = state === 'waived' ? `[waived: ${oneLine(result.waiver.reason)}]` : state === 'not-needed' ? '[waiver not needed]' : '[waiver not applied]';
    line += `  ${color ? paint(mark, '2', true) : mark}`;
  }
  if (result.verdict !== 'PASS' && result.reason) line += `  ${oneLine(result.reason)}`;
  return line;
}

/** A case under way: how long it has run, and what it waits for (its last progress line). */
export interface RunningCase {
  id: string;
  waitedMs: number;
  doing?: string;
}

export interface RunningState {
  done: number;
  total: number;
  /** The cases under way, in the order they started (ids alone, or with their wait). */
  running: readonly (string | RunningCase)[];
}

/**
 * One status line for a run with cases under way at once, for a terminal to redraw in place:
 * `12/63 done · running 3: service.callback.retry-back-off 14 s (waiting for delivery 3/4), receiver.latency.burst 1 s, … (+1)`.
 * The case that has waited longest says what for. Never wider than `width` columns (default
 * 100), so it does not wrap.
 */
export function formatProgress(state: RunningState, options: ProgressOptions & { width?: number } = {}): string {
  const width = Math.max(20, options.width ?? 100);
  const head = `${state.done}/${state.total} done`;
  if (state.running.length === 0) return clipped(head, width);
  const cases = state.running.map((r): Partial<RunningCase> & { id: string } => (typeof r === 'string' ? { id: r } : r));
  const longest = cases.reduce((a, b) => ((b.waitedMs ?? 0) > (a.waitedMs ?? 0) ? b : a));
  const ids = cases.map((c) => {
    let text = oneLine(c.id);
    if (c.waitedMs !== undefined) text += ` ${Math.floor(c.waitedMs / 1000)} s`;
    if (c === longest && c.doing) text += ` (${oneLine(c.doing)})`;
    return text;
  });
  let line = `${head} · running ${ids.length}: ${ids.join(', ')}`;
  for (let shown = ids.length - 1; line.length > width && shown >= 1; shown--) {
    line = `${head} · running ${ids.length}: ${ids.slice(0, shown).join(', ')}, … (+${ids.length - shown})`;
  }
  return clipped(line, width);
}

export interface SummaryOptions extends ProgressOptions {
  /** Directory the report path is shown relative to (default process.cwd()). */
  cwd?: string;
  /** At most this many failures are listed (default 20); the reports hold the rest. */
  maxFailures?: number;
}

function clipped(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/**
 * When a case did not pass, first the verdict, the shared causes and the failures:
 * `FAILED: 1 of 34 cases did not pass (1 FAIL, 3 SKIP)`, `Shared causes:` …, `Failures:` …;
 * then always
 * `34 cases: 30 PASS, 1 FAIL, 0 WARN, 3 SKIP, 0 ERROR — reports in reports/latest/ (report.json, junit.xml, report.md, index.html)`
 * and, when some failures are waived, a line naming them.
 */
export function formatSummary(report: RunReport, files: readonly string[], options: SummaryOptions = {}): string {
  const color = options.color === true;
  const lead: string[] = [];
  const failed = failures(report);
  const causes = diagnosesOf(report);
  if (failed.length > 0 || causes.length > 0) {
    const head = headline(report);
    lead.push(paint(head.text, head.passed ? ANSI.PASS : ANSI.FAIL, color));
    if (causes.length > 0) {
      lead.push('Shared causes:');
      causes.forEach((d, i) => {
        const n = Array.isArray(d.cases) ? d.cases.length : 0;
        lead.push(`  ${i + 1}. ${clipped(oneLine(d.summary), 300)} (${n} ${n === 1 ? 'case' : 'cases'})`);
      });
    }
    if (failed.length > 0) {
      const max = options.maxFailures ?? 20;
      lead.push(`${failuresHeading(failed).replace(/ \(\d+\)$/, '')}:`);
      for (const c of failed.slice(0, max)) lead.push(`  ${clipped(formatCaseLine(c, { color }), 240)}`);
      if (failed.length > max) lead.push(`  … and ${failed.length - max} more (see report.md or index.html)`);
    }
  }
  const n = report.cases.length;
  const counts = VERDICTS.map((v) => {
    const text = `${report.summary[v]} ${v}`;
    return report.summary[v] > 0 && v !== 'PASS' ? paint(text, ANSI[v], color) : text;
  }).join(', ');
  let line = `${n} ${n === 1 ? 'case' : 'cases'}: ${counts}`;
  if (files.length > 0) {
    const first = files[0] ?? '';
    const dir = dirname(first);
    const rel = relative(options.cwd ?? process.cwd(), dir);
    const shown = rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? dir : rel;
    line += ` — reports in ${shown}${sep} (${files.map((f) => basename(f)).join(', ')})`;
  }
  const lines = [...lead, line];
  const waived = report.cases.filter(isWaived);
  if (waived.length > 0) lines.push(`${waived.length} waived: ${waived.map((c) => oneLine(c.id)).join(', ')}`);
  return lines.join('\n');
}
