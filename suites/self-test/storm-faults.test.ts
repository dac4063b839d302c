// The volume faults of the reference receiver (storm-fault-catalog.ts) and its shedding mode pass
// every case of `run`: one callback at a time (ten at once for the race) cannot tell them from a
// correct receiver. suites/storm proves that the storm can.
import { describe, it } from 'vitest';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { STORM_FAULT_CATALOG } from './storm-fault-catalog.ts';
import { expectAllPass, RECEIVER_TIMING as TIMING } from './receiver-fault-check.ts';

const SEED = Number(process.env.CC_SEED ?? 4242);

// One at a time: receiver-faults.test.ts runs four receivers at once beside this file, and more starve the latency cases.
describe('volume faults pass run: every receiver case PASSes with each on (a new kind of entry: passes run, caught by storm)', () => {
  for (const entry of STORM_FAULT_CATALOG) {
    it(`${entry.fault}: all ${RECEIVER_CASES.length} receiver cases PASS, the confirm cases SKIP (seed ${SEED}); ${entry.caseIds[0]} catches it`, async () => {
      const embedded = await startEmbeddedReceiver({ ...TIMING, faults: [entry.fault] });
      try {
        await expectAllPass(embedded.target, SEED);
      } finally {
        await embedded.close();
      }
    });
  }
  it(`the shedding mode (503 + Retry-After when too many wait): all ${RECEIVER_CASES.length} receiver cases PASS (seed ${SEED})`, async () => {
    const embedded = await startEmbeddedReceiver({ ...TIMING, shedding: true });
    try {
      await expectAllPass(embedded.target, SEED);
    } finally {
      await embedded.close();
    }
  });
});
