// runSide (harness/run/side.ts), the layer under runConformance: a started target (a reference
// with its faults on) in, the preflight as itself (its controls, findings and result line), the
// results in case order, the unproven cases and the shared causes out; runConformance given the
// same started target goes through it and reports the same verdicts and causes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { selectCases } from '../../harness/runner/index.ts';
import { diagnose } from '../../harness/diagnoses/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { runConformance, runSide } from '../../harness/run/index.ts';

const TOKEN = 'receiver.token.*';
const TOKEN_CASES = selectCases(RECEIVER_CASES, TOKEN).map((c) => c.id);
const SEED = 40;
const verdicts = (results: ReadonlyArray<{ id: string; verdict: string }>) => Object.fromEntries(results.map((r) => [r.id, r.verdict]));

let correct: EmbeddedReceiver;
let faulty: EmbeddedReceiver;
beforeAll(async () => {
  [correct, faulty] = await Promise.all([startEmbeddedReceiver(), startEmbeddedReceiver({ faults: ['status-401'] })]);
});
afterAll(async () => {
  await Promise.all([correct?.close(), faulty?.close()]);
});

describe('runSide(target, …) → { results, preflight, unproven, stopped, diagnoses }', () => {
  it('a correct receiver: the side\'s cases (none given: every case of its side, `only` as a list), the preflight held, no cause', async () => {
    const run = await runSide({ target: correct.target, only: [TOKEN], seed: SEED });
    expect(run.results.map((r) => r.id)).toEqual(TOKEN_CASES);
    expect(Object.values(verdicts(run.results)).filter((v) => v !== 'PASS'), JSON.stringify(run.results.filter((r) => r.verdict !== 'PASS'))).toEqual([]);
    expect(run.preflight).toMatchObject({ side: 'receiver', findings: [], result: { id: 'preflight.receiver', verdict: 'PASS' } });
    expect(run.preflight.controls.refusal?.state).toBe('held');
    expect(run).toMatchObject({ unproven: [], diagnoses: [], seed: SEED });
    expect(run.stopped).toBeUndefined();
  });

  it('a receiver answering 401 to a bad token: every bad-token case is caught (FAIL, WARN at SHOULD), and the shared cause is named over this run', async () => {
    const run = await runSide({ target: faulty.target, cases: RECEIVER_CASES, only: TOKEN, seed: SEED });
    const failed = run.results.filter((r) => r.verdict !== 'PASS').map((r) => r.id);
    expect(failed).toEqual(TOKEN_CASES.filter((id) => !id.startsWith('receiver.token.valid')));
    expect(run.results.map((r) => r.verdict).filter((v) => v !== 'PASS' && v !== 'FAIL' && v !== 'WARN')).toEqual([]);
    expect(run.diagnoses.map((d) => d.id)).toEqual(['receiver.same-answer-401']);
    expect(run.diagnoses).toEqual(diagnose([run]));
    expect([...run.diagnoses[0]!.cases].sort()).toEqual([...failed].sort());
  });
});

describe('runConformance({ target: started }) goes through runSide', () => {
  it('the same started receiver: the report has runSide\'s verdicts and causes, the target shown without its token', async () => {
    const [side, report] = [await runSide({ target: faulty.target, only: TOKEN, seed: SEED }), await runConformance({ target: faulty, only: TOKEN, seed: SEED })];
    expect(verdicts(report.cases)).toEqual(verdicts(side.results));
    expect(report.preflights).toMatchObject([{ id: 'preflight.receiver', verdict: side.preflight.result.verdict }]);
    expect(report.diagnoses?.map((d) => [d.id, [...d.cases].sort()])).toEqual(side.diagnoses.map((d) => [d.id, [...d.cases].sort()]));
    expect(JSON.stringify(report)).not.toContain(faulty.target.callbackToken!);
  });

  it('a value with `side` is a file\'s content still: a secret written as text is refused, not taken as started', async () => {
    await expect(runConformance({ target: { side: 'receiver', callbackUrl: correct.target.callbackUrl, callbackToken: correct.target.callbackToken } }))
      .rejects.toMatchObject({ code: 'ERR_TARGET_INVALID' });
  });
});
