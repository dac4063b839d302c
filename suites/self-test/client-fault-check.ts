// What the client self-test asserts, whichever set of cases runs (suites/self-test/
// client-faults.test.ts all of them; suites/mutation/client.proof.ts one group at a time): every
// case PASSes against the fault-free reference SDK; with a fault on, exactly the catalog's cases
// catch it, each for the reason it pins and with its evidence, and every other case PASSes.
import { expect } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedClient } from '../../harness/embedded/index.ts';
import { diagnose } from '../../harness/diagnoses/index.ts';
import { runChecked, type CheckedRun } from '../../harness/preflight/index.ts';
import type { ReferenceSdkFault } from '../../harness/reference-sdk/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import type { ClientFaultEntry } from './client-fault-catalog.ts';
import { caughtVerdict } from './fault-catalog.ts';
import { expectPinned } from './pin-check.ts';
import { selectCases } from '../../harness/runner/index.ts';

export const SEED = Number(process.env.CC_SEED ?? 4242);

function explain(results: readonly CaseResult[]): string {
  return results.filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.verdict} ${r.reason ?? ''}`).join('\n');
}

/** The client cases (or those `only` selects) against the reference SDK with `faults` on. */
export async function runWith(faults: ReferenceSdkFault[], only?: string): Promise<CheckedRun> {
  const embedded = await startEmbeddedClient({ faults });
  try {
    return await runChecked({ cases: CLIENT_CASES, target: embedded.target, seed: SEED, ...(only !== undefined ? { only } : {}) });
  } finally {
    await embedded.close();
  }
}

/** The fault-free reference SDK: every case (or every one `only` selects) PASSes, the preflight too. */
export async function expectReferencePasses({ only }: { only?: string } = {}): Promise<void> {
  const { results, preflight } = await runWith([], only);
  expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
  expect(results).toHaveLength(selectCases(CLIENT_CASES, only).length);
  expect(explain(results)).toBe('');
}

/** `entry`'s fault on: its cases catch it for the reason it pins, with their evidence; the rest (of all cases, or of `only`) PASS. */
export async function expectClientFaultCaught(entry: ClientFaultEntry, { only }: { only?: string } = {}): Promise<void> {
  const run = await runWith([entry.fault as ReferenceSdkFault], only);
  const { results } = run;
  const expected = Object.fromEntries(results.map((r) => [r.id,
    entry.caseIds.includes(r.id) ? caughtVerdict(entry.expect, r.level) : entry.errors?.includes(r.id) ? 'ERROR' : entry.skips?.includes(r.id) ? 'SKIP' : 'PASS']));
  expect(Object.fromEntries(results.map((r) => [r.id, r.verdict])), explain(results)).toEqual(expected);
  // Each reason names the deviation; the shared cause, where there is one, is named.
  expectPinned(entry, results, diagnose([{ preflight: run.preflight.preflight, results, unproven: run.unproven }]));
  for (const r of results.filter((x) => entry.caseIds.includes(x.id))) {
    // Every finding carries its evidence: the request as received, the signing stages, the adapter's line, a curl line.
    const evidence = r.evidence as { exchanges?: Array<{ curl?: string }>; signing?: unknown[]; adapter?: { answered?: string } };
    expect(evidence.adapter?.answered, r.id).toMatch(/^\{"id":/);
    if (r.id.startsWith('client.collect.')) {
      expect(evidence.exchanges?.[0]?.curl, r.id).toMatch(/^curl /);
      expect(evidence.signing?.length, r.id).toBeGreaterThan(0);
    }
  }
}
