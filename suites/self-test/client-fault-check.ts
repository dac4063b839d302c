// What the client self-test asserts, whichever set of cases runs (suites/self-test/
// client-faults.test.ts all of them; suites/mutation/client.proof.ts one group at a time): every
// case PASSes against the fault-free reference SDK; with a fault on, exactly the catalog's cases
// catch it, each for the reason it pins and with its evidence, and every other case PASSes.
import { expect } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { selectCases } from '../../harness/runner/index.ts';
import { startEmbeddedClient } from '../../harness/embedded/index.ts';
import type { ReferenceSdkFault } from '../../harness/reference-sdk/index.ts';
import type { SideRunResult } from '../../harness/run/index.ts';
import { runStarted } from '../support/run-started.ts';
import type { ClientFaultEntry } from './client-fault-catalog.ts';
import { expectCaught, expectVerdicts } from './fault-check.ts';

export const SEED = Number(process.env.CC_SEED ?? 4242);

/** The client cases (or those `only` selects) against the reference SDK with `faults` on. */
export function runWith(faults: ReferenceSdkFault[], only?: string): Promise<SideRunResult> {
  return runStarted(startEmbeddedClient({ faults }), { cases: CLIENT_CASES, seed: SEED, ...(only !== undefined ? { only } : {}) });
}

/** The fault-free reference SDK: every case (or every one `only` selects) PASSes, the preflight too. */
export async function expectReferencePasses({ only }: { only?: string } = {}): Promise<void> {
  const run = await runWith([], only);
  const { results, preflight } = run;
  expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
  expect(results).toHaveLength(selectCases(CLIENT_CASES, only).length);
  expectVerdicts(run);
}

/** `entry`'s fault on: its cases catch it for the reason it pins, with their evidence; the rest (of all cases, or of `only`) PASS. */
export async function expectClientFaultCaught(entry: ClientFaultEntry, { only }: { only?: string } = {}): Promise<void> {
  const run = await runWith([entry.fault as ReferenceSdkFault], only);
  // The verdicts, each reason naming the deviation, the shared cause where there is one.
  expectCaught('client', entry, run);
  for (const r of run.results.filter((x) => entry.caseIds.includes(x.id))) {
    // Every finding carries its evidence: the request as received, the signing stages, the adapter's line, a curl line.
    const evidence = r.evidence as { exchanges?: Array<{ curl?: string }>; signing?: unknown[]; adapter?: { answered?: string } };
    expect(evidence.adapter?.answered, r.id).toMatch(/^\{"id":/);
    if (r.id.startsWith('client.collect.')) {
      expect(evidence.exchanges?.[0]?.curl, r.id).toMatch(/^curl /);
      expect(evidence.signing?.length, r.id).toBeGreaterThan(0);
    }
  }
}
