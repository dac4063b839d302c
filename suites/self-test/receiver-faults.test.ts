// Self-test of the receiver-side cases (issue 4 "Proof"): every case PASSes against the
// fault-free reference receiver (the confirm cases against it in its confirming mode, SKIP
// without it), and for each fault switch every receiver case runs: exactly the cases listed for
// it in fault-catalog.ts are caught, each for the reason the catalog pins, and every other case
// PASSes. Four receivers at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { RECEIVER_FAULTS, type ReceiverFault } from '../../harness/receiver/index.ts';
import { runStarted } from '../support/run-started.ts';
import { mentionProblems, RECEIVER_FAULT_CATALOG } from './fault-catalog.ts';
import { STORM_FAULT_CATALOG } from './storm-fault-catalog.ts';
import { CONFIRMING_TIMING, expectAllPass, expectFaultCaught, RECEIVER_TIMING as TIMING } from './receiver-fault-check.ts';
import { CaseSlots } from '../../harness/runner/index.ts';
import { blurred, explain } from './fault-check.ts';

const SEED = Number(process.env.CC_SEED ?? 4242);

/** Four receivers and their runs at once: more starve a loaded machine's event loop past the reply deadlines. */
const RUNS_AT_ONCE = new CaseSlots(4);

describe('fault catalog covers every receiver fault switch', () => {
  it('each fault of RECEIVER_FAULTS has an entry (the volume faults in storm-fault-catalog.ts), and each entry names existing cases', () => {
    const faults = new Set([...RECEIVER_FAULT_CATALOG, ...STORM_FAULT_CATALOG].map((e) => e.fault));
    expect([...faults].sort()).toEqual(RECEIVER_FAULTS.map((f) => f.name).sort());
    const ids = new Set(RECEIVER_CASES.map((c) => c.id));
    for (const entry of RECEIVER_FAULT_CATALOG) for (const id of entry.caseIds) expect(ids, `${entry.fault} → ${id}`).toContain(id);
  });
  it('states for every fault what the reason of each case that catches it says, or the shared cause that names them', () => {
    expect(RECEIVER_FAULT_CATALOG.flatMap(mentionProblems)).toEqual([]);
    const ids = new Set(RECEIVER_CASES.map((c) => c.id));
    expect(RECEIVER_FAULT_CATALOG.flatMap((e) => [...e.errors ?? [], ...e.skips ?? []]).filter((id) => !ids.has(id))).toEqual([]);
  });
  it('every receiver case catches at least one fault (no exemptions)', () => {
    const caught = new Set(RECEIVER_FAULT_CATALOG.flatMap((e) => e.caseIds));
    // A case no fault makes FAIL is unproven: it might PASS whatever the receiver does.
    const unguarded = RECEIVER_CASES.map((c) => c.id).filter((id) => !caught.has(id));
    expect(unguarded).toEqual([]);
  });
});

describe('fault-free reference receiver: every receiver case PASSes', () => {
  let embedded: EmbeddedReceiver;
  beforeAll(async () => {
    embedded = await startEmbeddedReceiver(TIMING);
  });
  afterAll(async () => embedded.close());

  it(`all ${RECEIVER_CASES.length} receiver cases PASS, the confirm cases SKIP: it does not confirm (seed ${SEED})`, async () => {
    await expectAllPass(embedded.target, SEED);
  });
  it.each([
    ['confirming its SUCCESS outcomes', false],
    ['confirming its FAILED outcomes too (a correct choice either way)', true],
  ])(`confirming (§6 rule 5), %s: all ${RECEIVER_CASES.length} receiver cases PASS (seed ${SEED})`, async (_what, confirmsFailed) => {
    const confirming = await startEmbeddedReceiver({ ...CONFIRMING_TIMING, confirms: true, confirmsFailed });
    try {
      await expectAllPass(confirming.target, SEED);
    } finally {
      await confirming.close();
    }
  });
  it('the slow-reply timing is fair: the latency cases PASS there without the fault', async () => {
    const slowTiming = RECEIVER_FAULT_CATALOG.find((e) => e.fault === 'slow-reply')!.timing!;
    const { results } = await runStarted(startEmbeddedReceiver(slowTiming), { cases: RECEIVER_CASES, seed: SEED, only: 'receiver.latency' });
    // Or not judged, the kit's own loop stalled as long as the replies were late (fault-check.ts's blurred).
    expect(results.map((r) => (blurred(r) ? 'PASS' : r.verdict)), explain(results)).toEqual(['PASS', 'PASS']);
  });
});

// Each fault runs against its own receiver on its own port: the faults go side by side.
describe.concurrent('each receiver fault switch is caught by its cases, for the reason the catalog pins; every other case PASSes', () => {
  for (const entry of RECEIVER_FAULT_CATALOG) {
    it(`${entry.fault}: ${entry.caseIds.length} case(s) ${entry.expect} (the rest PASS)`, async () => {
      const release = await RUNS_AT_ONCE.acquire();
      try {
        const embedded = await startEmbeddedReceiver({
          ...(entry.timing ?? (entry.confirms ? CONFIRMING_TIMING : TIMING)), faults: [entry.fault as ReceiverFault], ...(entry.confirms ? { confirms: true } : {}),
        });
        try {
          await expectFaultCaught(entry, embedded.target, SEED);
        } finally {
          await embedded.close();
        }
      } finally {
        release();
      }
    });
  }
});
