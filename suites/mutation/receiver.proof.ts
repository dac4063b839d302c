// The receiver cases' proof as `npm run mutation` runs it (unit cases/receiver): what
// suites/self-test/receiver-faults.test.ts asserts, cut into one test per case-id group. Stryker
// runs a mutant against the tests that reached it, one test at a time: a mutant of the token
// cases then runs the token group against the reference and against the faults the token cases
// catch, not all 42 cases 40 times over. What this gives up: a mutant that makes a case of
// another group wrong under a fault of this one only (the full sweep would see it) survives here,
// and is answered in suites/mutation/equivalent.json or by a test. Not part of `npm test`.
import { describe, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import type { ReceiverFault } from '../../harness/receiver/index.ts';
import { groupOf, RECEIVER_FAULT_CATALOG } from '../self-test/fault-catalog.ts';
import { CONFIRM_GROUP, CONFIRMING_TIMING, expectAllPass, expectFaultCaught, RECEIVER_TIMING } from '../self-test/receiver-fault-check.ts';

const SEED = Number(process.env.CC_SEED ?? 4242);
const GROUPS = [...new Set(RECEIVER_CASES.map((c) => groupOf(c.id)))];

// First: most mutants that break a case make it fail a correct receiver, and Stryker stops at the first failing test.
describe('fault-free reference receiver, one group at a time: every case PASSes', () => {
  for (const group of GROUPS) {
    it(`${group}: PASS (the confirm cases SKIP: it does not confirm)`, async () => {
      const embedded = await startEmbeddedReceiver(RECEIVER_TIMING);
      try {
        await expectAllPass(embedded.target, SEED, { only: group });
      } finally {
        await embedded.close();
      }
    });
  }
  it.each([false, true])(`${CONFIRM_GROUP} against a confirming receiver (its FAILED outcomes too: %s): PASS`, async (confirmsFailed) => {
    const embedded = await startEmbeddedReceiver({ ...CONFIRMING_TIMING, confirms: true, confirmsFailed });
    try {
      await expectAllPass(embedded.target, SEED, { only: CONFIRM_GROUP });
    } finally {
      await embedded.close();
    }
  });
});

describe('each receiver fault switch, the groups of its cases: caught for the reason the catalog pins, the rest of those groups PASS', () => {
  for (const entry of RECEIVER_FAULT_CATALOG) {
    it(`${entry.fault}: ${entry.caseIds.length} case(s) ${entry.expect}`, async () => {
      const embedded = await startEmbeddedReceiver({
        ...(entry.timing ?? (entry.confirms ? CONFIRMING_TIMING : RECEIVER_TIMING)), faults: [entry.fault as ReceiverFault], ...(entry.confirms ? { confirms: true } : {}),
      });
      try {
        await expectFaultCaught(entry, embedded.target, SEED, { scope: 'groups' });
      } finally {
        await embedded.close();
      }
    });
  }
});
