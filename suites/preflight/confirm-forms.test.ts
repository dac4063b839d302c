// receiver.confirm and the two forms of a status answer (docs/positions.md: status.answer-values,
// status.unknown-id). The harness's endpoint answers as the best evidence says the real service
// does (lower case, 421), or as the target states (`confirms.statusForm`). A receiver that reads
// only lower case, as the real service's clients do, passes; one that reads only upper case, as
// §6's callbacks spell it, is not FAILed for that: the preflight's confirmation control fails with
// the guess named, the cases that rest on it are ERROR, and stating its service's form passes it.
import { describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { runChecked, runPreflight } from '../../harness/preflight/index.ts';
import type { StatusForm } from '../../harness/status/index.ts';
import { startConfirmingReceiver, type Asked, type ConfirmPolicy } from '../receiver/fixtures/confirming-receiver.ts';

/** Confirms only a SUCCESS spelled in `letterCase`; anything else is "not confirmed". */
const readsOnly = (letterCase: 'upper' | 'lower'): ConfirmPolicy => {
  const confirmed = (r: Asked) => typeof r === 'object' && r.kind === 'status' && r.status === 'SUCCESS' && r.letterCase === letterCase;
  return {
    apply: (r, held) => (confirmed(r) ? { state: 'SUCCESS', actions: held.actions + 1 } : held),
    reply: (r) => (confirmed(r) ? 200 : 503),
  };
};

/** The confirm cases that read an answer's form (the unavailable-endpoint ones read none, and one of them holds its answer for seconds). */
const READING_CASES = 'receiver.confirm.contradicted-*,receiver.confirm.query-*';

async function confirmRun(policy: ConfirmPolicy, form?: StatusForm, only = READING_CASES) {
  // Its own limit on a status query 2 s, not half its 1 s deadline: four runs at once beside other
  // files (load 14) took over 500 ms to answer the preflight's query, a correct receiver then 503.
  const receiver = await startConfirmingReceiver({ queryLimitMs: 2000, ...policy }, {}, form);
  try {
    return await runChecked({ cases: RECEIVER_CASES, target: receiver.target, seed: 43, only, perRequestTimeoutMs: 4000 });
  } finally {
    await receiver.close();
  }
}

const verdicts = (results: readonly { id: string; verdict: string }[]) => [...new Set(results.map((r) => r.verdict))];

describe.concurrent('receiver.confirm against the status answer\'s two forms', () => {
  it('a receiver that reads only lower case (as the real service\'s clients do): the control holds, every confirm case PASSes', async () => {
    const run = await confirmRun(readsOnly('lower'));
    expect(run.preflight.controls.confirmation?.state).toBe('held');
    expect(verdicts(run.results)).toEqual(['PASS']);
  });
  it('one that reads only upper case: the control fails naming the guess and the line to state; no case FAILs', async () => {
    const run = await confirmRun(readsOnly('upper'));
    const control = run.preflight.controls.confirmation;
    expect(control?.state).toBe('failed');
    expect(control?.observed).toMatch(/answered SUCCESS, but answered 503 and the record reads pending, actions 0; likely it does not read the answer's "status": "success" \(lower case, as the real service's clients read it/);
    expect(control?.observed).toContain('"confirms": {"statusForm": {"letterCase": "upper"}}');
    expect(run.results.filter((r) => r.verdict === 'FAIL').map((r) => r.id)).toEqual([]);
    // The negative cases rest on the control: "nothing fulfilled" proves nothing without it.
    expect(new Set(run.results.filter((r) => r.id.includes('.contradicted-')).map((r) => r.verdict))).toEqual(new Set(['ERROR']));
  });
  it('the same receiver with its service\'s form stated (upper case, 404): the control holds, every confirm case PASSes', async () => {
    const run = await confirmRun(readsOnly('upper'), { letterCase: 'upper', unknownId: 404 });
    expect(run.preflight.controls.confirmation?.state).toBe('held');
    expect(verdicts(run.results)).toEqual(['PASS']);
  });
  it('one that reads only lower case, against a stated upper-case form: the guess names the stated form as stated, and the line back to lower case', async () => {
    const receiver = await startConfirmingReceiver(readsOnly('lower'), {}, { letterCase: 'upper', unknownId: 404 });
    try {
      const { preflight } = await runPreflight({ target: receiver.target, seed: 43 });
      const control = preflight.controls.confirmation;
      expect(control?.state).toBe('failed');
      expect(control?.observed).toMatch(/; likely it does not read the answer's "status": "SUCCESS" \(upper case, as confirms.statusForm states: docs\/positions.md, status.answer-values\); a receiver that reads either letter case confirms against both forms, and a service known to answer lower case is stated as "confirms": \{"statusForm": \{"letterCase": "lower"\}\}$/);
    } finally {
      await receiver.close();
    }
  });
  it('contradicted-unknown names the form the endpoint answered an unknown id in', async () => {
    const applies: ConfirmPolicy = { apply: (_r, held) => ({ state: 'SUCCESS', actions: held.actions + 1 }), reply: () => 200 };
    const only = 'receiver.confirm.contradicted-unknown';
    const [lower, upper] = await Promise.all([confirmRun(applies, undefined, only), confirmRun(applies, { letterCase: 'upper', unknownId: 404 }, only)]);
    const reasonOf = (run: typeof lower) => run.results.find((r) => r.id === 'receiver.confirm.contradicted-unknown')?.reason ?? '';
    expect(reasonOf(lower)).toContain('(answered error_code 421, unknown id)');
    expect(reasonOf(upper)).toContain('(answered 404, unknown id)');
  });
});
