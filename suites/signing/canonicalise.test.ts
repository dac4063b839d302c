// §5.1 steps 1–3 (harness/signing/canonicalise.ts): the body's members become sorted pairs and
// the message `k1=v1&k2=v2…`, for the suite's position and for the labelled alternatives that
// model what real signers do instead (dotted paths, duplicate keys, float casts of `amount`,
// JavaScript's object key order, UTF-16 order). Each `describe` is one rule; each test pins the
// exact pairs or message the rule gives on a body chosen to show it.
import { describe, expect, it } from 'vitest';
import {
  canonicalMessage, canonicalPairs, compareCodePoints, findAlternative, profileOfAll, type CanonicalProfile,
} from '../../harness/signing/index.ts';

const following = (...labels: string[]): CanonicalProfile => profileOfAll(labels.map((label) => {
  const alternative = findAlternative(label);
  if (!alternative) throw new Error(`no alternative ${label}`);
  return alternative;
}));
const keysOf = (rawBody: string, profile?: CanonicalProfile) => canonicalPairs(rawBody, profile).map(([k]) => k);

describe('§5.1 step 3: canonicalMessage joins the sorted pairs with = and &, nothing encoded', () => {
  it('is the message of the body', () => {
    expect(canonicalMessage('{"b":1.50,"a":"x y&z"}')).toBe('a=x y&z&b=1.50');
  });
  it('is the message of the body under a given profile', () => {
    expect(canonicalMessage('{"b":1.50,"a":"x"}', following('body-order'))).toBe('b=1.50&a=x');
  });
});

describe('§5.1 step 2: keys in code-point order however many there are', () => {
  // Past 32 keys the sort takes another path: the order must not change with the count.
  const keys = Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`);
  const body = (order: string[], extra = '') => `{${order.map((k) => `"${k}":"${k}"`).join(',')}${extra}}`;

  it('sorts 40 keys given in reverse', () => {
    expect(keysOf(body([...keys].reverse()))).toEqual(keys);
  });
  it('keeps the last of a duplicated key among 40 (a stable sort, then the last kept)', () => {
    const pairs = canonicalPairs(body([...keys].reverse(), ',"k20":"last"'));
    expect(pairs.map(([k]) => k)).toEqual(keys);
    expect(pairs.find(([k]) => k === 'k20')).toEqual(['k20', 'last']);
  });
  it('sorts 40 keys by UTF-16 units for utf16-order, keeping the last duplicate', () => {
    const pairs = canonicalPairs(body([...keys].reverse(), ',"k20":"last"'), following('utf16-order'));
    expect(pairs.map(([k]) => k)).toEqual(keys);
    expect(pairs.find(([k]) => k === 'k20')).toEqual(['k20', 'last']);
  });
  it('lists array-index keys first, numerically, among 40 keys for js-object-key-order', () => {
    const indices = Array.from({ length: 12 }, (_, i) => String(i * 7));
    const words = keys.slice(0, 28);
    // Shuffled (sorted by the reversed text), with a duplicated word and a duplicated index (last kept).
    const reversed = (k: string) => [...k].reverse().join('');
    const order = [...words, ...indices].sort((a, b) => (reversed(a) < reversed(b) ? -1 : 1));
    const pairs = canonicalPairs(body(order, ',"k07":"last","14":"last"'), following('js-object-key-order'));
    expect(pairs.map(([k]) => k)).toEqual([...indices, ...words]);
    expect(pairs.find(([k]) => k === 'k07')).toEqual(['k07', 'last']);
    expect(pairs.find(([k]) => k === '14')).toEqual(['14', 'last']);
  });
});

describe('§5.1 step 2: code-point order, not UTF-16 units (compareCodePoints)', () => {
  // U+10000 is the surrogate pair D800 DC00: its first unit is the lowest surrogate, 0xD800
  // itself, yet as a code point it is above every BMP character, U+E000 among them.
  it('orders U+10000 after U+E000 whichever side it is on', () => {
    expect(Math.sign(compareCodePoints('\u{10000}', '\ue000'))).toBe(1);
    expect(Math.sign(compareCodePoints('\ue000', '\u{10000}'))).toBe(-1);
  });
  it('signs U+E000 before U+10000 in the message', () => {
    expect(keysOf('{"\u{10000}":"1","\ue000":"2"}')).toEqual(['\ue000', '\u{10000}']);
    expect(keysOf('{"\ue000":"2","\u{10000}":"1"}')).toEqual(['\ue000', '\u{10000}']);
  });
});

describe('js-dotted-path: a dotted key is a path (lodash _.set), flattened back with dots', () => {
  it('keeps two leaves under one parent', () => {
    expect(canonicalPairs('{"a.b":"1","a.c":"2"}', following('js-dotted-path'))).toEqual([['a.b', '1'], ['a.c', '2']]);
  });
  it('writes a nested leaf with its full path', () => {
    expect(canonicalPairs('{"x.y.z":"1"}', following('js-dotted-path'))).toEqual([['x.y.z', '1']]);
  });
  it('keeps the empty first segment of `.x` (the path is ["", "x"])', () => {
    expect(canonicalPairs('{".x":"1"}', following('js-dotted-path'))).toEqual([['.x', '1']]);
  });
  it('lets the later key replace a path it conflicts with', () => {
    expect(canonicalPairs('{"a.b":"1","a":"2"}', following('js-dotted-path'))).toEqual([['a', '2']]);
  });
});

describe('duplicate keys in body order (body-order with first-duplicate or all-duplicates)', () => {
  const body = '{"b":"1","a":"2","b":"3"}';
  it('signs every occurrence, in body order, for all-duplicates', () => {
    expect(canonicalMessage(body, following('body-order', 'all-duplicates'))).toBe('b=1&a=2&b=3');
  });
  it('keeps the first value, at the first place, for first-duplicate', () => {
    expect(canonicalMessage(body, following('body-order', 'first-duplicate'))).toBe('b=1&a=2');
  });
  it('keeps the last value, at the first place, by default', () => {
    expect(canonicalMessage(body, following('body-order'))).toBe('b=3&a=2');
  });
});

describe('php/python-float-amount: only a number\'s text is cast; any other amount stays as written', () => {
  // (float) and float() only run on what reads as a number; the suite's position keeps the text.
  const amount = (text: string, label: string) => canonicalPairs(JSON.stringify({ amount: text }), following(label));
  it('leaves a non-numeric amount alone', () => {
    expect(amount('abc', 'php-float-amount')).toEqual([['amount', 'abc']]);
    expect(amount('x15', 'php-float-amount')).toEqual([['amount', 'x15']]);
    expect(amount('15x', 'python-float-amount')).toEqual([['amount', '15x']]);
  });
  it('casts a signed exponent', () => {
    expect(amount('1e+5', 'php-float-amount')).toEqual([['amount', '100000']]);
    expect(amount('1.5e-3', 'python-float-amount')).toEqual([['amount', '0.0015']]);
  });
  it('casts an exponent of several digits', () => {
    expect(amount('1e10', 'php-float-amount')).toEqual([['amount', '10000000000']]);
    expect(amount('1e10', 'python-float-amount')).toEqual([['amount', '10000000000.0']]);
  });
});

describe('js-object-key-order: array indices ("0" to "4294967294") first, numerically, then the rest', () => {
  const order = (body: string) => keysOf(body, following('js-object-key-order'));
  it('does not take a key with a leading zero for an index', () => {
    expect(order('{"0123":"b","200":"a"}')).toEqual(['200', '0123']);
  });
  it('stops at 4294967294: 4294967295 is an ordinary key', () => {
    expect(order('{"!":"d","4294967294":"f"}')).toEqual(['4294967294', '!']);
    expect(order('{"4294967295":"e","!":"d"}')).toEqual(['!', '4294967295']);
  });
  it('lists an index before a key that sorts lower by UTF-16 units', () => {
    expect(order('{"!":"1","5":"2"}')).toEqual(['5', '!']);
  });
  it('orders a mixed body', () => {
    expect(order('{"200":"a","0123":"b","5":"c","!":"d","4294967295":"e","4294967294":"f","Z":"g"}'))
      .toEqual(['5', '200', '4294967294', '!', '0123', '4294967295', 'Z']);
  });
});
