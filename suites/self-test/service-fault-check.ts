// What the service self-test asserts, whichever set of cases runs (suites/self-test/
// service-faults.test.ts all of them; suites/mutation/service.proof.ts one group at a time):
// against the fault-free reference every case PASSes and the other mode's cases SKIP; with a
// fault on, the catalog's cases catch it, each for the reason the catalog names (its phrase: the
// branch of the check that caught it), the listed ones are ERROR or SKIP saying why, and every
// other case PASSes; every exchange a case shows is labelled, and every PASS notes what held.
// Scaled timing (SELF_TEST_TIMING).
import { expect } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import type { SideRunResult } from '../../harness/run/index.ts';
import type { SimulatorFault } from '../../harness/simulator/index.ts';
import { runStarted } from '../support/run-started.ts';
import { blurred, expectCaught, expectVerdicts, type NotApplicable } from './fault-check.ts';
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
async function runAgainst(faults: SimulatorFault[], mode: Mode, timing: ServiceTiming = SELF_TEST_TIMING, only?: string): Promise<SideRunResult> {
  const release = await RUNS_AT_ONCE.acquire();
  try {
    const { timeScale, processingDelayMs, callbackTimeoutMs, retryWindowMs } = timing;
    return await runStarted(startEmbeddedService({ faults, mode, timeScale, processingDelayMs, timing: { callbackTimeoutMs, retryWindowMs } }), {
      cases: SERVICE_CASES, seed: SEED, concurrency: CASES_AT_ONCE, perRequestTimeoutMs: REQUEST_LIMIT_MS, ...(only !== undefined ? { only } : {}),
    });
  } finally {
    release();
  }
}

/** The cases of the other mode SKIP: the production cases in sandbox mode, the sandbox ones in production. */
function otherMode(mode: Mode): NotApplicable {
  return (id) => SERVICE_CASES.find((c) => c.id === id)!.needs.includes(mode === 'sandbox' ? 'production' : 'sandbox');
}

/** The fault-free reference service in `mode`: every case (or every one `only` selects) PASSes, the other mode's SKIP with their reason. */
export async function expectReferencePasses(mode: Mode, { only }: { only?: string } = {}): Promise<void> {
  // A correct service's callbacks all come, so a longer wait costs nothing here; 1.2 s was once
  // missed in the end-to-end tier's timed group (production mode, two callbacks over TLS at once).
  const run = await runAgainst([], mode, { ...SELF_TEST_TIMING, callbackTimeoutMs: 3 * SELF_TEST_TIMING.callbackTimeoutMs }, only);
  const { results, preflight } = run;
  expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
  expect(results.map((r) => r.id)).toEqual(selectCases(SERVICE_CASES, only).map((c) => c.id));
  expectVerdicts(run, undefined, otherMode(mode));
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
  // The verdicts, the reasons naming the branch that caught the fault, the shared cause where there is one.
  expectCaught('service', entry, run, otherMode(mode));
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
}
