// What a storm's five verdicts are expected to be, shared by the native storm's fault tests
// (storm-faults.test.ts) and the same storms run through Artillery (artillery.test.ts), so both
// hold a fault to exactly the same expectation.
import { expect } from 'vitest';
import type { CaseResult } from '../../harness/results/index.ts';
import { STORM_CASES } from '../../harness/storm/index.ts';
import type { StormFaultEntry } from '../self-test/storm-fault-catalog.ts';

export const verdicts = (results: Record<string, CaseResult>) => Object.fromEntries(Object.values(results).map((r) => [r.id, r.verdict]));
export const explain = (results: Record<string, CaseResult>) => Object.values(results).filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.verdict} ${r.reason ?? ''}`).join('\n');
export const allPass = Object.fromEntries(STORM_CASES.map((c) => [c.id, 'PASS']));

/** The fault's storm case FAILs for the reason the catalog pins, with the first broken ids' whole histories; every other case PASSes. */
export function expectCaught(results: Record<string, CaseResult>, entry: StormFaultEntry): void {
  expect(verdicts(results), explain(results)).toEqual({ ...allPass, [entry.caseIds[0]]: 'FAIL' });
  const caught = results[entry.caseIds[0]]!;
  expect(caught.reason).toContain(entry.reasonMentions);
  // The first ids that broke the rule, each with its whole delivery history.
  const first = caught.evidence!.firstIds!;
  expect(first.length).toBeGreaterThan(0);
  for (const id of first) expect(id.deliveries.length).toBeGreaterThan(0);
}
