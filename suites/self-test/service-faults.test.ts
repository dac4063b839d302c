// Self-test of the service side: every case PASSes against the fault-free reference service,
// and each fault of the reference service is caught by the cases the catalog names, with the
// catalog's verdict. Scaled timing (embedded defaults): the whole file runs in about 25 s.
import { describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { runChecked } from '../../harness/preflight/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { SIMULATOR_FAULTS, type SimulatorFault } from '../../harness/simulator/index.ts';
import { caughtVerdict } from './fault-catalog.ts';
import { SERVICE_CASES_WITHOUT_FAULT, SERVICE_FAULT_CATALOG } from './service-fault-catalog.ts';

const SEED = Number(process.env['FC_SEED'] ?? 20261122);


async function runAgainst(faults: SimulatorFault[], mode: 'sandbox' | 'production', ids?: readonly string[]): Promise<CaseResult[]> {
  const service = await startEmbeddedService({ faults, mode });
  try {
    const cases = ids ? SERVICE_CASES.filter((c) => ids.includes(c.id)) : SERVICE_CASES;
    return (await runChecked({ cases, target: service.target, seed: SEED })).results;
  } finally {
    await service.close();
  }
}

function show(results: readonly CaseResult[]): string {
  return results.map((r) => `${r.verdict} ${r.id}${r.reason ? `: ${r.reason}` : ''}`).join('\n');
}

describe('service.* against the fault-free reference service (sandbox)', () => {
  it('every case PASSes; the production-only cases SKIP with their reason', async () => {
    const results = await runAgainst([], 'sandbox');
    expect(results.map((r) => r.id)).toEqual(SERVICE_CASES.map((c) => c.id));
    for (const r of results) {
      const productionOnly = SERVICE_CASES.find((c) => c.id === r.id)!.needs.includes('production');
      expect(r.verdict, `seed ${SEED}\n${show([r])}`).toBe(productionOnly ? 'SKIP' : 'PASS');
    }
  });
});

describe('the service fault catalog', () => {
  it('names every fault of SIMULATOR_FAULTS, and only case ids that exist', () => {
    const named = new Set(SERVICE_FAULT_CATALOG.map((e) => e.fault));
    expect(SIMULATOR_FAULTS.map((f) => f.name).filter((f) => !named.has(f))).toEqual([]);
    const known = new Set(SIMULATOR_FAULTS.map((f) => f.name as string));
    expect([...named].filter((f) => !known.has(f))).toEqual([]);
    const ids = new Set(SERVICE_CASES.map((c) => c.id));
    expect(SERVICE_FAULT_CATALOG.flatMap((e) => e.caseIds).filter((id) => !ids.has(id))).toEqual([]);
  });
  it('proves every service case with at least one fault (or an explicit, commented exemption)', () => {
    const caught = new Set(SERVICE_FAULT_CATALOG.flatMap((e) => e.caseIds));
    const unproven = SERVICE_CASES.map((c) => c.id).filter((id) => !caught.has(id) && !SERVICE_CASES_WITHOUT_FAULT.includes(id));
    expect(unproven, 'service cases no fault of the catalog makes FAIL or WARN').toEqual([]);
    // An exemption for a case that is caught, or that does not exist, is stale.
    expect(SERVICE_CASES_WITHOUT_FAULT.filter((id) => caught.has(id) || !SERVICE_CASES.some((c) => c.id === id))).toEqual([]);
  });
});

// Each fault runs against its own service and listener on their own ports: side by side.
describe.concurrent('each simulator fault is caught by its service case', () => {
  for (const entry of SERVICE_FAULT_CATALOG) {
    it(`${entry.fault}: ${entry.caseIds.join(', ')} → ${entry.expect}`, async () => {
      const results = await runAgainst([entry.fault as SimulatorFault], entry.mode ?? 'sandbox', entry.caseIds);
      expect(results.map((r) => r.id).sort()).toEqual([...entry.caseIds].sort());
      for (const r of results) {
        expect(r.verdict, `seed ${SEED}, fault ${entry.fault}\n${show([r])}`).toBe(caughtVerdict(entry.expect, r.level));
        expect(r.reason, `${r.id} states why`).toBeTruthy();
        // A WARN is a SHOULD not met: its reason never says "must".
        if (r.verdict === 'WARN') expect(r.reason, `${r.id} is a SHOULD`).not.toMatch(/\bmust\b/i);
        expect(r.evidence?.exchanges?.length ?? 0, `${r.id} shows the request sent`).toBeGreaterThan(0);
      }
    });
  }
});
