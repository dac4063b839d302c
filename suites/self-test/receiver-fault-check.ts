// What "a receiver fault is caught" means, whichever way the records are read (test hooks, the
// receiver's database, a command): exactly the catalog's cases FAIL (WARN at SHOULD), each for
// the reason the catalog pins (its words, or the shared cause that names it), the listed
// negative cases are ERROR naming their control, the listed ones SKIP saying why, one diagnosis
// names every non-PASS case where the catalog says so, and every FAIL explains itself with
// requests that show it. Used by receiver-faults.test.ts (the hooks) and suites/observe.
import { expect } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { selectCases } from '../../harness/runner/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { runSide } from '../../harness/run/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { groupOf, groupsPinnedBy, type ReceiverFaultEntry } from './fault-catalog.ts';
import { expectCaught, expectVerdicts, type NotApplicable } from './fault-check.ts';

// Scaled timing: 5 s of fulfilment work becomes 100 ms; 500 ms is far above loopback replies
// (also with parallel test workers on 2 cores) and keeps the polling of a never-applied
// record short.
export const RECEIVER_TIMING = { timeScale: 0.02, replyDeadlineMs: 500 };
// A confirming receiver asks the harness's status endpoint before it applies a SUCCESS, within a
// time limit of half the deadline: 500 ms of it keeps a loaded machine's loopback round trip
// (the burst's twenty at once) clear of both.
export const CONFIRMING_TIMING = { timeScale: 0.02, replyDeadlineMs: 1000 };
export const CONFIRM_GROUP = 'receiver.confirm';

/** A receiver that does not confirm has its confirm cases SKIP, whatever its fault. */
function confirmCasesOf(target: ResolvedReceiverTarget): NotApplicable {
  return (id) => !target.confirms && groupOf(id) === CONFIRM_GROUP;
}

/**
 * Every receiver case (or every one of the `only` group) PASSes against `target` (a correct
 * receiver), the preflight too; a target that does not confirm gets the confirm cases SKIP,
 * saying so.
 */
export async function expectAllPass(target: ResolvedReceiverTarget, seed: number, { only }: { only?: string } = {}): Promise<CaseResult[]> {
  const run = await runSide({ cases: RECEIVER_CASES, target, seed, ...(only !== undefined ? { only } : {}) });
  const { results, preflight } = run;
  expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
  expect(results).toHaveLength(selectCases(RECEIVER_CASES, only).length);
  expectVerdicts(run, undefined, confirmCasesOf(target));
  if (target.confirms) {
    expect(preflight.controls.confirmation?.state).toBe('held');
    return results;
  }
  const confirm = results.filter((r) => groupOf(r.id) === CONFIRM_GROUP);
  if (only === undefined || only === CONFIRM_GROUP) expect(confirm.length).toBeGreaterThan(0);
  for (const r of confirm) expect(r.reason, r.id).toContain('the target file has no "confirms"');
  return results;
}

/**
 * Every receiver case run against `target` (the receiver with `entry`'s fault on), or with
 * `scope: 'groups'` only the groups of the cases the entry pins (the suites that prove the same catches
 * through another way of reading the records).
 */
export async function expectFaultCaught(
  entry: ReceiverFaultEntry, target: ResolvedReceiverTarget, seed: number, { scope = 'all' }: { scope?: 'all' | 'groups' } = {},
): Promise<CaseResult[]> {
  const groups = groupsPinnedBy(entry);
  const run = await runSide({ cases: RECEIVER_CASES, target, seed, ...(scope === 'groups' ? { only: groups.join(',') } : {}) });
  const { results, preflight, unproven, diagnoses } = run;
  // The verdicts, each reason naming the branch that caught the fault, the shared cause where there is one.
  expectCaught('receiver', entry, run, confirmCasesOf(target));
  // A SKIP says the rule was not exercised, and why.
  for (const id of entry.skips ?? []) expect(results.find((r) => r.id === id)?.reason, id).toMatch(/^not exercised: /);
  // An ERROR of an unproven negative case names its control and what the control saw; a
  // positive case that a blocking finding left unexercised names that finding (issue 41); any
  // other ERROR names the control of its own that says the case could not judge its rule.
  const blocking = preflight.findings.find((f) => f.blocking);
  for (const r of results.filter((x) => x.verdict === 'ERROR')) {
    expect(r.reason, r.id).toMatch(!unproven.includes(r.id)
      ? /says nothing yet about/
      : blocking && !RECEIVER_CASES.find((c) => c.id === r.id)?.negative
        ? new RegExp(`^not exercised: ${blocking.blocking!.headline} \\(the preflight's finding ${blocking.id}\\), and this case's valid callback got the same answer: `)
      : groupOf(r.id) === CONFIRM_GROUP
        ? /positive control \(the preflight.s valid SUCCESS callback, which the harness.s status endpoint confirms\) did not hold: \S/
        : /positive control \(the preflight.s valid callback.*\) did not hold: it was answered \d{3}/);
  }
  if (entry.diagnosis) {
    // One cause explains every case that did not pass: it is named, with the cases it explains.
    const named = diagnoses.find((d) => d.id === entry.diagnosis);
    expect(named, JSON.stringify(diagnoses)).toBeDefined();
    expect([...named!.cases].sort()).toEqual(results.filter((r) => r.verdict !== 'PASS' && r.verdict !== 'SKIP').map((r) => r.id).sort());
  }
  // A FAIL explains itself: a reason, and the requests that show it.
  for (const r of results.filter((x) => x.verdict === 'FAIL' || x.verdict === 'WARN')) {
    expect(r.reason, r.id).toBeTruthy();
    expect(r.evidence?.exchanges?.length, r.id).toBeGreaterThan(0);
    expect(r.evidence?.exchanges?.[0]?.curl, r.id).toMatch(/^curl /);
  }
  return results;
}
