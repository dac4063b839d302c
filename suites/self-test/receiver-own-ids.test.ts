// Issue 9 point 1: a correct receiver that accepts only ids of its own shape (`{id}-{uuid}`,
// 400 to others, as real receivers that issue their ids do). With the same transactionIds in
// the target file every receiver case PASSes; without it the valid callbacks get 400 and the
// cases that send them FAIL, all falsely: the target file must state the shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { EMBEDDED_RECEIVER_DEFAULTS, startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { runCases } from '../../harness/runner/index.ts';
import { LOADED_CONFIRMING_RECEIVER } from '../support/timing.ts';

// Confirming too (§6 rule 5), so that every case runs: the status query names the ids of that shape.
// Its limits for a loaded machine (suites/support/timing.ts): the shape is what is proven here.
const TIMING = { timeScale: 0.02, ...LOADED_CONFIRMING_RECEIVER };
const SEED = Number(process.env.CC_SEED ?? 4242);
/** Room for the reserved-character case: the harness id (24) + its 18 characters + 37. */
const OWN_IDS = { template: '{id}-{uuid}', maxLength: 80 };

function notPassing(results: readonly CaseResult[]): string {
  return results.filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.verdict} ${r.reason ?? ''}`).join('\n');
}

describe('receiver transactionIds: a receiver that accepts only {id}-{uuid}', () => {
  let embedded: EmbeddedReceiver;
  beforeAll(async () => {
    embedded = await startEmbeddedReceiver({ ...TIMING, transactionIds: OWN_IDS, confirms: true });
  });
  afterAll(async () => embedded.close());

  it(`with the same transactionIds in the target, all ${RECEIVER_CASES.length} receiver cases PASS (seed ${SEED})`, async () => {
    const results = await runCases({ cases: RECEIVER_CASES, target: embedded.target, seed: SEED });
    expect(results).toHaveLength(RECEIVER_CASES.length);
    expect(notPassing(results)).toBe('');
  });

  it('with maxLength 64 the reserved-character case cannot fit its id: SKIP with that reason, the rest PASS', async () => {
    const target = { ...embedded.target, transactionIds: { template: '{id}-{uuid}', maxLength: 64 } };
    const results = await runCases({ cases: RECEIVER_CASES, target, seed: SEED, only: 'receiver.params.*' });
    const reserved = results.find((r) => r.id === 'receiver.params.reserved-transaction-id')!;
    expect(reserved.verdict).toBe('SKIP');
    expect(reserved.reason).toMatch(/over transactionIds\.maxLength 64/);
    expect(notPassing(results.filter((r) => r !== reserved))).toBe('');
  });

  it('without transactionIds in the target, the valid callbacks get 400 and those cases FAIL: the shape must be stated', async () => {
    // The embedded 1 s deadline: these callbacks are refused before any status query, and the kit
    // waits out the deadline for a record that never changes.
    const target = { ...embedded.target, timing: { ...embedded.target.timing, replyDeadlineMs: EMBEDDED_RECEIVER_DEFAULTS.replyDeadlineMs } };
    delete target.transactionIds;
    const results = await runCases({ cases: RECEIVER_CASES, target, seed: SEED, only: 'receiver.token.valid,receiver.outcome.success-applied' });
    expect(results.map((r) => r.verdict)).toEqual(['FAIL', 'FAIL']);
    for (const r of results) expect(r.reason).toMatch(/answered 400/);
  });
});
