// The one "caught for its reason" rule of the three fault checks (fault-check.ts), on runs made
// up here: it accepts the run the catalog entry describes and rejects each way a run can differ
// from it (a listed case that PASSes, another case that does not, a reason without the entry's
// words, the shared cause missing, a finding where the entry names none, a case that does not
// apply judged anyway), so a fault check that passes is one whose run held every part.
import { describe, expect, it } from 'vitest';
import { verdictAndReason, type CaseResult, type Diagnosis } from '../../harness/results/index.ts';
import type { SideRunResult } from '../../harness/run/index.ts';
import type { ClientFaultEntry } from './client-fault-catalog.ts';
import { expectCaught, expectedVerdict, expectVerdicts, explain } from './fault-check.ts';
import type { ServiceFaultEntry } from './service-fault-catalog.ts';

/** A made-up result; a verdict other than PASS given no reason gets one that names no entry's words. */
const result = (id: string, verdict: CaseResult['verdict'], reason?: string, level: CaseResult['level'] = 'MUST'): CaseResult => ({
  id, title: id, level, specRef: '§5', durationMs: 1, ...verdictAndReason(verdict, reason ?? (verdict === 'PASS' ? undefined : 'a made-up reason')),
});

function runOf(results: CaseResult[], diagnoses: Diagnosis[] = [], findings: SideRunResult['preflight']['findings'] = []): SideRunResult {
  return {
    preflight: { side: 'client', controls: {}, findings, result: result('preflight.client', 'PASS') },
    results, unproven: [], diagnoses, seed: 1,
  };
}

const entry: ClientFaultEntry = {
  side: 'client', fault: 'no-content-type', expect: 'FAIL', caseIds: ['client.a', 'client.s'], reasonMentions: 'Content-Type was not sent', errors: ['client.e'],
};
const caught = () => [
  result('client.a', 'FAIL', 'Content-Type was not sent'),
  result('client.s', 'WARN', 'Content-Type was not sent', 'SHOULD'),
  result('client.e', 'ERROR', 'precondition: x'),
  result('client.p', 'PASS'),
];

describe('expectCaught(side, entry, run): the verdicts, the reasons, the shared cause, the preflight', () => {
  it('the run the entry describes passes (FAIL at MUST, WARN at SHOULD, the listed ERROR, every other case PASS)', () => {
    expect(() => expectCaught('client', entry, runOf(caught()))).not.toThrow();
  });
  it('each way a run differs from the entry is caught', () => {
    const differing: Array<[string, SideRunResult]> = [
      ['a listed case PASSes', runOf(caught().map((r) => (r.id === 'client.a' ? result('client.a', 'PASS') : r)))],
      ['another case FAILs', runOf(caught().map((r) => (r.id === 'client.p' ? result('client.p', 'FAIL', 'x') : r)))],
      ['a reason without the entry\'s words', runOf(caught().map((r) => (r.id === 'client.a' ? result('client.a', 'FAIL', 'something else') : r)))],
      ['a finding where the entry names no shared cause', runOf(caught(), [], [{ id: 'client.x', summary: 'x', symptom: { kind: 'whole-side' } }])],
    ];
    for (const [what, run] of differing) expect(() => expectCaught('client', entry, run), what).toThrow();
    expect(() => expectCaught('service', entry, runOf(caught())), 'an entry of another side').toThrow();
    expect(() => expectCaught('client', { ...entry, diagnosis: 'client.body-not-json' }, runOf(caught())), 'its shared cause not named').toThrow();
    const named = { id: 'client.body-not-json', summary: 's', cases: ['client.a', 'client.s'] };
    expect(() => expectCaught('client', { ...entry, diagnosis: 'client.body-not-json' }, runOf(caught(), [named]))).not.toThrow();
  });
  it('a case that does not apply SKIPs whatever the fault; judged anyway, the run differs', () => {
    const otherMode = (id: string) => id === 'client.p';
    const skipped = caught().map((r) => (r.id === 'client.p' ? result('client.p', 'SKIP', 'mode: production cases do not apply') : r));
    expect(() => expectCaught('client', entry, runOf(skipped), otherMode)).not.toThrow();
    expect(() => expectCaught('client', entry, runOf(caught()), otherMode)).toThrow();
  });
});

describe('expectedVerdict and expectVerdicts: the fault-free reference, and verdicts that rest on timing', () => {
  it('no entry: PASS, or SKIP where the case does not apply', () => {
    expect(expectedVerdict(result('x', 'FAIL'), undefined)).toBe('PASS');
    expect(expectedVerdict(result('x', 'FAIL'), undefined, () => true)).toBe('SKIP');
    expect(() => expectVerdicts(runOf([result('x', 'PASS')]))).not.toThrow();
    expect(() => expectVerdicts(runOf([result('x', 'ERROR', 'e')]))).toThrow();
  });
  it('byTiming: PASS or the named verdict, nothing else', () => {
    const timed = { side: 'service', fault: 'f', caseIds: [], expect: 'FAIL', reasonMentions: {}, byTiming: { 'service.t': 'SKIP' } } as unknown as ServiceFaultEntry;
    expect(() => expectVerdicts(runOf([result('service.t', 'PASS')]), timed)).not.toThrow();
    expect(() => expectVerdicts(runOf([result('service.t', 'SKIP', 'not exercised: x')]), timed)).not.toThrow();
    expect(() => expectVerdicts(runOf([result('service.t', 'FAIL', 'x')]), timed)).toThrow();
  });
  it('explain: every case that did not PASS, a line each', () => {
    expect(explain(caught())).toBe('client.a: FAIL Content-Type was not sent\nclient.s: WARN Content-Type was not sent\nclient.e: ERROR precondition: x');
  });
});
