// Self-test of the client cases (issue 14): every client case PASSes against the fault-free
// reference SDK, and each fault switch of the reference SDK is caught by exactly the cases
// listed for it in client-fault-catalog.ts (every other client case still PASSes).
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedClient } from '../../harness/embedded/index.ts';
import { diagnose } from '../../harness/diagnoses/index.ts';
import { runChecked } from '../../harness/preflight/index.ts';
import { REFERENCE_SDK_FAULTS, type ReferenceSdkFault } from '../../harness/reference-sdk/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { CLIENT_FAULT_CATALOG } from './client-fault-catalog.ts';
import { caughtVerdict, mentionProblems } from './fault-catalog.ts';
import { expectPinned } from './pin-check.ts';

const SEED = Number(process.env.CC_SEED ?? 4242);

function explain(results: readonly CaseResult[]): string {
  return results.filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.verdict} ${r.reason ?? ''}`).join('\n');
}

async function runWith(faults: ReferenceSdkFault[]) {
  const embedded = await startEmbeddedClient({ faults });
  try {
    return await runChecked({ cases: CLIENT_CASES, target: embedded.target, seed: SEED });
  } finally {
    await embedded.close();
  }
}

describe.concurrent('client fault catalog covers every fault switch of the reference SDK', () => {
  it('each fault has an entry naming existing cases, and every client case catches one', () => {
    expect(CLIENT_FAULT_CATALOG.map((e) => e.fault).sort()).toEqual(REFERENCE_SDK_FAULTS.map((f) => f.name).sort());
    const ids = new Set(CLIENT_CASES.map((c) => c.id));
    for (const entry of CLIENT_FAULT_CATALOG) for (const id of entry.caseIds) expect(ids, `${entry.fault} → ${id}`).toContain(id);
    const caught = new Set(CLIENT_FAULT_CATALOG.flatMap((e) => e.caseIds));
    expect(CLIENT_CASES.map((c) => c.id).filter((id) => !caught.has(id))).toEqual([]);
  });
  it('states for every fault what the reason of each case that catches it says', () => {
    expect(CLIENT_FAULT_CATALOG.flatMap(mentionProblems)).toEqual([]);
  });
});

describe.concurrent('fault-free reference SDK: every client case PASSes', () => {
  it(`all ${CLIENT_CASES.length} client cases PASS (seed ${SEED})`, async () => {
    const { results, preflight } = await runWith([]);
    expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
    expect(results).toHaveLength(CLIENT_CASES.length);
    expect(explain(results)).toBe('');
  });
});

describe.concurrent('each fault switch of the reference SDK is caught by its cases', () => {
  for (const entry of CLIENT_FAULT_CATALOG) {
    const what = entry.caseIds.length > 0 ? `${entry.caseIds.join(', ')} caught (FAIL, or WARN for a SHOULD case; the rest PASS)` : `${entry.skips?.length ?? 0} cases SKIP (not exercised; the rest PASS)`;
    it(`${entry.fault}: ${what}`, async () => {
      const run = await runWith([entry.fault as ReferenceSdkFault]);
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
    });
  }
});

describe.concurrent('a signer wrong on every call is one cause, named once (client.signature-mismatch)', () => {
  it('client-key-as-secret: every signature FAIL points to it, and it names what the preflight saw', async () => {
    const run = await runWith(['client-key-as-secret']);
    const [cause, ...more] = diagnose([{ preflight: run.preflight.preflight, results: run.results }]);
    expect(more).toEqual([]);
    expect(cause?.id).toBe('client.signature-mismatch');
    expect(cause?.summary).toMatch(/^on the preflight's plain call .* the signature is not the one over the bytes sent: .* share this one cause$/);
    const failed = run.results.filter((r) => r.verdict === 'FAIL').map((r) => r.id);
    expect(failed.length).toBeGreaterThan(5);
    expect([...cause!.cases].sort()).toEqual(failed.sort());
  });
  it('a correct SDK and a fault that keeps the signature right name no such cause', async () => {
    for (const faults of [[], ['uppercase-hex']] as ReferenceSdkFault[][]) {
      const run = await runWith(faults);
      expect(diagnose([{ preflight: run.preflight.preflight, results: run.results }]).map((d) => d.id), faults.join()).not.toContain('client.signature-mismatch');
    }
  });
});

describe.concurrent('a body that is not JSON is one cause, named once (client.body-not-json)', () => {
  it('form-params: every FAIL points to it, it quotes the body, and no signature cause is named beside it', async () => {
    const run = await runWith(['form-params']);
    const [cause, ...more] = diagnose([{ preflight: run.preflight.preflight, results: run.results }]);
    expect(more).toEqual([]);
    expect(cause?.id).toBe('client.body-not-json');
    expect(cause?.summary).toMatch(/^the SDK sends `application\/x-www-form-urlencoded`, not JSON: the plain call's body was `amount=1\.00&callback_url=http%3A%2F%2F127\.0\.0\.1/);
    const failed = run.results.filter((r) => r.verdict === 'FAIL').map((r) => r.id);
    expect([...cause!.cases].sort()).toEqual(failed.sort());
  });
});
