// The order every report follows, shared so that index.html, report.md, junit.xml and the
// terminal agree: first the verdict, the shared causes (diagnoses) and the failures; then the
// cases by side (service, receiver, client, vectors) and case group (service.auth, …).
import { exitCodeFor, type CaseResult, type Diagnosis, type RunReport, type Verdict } from '../results/index.ts';
import { caseGroup, groupBy, isWaived } from './group.ts';

/** Sides in the order reports show them; a side not listed here follows, in order of appearance. */
const SIDE_ORDER = ['service', 'receiver', 'client', 'vectors'];

/** The side of a case id: its first part (`receiver.token.missing` → `receiver`). */
export function sideOf(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
}

export interface GroupOutline {
  group: string;
  cases: CaseResult[];
  /** Every case passed: hidden by "show only cases that did not pass". */
  allPass: boolean;
}

export interface SideOutline {
  side: string;
  groups: GroupOutline[];
  allPass: boolean;
}

/** Cases by side, then by case group; groups keep the order in which their first case finished. */
export function outline(cases: readonly CaseResult[]): SideOutline[] {
  const bySide = [...groupBy(cases, (c) => sideOf(c.id))];
  const rank = (side: string): number => {
    const i = SIDE_ORDER.indexOf(side);
    return i < 0 ? SIDE_ORDER.length : i;
  };
  bySide.sort(([a], [b]) => rank(a) - rank(b));
  return bySide.map(([side, list]) => {
    const groups = [...groupBy(list, (c) => caseGroup(c.id))].map(([group, members]) => ({
      group,
      cases: members,
      allPass: members.every((c) => c.verdict === 'PASS'),
    }));
    return { side, groups, allPass: groups.every((g) => g.allPass) };
  });
}

const FAILURE_ORDER: readonly Verdict[] = ['FAIL', 'ERROR', 'WARN'];

/** What a reader must look at: FAIL, then ERROR, then WARN (waived ones included, marked by the writer), in report order within each. */
export function failures(report: Pick<RunReport, 'cases'>): CaseResult[] {
  return FAILURE_ORDER.flatMap((v) => report.cases.filter((c) => c.verdict === v));
}

/** `Failures (3)`, or `Failures and warnings (5)` when the list holds WARN cases. */
export function failuresHeading(list: readonly CaseResult[]): string {
  return `${list.some((c) => c.verdict === 'WARN') ? 'Failures and warnings' : 'Failures'} (${list.length})`;
}

export interface Headline {
  /** The run's exit status would be 0 (no FAIL or ERROR that is not waived). */
  passed: boolean;
  /** `FAILED: 2 of 17 cases failed (1 FAIL, 1 ERROR); 2 SKIP` or `PASSED: 15 of 17 cases passed; 2 SKIP` */
  text: string;
}

/** The verdict of the whole run in one line: failures first, then what else did not pass (WARN and SKIP are not failures). */
export function headline(report: Pick<RunReport, 'cases' | 'summary' | 'finishedAt'>): Headline {
  const n = report.cases.length;
  const cases = (k: number): string => `${k} ${k === 1 ? 'case' : 'cases'}`;
  const counted = (list: readonly CaseResult[], verdicts: readonly Verdict[]): string =>
    verdicts.map((v) => [v, list.filter((c) => c.verdict === v).length] as const).filter(([, k]) => k > 0).map(([v, k]) => `${k} ${v}`).join(', ');
  const failing = report.cases.filter((c) => (c.verdict === 'FAIL' || c.verdict === 'ERROR') && !isWaived(c));
  const waived = report.cases.filter(isWaived).length;
  const passed = exitCodeFor(report.cases) === 0;
  const parts: string[] = [];
  if (n === 0) parts.push('no case ran');
  else if (failing.length > 0) parts.push(`FAILED: ${failing.length} of ${cases(n)} failed (${counted(failing, ['FAIL', 'ERROR'])})`);
  else if (report.summary.PASS === n) parts.push(`PASSED: all ${cases(n)} passed`);
  else parts.push(`PASSED: ${report.summary.PASS} of ${cases(n)} passed`);
  if (waived > 0) parts.push(`${waived} ${waived === 1 ? 'failure' : 'failures'} waived`);
  const others = counted(report.cases, ['WARN', 'SKIP']);
  if (others) parts.push(others);
  let text = parts.join('; ');
  if (report.finishedAt === undefined) text += ' (not finished: running, or stopped early)';
  return { passed, text };
}

/** The report's diagnoses that name at least one case, in report order. */
export function diagnosesOf(report: Pick<RunReport, 'diagnoses'>): Diagnosis[] {
  return Array.isArray(report.diagnoses) ? report.diagnoses.filter((d) => d && typeof d.summary === 'string') : [];
}

/** The diagnoses that explain one case (named by the case, or naming it). */
export function diagnosesFor(report: Pick<RunReport, 'diagnoses'>, c: CaseResult): Diagnosis[] {
  const ids = new Set(Array.isArray(c.diagnoses) ? c.diagnoses : []);
  return diagnosesOf(report).filter((d) => ids.has(d.id) || (Array.isArray(d.cases) && d.cases.includes(c.id)));
}

/** A report's title by its kind: a storm's and a vectors run's say so, a run's is the conformance report. */
export function reportTitle(report: Pick<RunReport, 'kind'>): string {
  return `collect-conformance ${report.kind === 'vectors' || report.kind === 'storm' ? report.kind : 'conformance'} report`;
}

/** Vectors runs have no seed (nothing random is drawn): reports say so instead of `seed 0`. */
export function hasSeed(report: Pick<RunReport, 'kind'>): boolean {
  return report.kind !== 'vectors';
}

/**
 * The reply deadline that applies to a receiver case (the target's `timing.replyDeadlineMs`,
 * DESIGN.md's default 3000 ms), for "took longer than" counts; none for other sides' cases. A
 * run of both sides names its targets under `targets`.
 */
export function replyDeadlineFor(report: Pick<RunReport, 'target'>, c: Pick<CaseResult, 'id'>): number | undefined {
  if (sideOf(c.id) !== 'receiver') return undefined;
  type Shown = { side?: unknown; timing?: { replyDeadlineMs?: unknown }; targets?: unknown };
  const top = report.target as Shown | undefined;
  const candidates: Shown[] = [top ?? {}, ...(Array.isArray(top?.targets) ? (top.targets as Shown[]) : [])];
  const receiver = candidates.find((t) => t && t.side === 'receiver');
  if (!receiver) return undefined;
  const ms = receiver.timing?.replyDeadlineMs;
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : 3000;
}
