// How cases are grouped: by case-id group for JUnit and Markdown (`receiver.token`), by spec
// section for the HTML report (`§6`, `§5.1`). Shared so all formats agree.
import type { CaseResult } from '../results/index.ts';

/** The case-id group: the id up to its second dot (`receiver.token.missing` → `receiver.token`). */
export function caseGroup(id: string): string {
  const parts = id.split('.');
  return parts.length <= 2 ? id : `${parts[0]}.${parts[1]}`;
}

const SECTION = /§\s*(\d+(?:\.\d+)*)/;

/** The spec section a case refers to (`§6 rule 1` → `§6`); `other` when it names none. */
export function specSection(specRef: string): string {
  const m = SECTION.exec(specRef);
  return m ? `§${m[1]}` : 'other';
}

/** Orders sections as numbers (§5.1 < §5.10 < §6), `other` last. */
export function compareSections(a: string, b: string): number {
  if (a === b) return 0;
  if (a === 'other') return 1;
  if (b === 'other') return -1;
  const pa = a.slice(1).split('.').map(Number);
  const pb = b.slice(1).split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** Groups keep the order in which their first case finished. */
export function groupBy(cases: readonly CaseResult[], key: (c: CaseResult) => string): Map<string, CaseResult[]> {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases) {
    const k = key(c);
    const list = groups.get(k);
    if (list) list.push(c);
    else groups.set(k, [c]);
  }
  return groups;
}

/** A failure the waiver file accepts: still reported with its observed verdict, not counted against the run. */
export function isWaived(c: CaseResult): boolean {
  return c.waiver?.applied === true && (c.verdict === 'FAIL' || c.verdict === 'ERROR');
}

export type WaiverState = 'waived' | 'not-needed' | 'not-applied';

/**
 * What a waiver did, for display: `waived` (it excuses this observation), `not-needed` (the case
 * passed or was skipped), `not-applied` (a failure the waiver no longer covers, e.g. expired).
 */
export function waiverState(c: CaseResult): WaiverState | undefined {
  if (!c.waiver) return undefined;
  if (c.waiver.applied) return 'waived';
  return c.verdict === 'PASS' || c.verdict === 'SKIP' ? 'not-needed' : 'not-applied';
}

/** Durations as people read them: whole milliseconds, one decimal below 10 ms. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  return ms < 10 && !Number.isInteger(ms) ? ms.toFixed(1) : String(Math.round(ms));
}
