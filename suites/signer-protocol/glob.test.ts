// `--only PATTERN` and waiver ids: `*` any run (dots included), `?` one character, the rest
// literal, anchored; matched in linear steps, compared with a regular-expression reference.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatch, idMatcher, SelectError } from '../../harness/select/index.ts';
import { assertProperty } from '../properties/fc-run.ts';

/** The reference: the glob as an anchored regular expression (fine for short inputs). */
function referenceMatch(pattern: string, id: string): boolean {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'u').test(id);
}

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
    ['*', '', true],
    ['?', '', false],
    ['a?c', 'a\u{1F600}c', true],
    ['*a*b', 'xaybzb', true],
    ['*a*b', 'xaybzbc', false],
  ])('%s against %s → %s', (pattern, id, expected) => {
    expect(globMatch(pattern, id)).toBe(expected);
    expect(referenceMatch(pattern, id)).toBe(expected);
  });

  it('takes a comma-separated list; undefined matches everything', () => {
    const m = idMatcher('vectors.signature.2, vectors.callback-*');
    expect([m('vectors.signature.2'), m('vectors.callback-query.1'), m('vectors.signature.3')]).toEqual([true, true, false]);
    expect(idMatcher(undefined)('anything')).toBe(true);
  });

  it('an empty pattern ("", " , ") names nothing and is refused, not read as everything', () => {
    for (const only of ['', ' ', ',', ' , ']) expect(() => idMatcher(only)).toThrow(SelectError);
  });

  it('agrees with the regular-expression reference on random globs and ids (fast-check, seed printed)', () => {
    const pattern = fc.array(fc.constantFrom('a', 'b', '.', '*', '?'), { maxLength: 10 }).map((cs) => cs.join(''));
    const id = fc.array(fc.constantFrom('a', 'b', '.', '\u00E9', '\u{1F600}'), { maxLength: 12 }).map((cs) => cs.join(''));
    assertProperty(fc.property(pattern, id, (p, s) => globMatch(p, s) === referenceMatch(p, s)));
  });

  it('a pattern built from the id itself always matches it (fast-check, seed printed)', () => {
    const arb = fc.tuple(
      fc.array(fc.constantFrom('a', 'b', '.', 'x'), { maxLength: 12 }),
      fc.array(fc.constantFrom('keep', '?', '*', 'star-before'), { maxLength: 12 }),
    );
    assertProperty(fc.property(arb, ([chars, ops]) => {
      const pattern = chars.map((c, i) => {
        const op = ops[i] ?? 'keep';
        return op === '?' ? '?' : op === '*' ? '*' : op === 'star-before' ? `*${c}` : c;
      }).join('');
      return globMatch(pattern, chars.join(''));
    }));
  });

  it('the pathological pattern *?*?*?*?*?*?*?*?*?*?*X answers at once', () => {
    const pattern = '*?*?*?*?*?*?*?*?*?*?*X';
    const id = 'service.callback.retry-back-off.with.a.rather.long.leaf.name.aaaaaaaaaaaaaaaa';
    const started = performance.now();
    for (let i = 0; i < 100; i++) expect(idMatcher(pattern)(id)).toBe(false);
    expect(globMatch(pattern, `${id}X`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
