// Self-test of the service side: every case PASSes against the fault-free reference service (in
// each mode, the other mode's cases SKIP), and for each fault of the reference service every
// service case runs and is judged as service-fault-check.ts says (the catalog's cases catch it
// for the reason the catalog names, the rest PASS). Scaled timing, two fault runs at once.
import { describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { SIMULATOR_FAULTS } from '../../harness/simulator/index.ts';
import { mentionProblems } from './fault-catalog.ts';
import { SERVICE_CASES_WITHOUT_FAULT, SERVICE_FAULT_CATALOG } from './service-fault-catalog.ts';
import { expectReferencePasses, expectServiceFaultCaught } from './service-fault-check.ts';

describe.concurrent('service.* against the fault-free reference service', () => {
  it.each(['sandbox', 'production'] as const)('%s mode: every case PASSes; the other mode\'s cases SKIP with their reason', async (mode) => {
    await expectReferencePasses(mode);
  });
});

describe('the service fault catalog', () => {
  it('names every fault of SIMULATOR_FAULTS once, and only case ids that exist', () => {
    const named = SERVICE_FAULT_CATALOG.map((e) => e.fault);
    expect(named.filter((f, i) => named.indexOf(f) !== i), 'faults named twice').toEqual([]);
    expect(SIMULATOR_FAULTS.map((f) => f.name).filter((f) => !named.includes(f))).toEqual([]);
    const known = new Set(SIMULATOR_FAULTS.map((f) => f.name as string));
    expect(named.filter((f) => !known.has(f))).toEqual([]);
    const ids = new Set(SERVICE_CASES.map((c) => c.id));
    const listed = SERVICE_FAULT_CATALOG.flatMap((e) => [...e.caseIds, ...e.errors ?? [], ...e.skips ?? [], ...Object.keys(e.byTiming ?? {})]);
    expect(listed.filter((id) => !ids.has(id))).toEqual([]);
  });
  it('states for every fault what the reason of each case that catches it says', () => {
    expect(SERVICE_FAULT_CATALOG.flatMap(mentionProblems)).toEqual([]);
    expect(SERVICE_FAULT_CATALOG.filter((e) => e.caseIds.length === 0).map((e) => e.fault), 'faults no case catches').toEqual([]);
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
describe.concurrent('each simulator fault is caught by its service cases, for the reason the catalog names; every other case PASSes', () => {
  // The slower runs (a timing of their own) first, so the file does not wait for one at its end.
  for (const entry of [...SERVICE_FAULT_CATALOG].sort((a, b) => Number(b.timing !== undefined) - Number(a.timing !== undefined))) {
    const mode = entry.mode ?? 'sandbox';
    it(`${entry.fault}: ${entry.caseIds.length} case(s) → ${entry.expect}${mode === 'production' ? ' (production)' : ''}`, async () => {
      await expectServiceFaultCaught(entry);
    });
  }
});
