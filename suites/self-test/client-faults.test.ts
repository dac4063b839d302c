// Self-test of the client cases (issue 14): every client case PASSes against the fault-free
// reference SDK, and each fault switch of the reference SDK is caught by exactly the cases
// listed for it in client-fault-catalog.ts (every other client case still PASSes).
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { REFERENCE_SDK_FAULTS, type ReferenceSdkFault } from '../../harness/reference-sdk/index.ts';
import { CLIENT_FAULT_CATALOG } from './client-fault-catalog.ts';
import { expectClientFaultCaught, expectReferencePasses, runWith, SEED } from './client-fault-check.ts';
import { mentionProblems } from './fault-catalog.ts';

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
    await expectReferencePasses();
  });
});

describe.concurrent('each fault switch of the reference SDK is caught by its cases', () => {
  for (const entry of CLIENT_FAULT_CATALOG) {
    const what = entry.caseIds.length > 0 ? `${entry.caseIds.join(', ')} caught (FAIL, or WARN for a SHOULD case; the rest PASS)` : `${entry.skips?.length ?? 0} cases SKIP (not exercised; the rest PASS)`;
    it(`${entry.fault}: ${what}`, async () => {
      await expectClientFaultCaught(entry);
    });
  }
});

describe.concurrent('a signer wrong on every call is one cause, named once (client.signature-mismatch)', () => {
  it('client-key-as-secret: every signature FAIL points to it, and it names what the preflight saw', async () => {
    const run = await runWith(['client-key-as-secret']);
    const [cause, ...more] = run.diagnoses;
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
      expect(run.diagnoses.map((d) => d.id), faults.join()).not.toContain('client.signature-mismatch');
    }
  });
});

describe.concurrent('a body that is not JSON is one cause, named once (client.body-not-json)', () => {
  it('form-params: every FAIL points to it, it quotes the body, and no signature cause is named beside it', async () => {
    const run = await runWith(['form-params']);
    const [cause, ...more] = run.diagnoses;
    expect(more).toEqual([]);
    expect(cause?.id).toBe('client.body-not-json');
    expect(cause?.summary).toMatch(/^the SDK sends `application\/x-www-form-urlencoded`, not JSON: the plain call's body was `amount=1\.00&callback_url=http%3A%2F%2F127\.0\.0\.1/);
    const failed = run.results.filter((r) => r.verdict === 'FAIL').map((r) => r.id);
    expect([...cause!.cases].sort()).toEqual(failed.sort());
  });
});
