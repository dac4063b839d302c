// What the service self-test asserts, whichever set of cases runs (suites/self-test/
// service-faults.test.ts all of them; suites/mutation/service.proof.ts one group at a time):
// against the fault-free reference every case PASSes and the other mode's cases SKIP; with a
// fault on, the catalog's cases catch it, each for the reason the catalog names (its phrase: the
// branch of the check that caught it), the listed ones are ERROR or SKIP saying why, and every
// other case PASSes; every exchange a case shows is labelled, and every PASS notes what held.
// Scaled timing (SELF_TEST_TIMING).
import { expect } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { runChecked, type CheckedRun } from '../../harness/preflight/index.ts';
import { TIMING_BLURRED } from '../../harness/cases/service/index.ts';

/** The start of every back-off reason that declines to judge (backoffReason in harness/cases/service/retry.ts). */
const NOT_JUDGED = 'not judged: ';
import { diagnose } from '../../harness/diagnoses/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import type { SimulatorFault } from '../../harness/simulator/index.ts';
import { caughtVerdict } from './fault-catalog.ts';
import { expectPinned } from './pin-check.ts';
import { SELF_TEST_TIMING, type ServiceFaultEntry, type ServiceTiming } from './service-fault-catalog.ts';
import { CaseSlots, selectCases } from '../../harness/runner/index.ts';

export const SEED = Number(process.env['FC_SEED'] ?? 20261122);
export type Mode = 'sandbox' | 'production';

/** Two services at once: four starved a CI runner's event loop past the per-request limits (the end-to-end tier's first group). */
const RUNS_AT_ONCE = new CaseSlots(2);
/** A collect answer's limit well above a starved loopback round trip: no fault here is one of answer time. */
const REQUEST_LIMIT_MS = 5000;
/** About half a side's cases at once: their rejection watches (callbackTimeoutMs each) then take two turns, not six. */
const CASES_AT_ONCE = 24;

/** The service cases (or those `only` selects) against the reference service with `faults` on. */
async function runAgainst(faults: SimulatorFault[], mode: Mode, timing: ServiceTiming = SELF_TEST_TIMING, only?: string): Promise<CheckedRun> {
  const release = await RUNS_AT_ONCE.acquire();
  try {
    const { timeScale, processingDelayMs, callbackTimeoutMs, retryWindowMs } = timing;
    const service = await startEmbeddedService({ faults, mode, timeScale, processingDelayMs, timing: { callbackTimeoutMs, retryWindowMs } });
    try {
      return await runChecked({ cases: SERVICE_CASES, target: service.target, seed: SEED, concurrency: CASES_AT_ONCE, perRequestTimeoutMs: REQUEST_LIMIT_MS, ...(only !== undefined ? { only } : {}) });
    } finally {
      await service.close();
    }
  } finally {
    release();
  }
}

/** The cases of the other mode SKIP: the production cases in sandbox mode, the sandbox ones in production. */
function otherMode(id: string, mode: Mode): boolean {
  return SERVICE_CASES.find((c) => c.id === id)!.needs.includes(mode === 'sandbox' ? 'production' : 'sandbox');
}

function show(results: readonly CaseResult[]): string {
  return results.filter((r) => r.verdict !== 'PASS').map((r) => `${r.verdict} ${r.id}${r.reason ? `: ${r.reason}` : ''}`).join('\n');
}

/** The verdict the catalog expects of `r` with `entry`'s fault on; undefined for the fault-free reference. */
function expectedOf(r: CaseResult, mode: Mode, entry?: ServiceFaultEntry): string {
  if (otherMode(r.id, mode)) return 'SKIP';
  if (!entry) return 'PASS';
  if (entry.caseIds.includes(r.id)) return caughtVerdict(entry.expect, r.level);
  if (entry.errors?.includes(r.id)) return 'ERROR';
  if (entry.skips?.includes(r.id)) return 'SKIP';
  const byTiming = entry.byTiming?.[r.id];
  if (byTiming) return `PASS or ${byTiming}`;
  return 'PASS';
}

/**
 * The back-off case, not judged on a busy machine: the kit's own process stalled enough to change
 * its verdict, or the reference's doubling schedule arrived stretched (its in-process timers and
 * round trips late; intervals 786, 708 ms were seen for 200, 400 on a loaded CI runner) and too
 * short to tell growth from jitter. The kit says it cannot tell, which is true, and no verdict of
 * the fault's; it counts as the expected one, and its reason is not held to the fault's words.
 * Where the fault is one of the schedule's own (the catalog names the case), only the stall counts:
 * a schedule too short to judge there is what the fault's timing exists to prevent.
 */
function blurred(r: CaseResult, entry?: ServiceFaultEntry): boolean {
  if (r.verdict !== 'SKIP' || r.id !== 'service.callback.retry-back-off') return false;
  const reason = r.reason ?? '';
  return reason.startsWith(TIMING_BLURRED) || (!entry?.caseIds.includes(r.id) && reason.startsWith(NOT_JUDGED));
}

function observedOf(r: CaseResult, mode: Mode, entry?: ServiceFaultEntry): string {
  if (blurred(r, entry)) {
    console.warn(`${r.id}: ${r.reason}`);
    return expectedOf(r, mode, entry);
  }
  const byTiming = entry?.byTiming?.[r.id];
  return byTiming && (r.verdict === 'PASS' || r.verdict === byTiming) ? `PASS or ${byTiming}` : r.verdict;
}

/** The fault-free reference service in `mode`: every case (or every one `only` selects) PASSes, the other mode's SKIP with their reason. */
export async function expectReferencePasses(mode: Mode, { only }: { only?: string } = {}): Promise<void> {
  const { results, preflight } = await runAgainst([], mode, SELF_TEST_TIMING, only);
  expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
  expect(results.map((r) => r.id)).toEqual(selectCases(SERVICE_CASES, only).map((c) => c.id));
  expect(Object.fromEntries(results.map((r) => [r.id, observedOf(r, mode)])), `seed ${SEED}\n${show(results)}`)
    .toEqual(Object.fromEntries(results.map((r) => [r.id, expectedOf(r, mode)])));
  for (const r of results.filter((x) => x.verdict === 'SKIP' && !blurred(x))) expect(r.reason, r.id).toMatch(/mode: (production|sandbox) cases do not apply/);
  // A PASS says what held.
  for (const r of results.filter((x) => x.verdict === 'PASS')) expect(r.evidence?.notes?.length ?? 0, `${r.id} notes what held`).toBeGreaterThan(0);
  expectPassesUnreasoned(results);
  expectExchangesLabelled(results);
}

/** A PASS states what held in its notes; a reason is what a finding carries, so a PASS has none. */
function expectPassesUnreasoned(results: readonly CaseResult[]): void {
  expect(results.filter((r) => r.verdict === 'PASS' && r.reason !== undefined).map((r) => `${r.id}: ${r.reason}`), 'PASSes with a reason').toEqual([]);
}

/** Every request a case shows in its evidence says what it was. */
function expectExchangesLabelled(results: readonly CaseResult[]): void {
  const unlabelled = results.flatMap((r) => (r.evidence?.exchanges ?? []).filter((e) => !e.label).map(() => r.id));
  expect(unlabelled, 'cases showing an exchange without a label').toEqual([]);
}

/** `entry`'s fault on: its cases catch it for the reason it pins, the listed ones ERROR or SKIP, the rest (of all cases, or of `only`) PASS. */
export async function expectServiceFaultCaught(entry: ServiceFaultEntry, { only }: { only?: string } = {}): Promise<void> {
  const mode = entry.mode ?? 'sandbox';
  const run = await runAgainst([entry.fault as SimulatorFault], mode, entry.timing, only);
  const { results } = run;
  expect(results.map((r) => r.id)).toEqual(selectCases(SERVICE_CASES, only).map((c) => c.id));
  expect(Object.fromEntries(results.map((r) => [r.id, observedOf(r, mode, entry)])), `seed ${SEED}, fault ${entry.fault}\n${show(results)}`)
    .toEqual(Object.fromEntries(results.map((r) => [r.id, expectedOf(r, mode, entry)])));
  for (const r of results.filter((x) => entry.caseIds.includes(x.id))) {
    // A WARN is a SHOULD not met: its reason never says "must".
    if (r.verdict === 'WARN') expect(r.reason, `${r.id} is a SHOULD`).not.toMatch(/\bmust\b/i);
    expect(r.evidence?.exchanges?.length ?? 0, `${r.id} shows the request sent`).toBeGreaterThan(0);
  }
  // An ERROR names the control or the precondition that did not hold; a SKIP says why.
  for (const r of results.filter((x) => x.verdict === 'ERROR')) {
    expect(r.reason, r.id).toMatch(/positive control \(.+\) did not hold: \S|^precondition: \S|^control failed: \S/);
  }
  for (const r of results.filter((x) => x.verdict === 'SKIP')) expect(r.reason, r.id).toBeTruthy();
  expectPassesUnreasoned(results);
  expectExchangesLabelled(results);
  // The reasons name the branch that caught the fault; the shared cause, where there is one, is named.
  expectPinned(entry, results.filter((r) => !blurred(r, entry)), diagnose([{ preflight: run.preflight.preflight, results, unproven: run.unproven }]));
  if (!entry.diagnosis) {
    // A fault that shows in a few cases only: the preflight holds and names nothing.
    expect(run.preflight.preflight.findings, JSON.stringify(run.preflight.preflight.findings)).toEqual([]);
  }
}
