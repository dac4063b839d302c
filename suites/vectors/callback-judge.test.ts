// The callback verdicts of `collect-conformance vectors` (harness/vectors): the request target a
// composed URL puts on the request line, and the PASS/FAIL/WARN rule for callback-url vectors.
import { describe, expect, it } from 'vitest';
import {
  judgeCallbackUrlVector, requestTargetOf, loadVectorFile, type CallbackUrlVector,
} from '../../harness/vectors/index.ts';

const file = loadVectorFile('callback-url');
function byTcId(tcId: number): CallbackUrlVector {
  const v = file.tests.find((t) => t.tcId === tcId);
  if (!v) throw new Error(`no callback-url vector ${tcId}`);
  return v;
}

describe('requestTargetOf: origin-form of an absolute URL (RFC 9112 §3.2.1)', () => {
  it.each([
    ['https://m.example/cb?x=1#f', '/cb?x=1'],
    ['https://m.example', '/'],
    ['https://m.example?x=1', '/?x=1'],
    // The authority ends at `?`: a `/` inside the query is not a path.
    ['https://m.example?next=/done&transaction_id=T', '/?next=/done&transaction_id=T'],
    ['https://m.example#/a/b', '/'],
    ['https://[2001:db8::1]:8443/cb?x=1', '/cb?x=1'],
    ['https://u:p@m.example:8443/v2/cb.php?k=a', '/v2/cb.php?k=a'],
  ])('%s → %s', (url, target) => {
    expect(requestTargetOf(url)).toBe(target);
  });
});

describe('callback-url vectors: the built-in composer passes every one (§6)', () => {
  it.each(file.tests.map((t) => [t.tcId, t] as const))('vectors.callback-url.%i', (_id, vector) => {
    const j = judgeCallbackUrlVector(vector);
    expect(j.reason).toBeUndefined();
    expect(j.verdict).toBe('PASS');
  });
});

describe('callback-url verdicts: FAIL on a valid vector, WARN on an acceptable one, naming the alternative', () => {
  it('fails a valid vector whose expected URL another composer wrote, naming always-question-mark', () => {
    const v = byTcId(2);
    const alt = v.alternatives?.find((a) => a.label === 'always-question-mark');
    expect(alt).toBeDefined();
    // Swap roles: the vector expects the alternative, so the suite's composer is "wrong".
    const j = judgeCallbackUrlVector({ ...v, url: alt!.url, alternatives: [{ label: 'suite', url: v.url }] });
    expect(j.verdict).toBe('FAIL');
    expect(j.level).toBe('MUST');
    expect(j.reason).toContain('composes alternative `suite`');
  });
  it('warns on an acceptable vector and names the alternative', () => {
    const v = byTcId(6);
    expect(v.result).toBe('acceptable');
    const alt = v.alternatives?.find((a) => a.label === 'always-separator');
    expect(alt).toBeDefined();
    const j = judgeCallbackUrlVector({ ...v, url: alt!.url, alternatives: [{ label: 'suite', url: v.url }] });
    expect(j.verdict).toBe('WARN');
    expect(j.level).toBe('SHOULD');
  });
  it('fails a vector whose request target differs from the composed URL', () => {
    const v = byTcId(38);
    const j = judgeCallbackUrlVector({ ...v, requestTarget: '/done' });
    expect(j.verdict).toBe('FAIL');
    expect(j.reason).toMatch(/^request target differs/);
  });
});
