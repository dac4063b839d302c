// A run read as a test runner's tests (collect-conformance/vitest and /node-test): what each
// verdict makes of its test, the shared causes' first test, the plan by side and case group, and
// the side known before the run from a target given as a path or a value.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseTest, plannedCases, sharedCausesTest, testName, testPlan } from '../../harness/run/index.ts';
import type { CaseResult, RunReport } from '../../harness/results/index.ts';

const base = { title: 't', level: 'MUST', specRef: '§6 rule 1', durationMs: 1 } as const;
const exchange = { request: { method: 'GET', url: 'http://127.0.0.1:1/cb', headers: {} }, curl: "curl -sS -i 'http://127.0.0.1:1/cb'" };
const cases: CaseResult[] = [
  { ...base, id: 'receiver.token.valid', verdict: 'PASS' },
  { ...base, id: 'receiver.token.missing', verdict: 'FAIL', reason: 'answered 200; §6 rule 1 says 403', evidence: { exchanges: [exchange] }, diagnoses: ['receiver.token-not-checked'] },
  { ...base, id: 'receiver.token.empty', verdict: 'ERROR', reason: 'no answer within 1000 ms' },
  { ...base, id: 'receiver.latency.single', level: 'SHOULD', verdict: 'WARN', reason: 'replied after 3400 ms' },
  { ...base, id: 'receiver.confirm.query-signed', verdict: 'SKIP', reason: 'the target file has no "confirms"' },
  { ...base, id: 'receiver.token.wrong', verdict: 'FAIL', reason: 'answered 200', waiver: { reason: 'fixed in 2.3', applied: true } },
];
const report: RunReport = {
  tool: { name: 'collect-conformance', version: '0' }, kind: 'run', target: { side: 'receiver' }, startedAt: '', seed: 1,
  summary: { PASS: 1, FAIL: 2, WARN: 1, SKIP: 1, ERROR: 1 }, cases,
  diagnoses: [{ id: 'receiver.token-not-checked', summary: 'likely the receiver does not check the token', cases: ['receiver.token.missing'] }],
};

describe('what each verdict makes of its case\'s test', () => {
  it('FAIL and ERROR fail with the reason, the shared cause and the curl lines; a waived one passes with the waiver noted', () => {
    expect(caseTest(report, 'receiver.token.missing')).toEqual({
      kind: 'fail',
      message: "FAIL receiver.token.missing (§6 rule 1, MUST): answered 200; §6 rule 1 says 403\nshared cause receiver.token-not-checked: likely the receiver does not check the token\nreproduce:\n  curl -sS -i 'http://127.0.0.1:1/cb'",
    });
    expect(caseTest(report, 'receiver.token.empty')).toEqual({ kind: 'fail', message: 'ERROR receiver.token.empty (§6 rule 1, MUST): no answer within 1000 ms' });
    expect(caseTest(report, 'receiver.token.wrong')).toEqual({ kind: 'pass', notes: ['FAIL, waived (fixed in 2.3): answered 200'] });
  });
  it('PASS passes; WARN passes with its finding as a note; SKIP is skipped with its reason; a case of another side is skipped', () => {
    expect(caseTest(report, 'receiver.token.valid')).toEqual({ kind: 'pass', notes: [] });
    expect(caseTest(report, 'receiver.latency.single')).toEqual({ kind: 'pass', notes: ['WARN (SHOULD): replied after 3400 ms'] });
    expect(caseTest(report, 'receiver.confirm.query-signed')).toEqual({ kind: 'skip', reason: 'the target file has no "confirms"' });
    expect(caseTest(report, 'service.auth.valid-accepted')).toEqual({ kind: 'skip', reason: 'not a case of this run: the target is a receiver target' });
  });
  it('the first test fails naming each shared cause once, with the cases it explains; passes when there is none', () => {
    expect(sharedCausesTest(report)).toEqual({ kind: 'fail', message: '1 shared cause:\n1. receiver.token-not-checked: likely the receiver does not check the token (1 case: receiver.token.missing)' });
    expect(sharedCausesTest({ ...report, diagnoses: [] })).toEqual({ kind: 'pass', notes: [] });
  });
});

describe('the tests, listed before the run', () => {
  it('by side, then case group, in report order; named by case id and title', () => {
    const plan = testPlan(plannedCases({ side: 'receiver', only: 'receiver.token.valid,receiver.latency.*' }));
    expect(plan.map((s) => [s.side, s.groups.map((g) => [g.group, g.cases.map((c) => c.id)])])).toEqual([
      ['receiver', [['receiver.token', ['receiver.token.valid']], ['receiver.latency', ['receiver.latency.single', 'receiver.latency.burst']]]],
    ]);
    expect(testName(plan[0]!.groups[0]!.cases[0]!)).toBe('receiver.token.valid: the configured token is accepted and the outcome applied');
  });
  it('the side named by a target file or value; every side for a target given as a function', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cc-as-tests-')), 'service.json');
    writeFileSync(file, JSON.stringify({ side: 'service' }));
    const sides = (target: unknown) => [...new Set(plannedCases({ target }).map((c) => c.side))];
    expect(sides(file)).toEqual(['service']);
    expect(sides({ side: 'client', command: 'x' })).toEqual(['client']);
    expect(sides(async () => ({ side: 'receiver' }))).toEqual(['receiver', 'service', 'client']);
  });
});
