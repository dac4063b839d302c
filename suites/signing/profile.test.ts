// The catalogue's words (harness/signing/profile.ts): every label named with the language whose
// rule it is, `any language` for a mistake made in all, a label the kit does not know alone.
import { describe, expect, it } from 'vitest';
import { languageOf, namedLabels } from '../../harness/signing/index.ts';

describe('languageOf: whose rule it is', () => {
  it('says `any language` for a mistake made in every language', () => {
    expect(languageOf({ language: 'any' })).toBe('any language');
    expect(languageOf({ language: 'PHP' })).toBe('PHP');
  });
});

describe('namedLabels: several labels followed at once', () => {
  it('joins each label, with its language, by `with`', () => {
    expect(namedLabels(['php-ksort-numeric', 'body-order', 'no-such-label'])).toBe('`php-ksort-numeric` (PHP) with `body-order` (any language) with `no-such-label`');
  });
});
