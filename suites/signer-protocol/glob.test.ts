// `--only PATTERN`: `*` any run (dots included), `?` one character, the rest literal, anchored.
import { describe, expect, it } from 'vitest';
import { globToRegExp, idMatcher } from '../../harness/select/index.ts';

describe('--only id globs', () => {
  it.each([
    ['vectors.signature.1*', 'vectors.signature.17', true],
    ['vectors.signature.1*', 'vectors.signature.1', true],
    ['vectors.signature.1*', 'vectors.signature.21', false],
    ['vectors.*', 'vectors.callback-url.3', true],
    ['vectors.signature.?', 'vectors.signature.7', true],
    ['vectors.signature.?', 'vectors.signature.17', false],
    ['vectors.signature.1', 'vectors-signature-1', false],
    ['a.[b](c)+$^{1}|\\', 'a.[b](c)+$^{1}|\\', true],
  ])('%s against %s → %s', (pattern, id, expected) => {
    expect(globToRegExp(pattern).test(id)).toBe(expected);
  });
  it('takes a comma-separated list; empty matches everything', () => {
    const m = idMatcher('vectors.signature.2, vectors.callback-*');
    expect([m('vectors.signature.2'), m('vectors.callback-query.1'), m('vectors.signature.3')]).toEqual([true, true, false]);
    expect(idMatcher(undefined)('anything')).toBe(true);
    expect(idMatcher('')('anything')).toBe(true);
  });
});
