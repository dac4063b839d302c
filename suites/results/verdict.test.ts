// harness/results: a verdict and its reason as one union (every verdict but PASS says why).
import { describe, expect, it } from 'vitest';
import { verdictAndReason, type CaseResult } from '../../harness/results/index.ts';

describe('verdictAndReason: a verdict and a reason made apart, as CaseResult holds them', () => {
  it('a PASS without a reason has none; with a note keeps it', () => {
    expect(verdictAndReason('PASS', undefined)).toEqual({ verdict: 'PASS' });
    expect(verdictAndReason('PASS', 'waiver not needed')).toEqual({ verdict: 'PASS', reason: 'waiver not needed' });
  });
  it.each(['FAIL', 'WARN', 'SKIP', 'ERROR'] as const)('%s keeps its reason, and without one is refused, naming the verdict', (verdict) => {
    expect(verdictAndReason(verdict, 'answered 200')).toEqual({ verdict, reason: 'answered 200' });
    expect(() => verdictAndReason(verdict, undefined)).toThrow(`a ${verdict} without its reason`);
  });
  it('the type: a non-PASS result without a reason does not compile', () => {
    // @ts-expect-error: reason is required off PASS
    const bad: CaseResult = { id: 'x', title: 'x', level: 'MUST', specRef: '§0', verdict: 'FAIL', durationMs: 1 };
    const good: CaseResult = { id: 'x', title: 'x', level: 'MUST', specRef: '§0', verdict: 'PASS', durationMs: 1 };
    expect([bad.verdict, good.verdict]).toEqual(['FAIL', 'PASS']);
  });
});
