// The service cases' proof as `npm run mutation` runs it (unit cases/service): what
// suites/self-test/service-faults.test.ts asserts, cut into one test per case-id group (see
// receiver.proof.ts for why, and what it gives up). Not part of `npm test`.
import { describe, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { groupOf, groupsPinnedBy } from '../self-test/fault-catalog.ts';
import { SERVICE_FAULT_CATALOG } from '../self-test/service-fault-catalog.ts';
import { expectReferencePasses, expectServiceFaultCaught } from '../self-test/service-fault-check.ts';

const GROUPS = [...new Set(SERVICE_CASES.map((c) => groupOf(c.id)))];

describe('fault-free reference service, one group at a time: every case PASSes, the other mode\'s SKIP', () => {
  for (const group of GROUPS) {
    it.each(['sandbox', 'production'] as const)(`${group}, %s mode`, async (mode) => {
      await expectReferencePasses(mode, { only: group });
    });
  }
});

describe('each simulator fault, the groups of the cases it pins: caught for the reason the catalog names, the rest of those groups PASS', () => {
  for (const entry of SERVICE_FAULT_CATALOG) {
    it(`${entry.fault}: ${entry.caseIds.length} case(s) → ${entry.expect}`, async () => {
      await expectServiceFaultCaught(entry, { only: groupsPinnedBy(entry).join(',') });
    });
  }
});
