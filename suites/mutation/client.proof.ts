// The client cases' proof as `npm run mutation` runs it (unit cases/client): what
// suites/self-test/client-faults.test.ts asserts, cut into one test per case-id group (see
// receiver.proof.ts for why, and what it gives up). Not part of `npm test`.
import { describe, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { CLIENT_FAULT_CATALOG } from '../self-test/client-fault-catalog.ts';
import { expectClientFaultCaught, expectReferencePasses } from '../self-test/client-fault-check.ts';
import { groupOf } from '../self-test/fault-catalog.ts';

const GROUPS = [...new Set(CLIENT_CASES.map((c) => groupOf(c.id)))];

describe('fault-free reference SDK, one group at a time: every case PASSes', () => {
  for (const group of GROUPS) it(`${group}: PASS`, () => expectReferencePasses({ only: group }));
});

describe('each fault switch of the reference SDK, the groups of its cases: caught for the reason the catalog pins, the rest of those groups PASS', () => {
  for (const entry of CLIENT_FAULT_CATALOG) {
    // A fault no case catches makes cases SKIP: their groups run.
    const groups = [...new Set([...entry.caseIds, ...entry.skips ?? []].map(groupOf))];
    it(`${entry.fault}: ${entry.caseIds.length} case(s) → ${entry.expect}`, () => expectClientFaultCaught(entry, { only: groups.join(',') }));
  }
});
