// §5.1 as properties over generated raw bodies (fast-check, ≥ 1,000 runs each, FC_SEED replays).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalPairs, signBody, verifyBody } from '../../harness/signing/index.ts';
import { assertProperty } from './fc-run.ts';
import {
  members, bodyOf, whitespace, anyValue, stringValue, numberText, decimalString, trickyString, key, type Member,
} from './arbitraries.ts';

const SECRET = 'property-secret';

describe('§5.1 step 2: the message does not depend on the order of keys in the body', () => {
  it('any permutation and any whitespace give the same message and signature', () => {
    const arb = members({ maxLength: 10 }).chain((ms) =>
      fc.tuple(fc.constant(ms), fc.shuffledSubarray(ms, { minLength: ms.length, maxLength: ms.length }), whitespace, whitespace));
    assertProperty(fc.property(arb, ([ms, shuffled, ws1, ws2]) => {
      const a = signBody(bodyOf(ms, ws1), SECRET);
      const b = signBody(bodyOf(shuffled, ws2), SECRET);
      expect(b.message).toBe(a.message);
      expect(b.signature).toBe(a.signature);
    }));
  });
});

describe('§5.1 step 3: every value appears verbatim, never URL-encoded', () => {
  it('each pair is key=value with the value\'s own text, and the message is nothing more', () => {
    assertProperty(fc.property(members({ minLength: 1, value: stringValue }), (ms) => {
      const { pairs, message } = signBody(bodyOf(ms), SECRET);
      const expected = new Map(ms.map(([k, v]) => [k, v.text]));
      expect(pairs).toHaveLength(ms.length);
      for (const [k, v] of pairs) expect(v).toBe(expected.get(k));
      // `k=v` joined by `&`: any encoding would change the length or the text.
      expect(message).toBe(pairs.map(([k, v]) => `${k}=${v}`).join('&'));
      for (const [k, v] of ms) expect(message).toContain(`${k}=${v.text}`);
    }));
  });
  it('a value made of ?&=%#+ space and non-ASCII is the same string in the message', () => {
    assertProperty(fc.property(trickyString, (s) => {
      expect(signBody(bodyOf([['v', { json: JSON.stringify(s), text: s }]]), SECRET).message).toBe(`v=${s}`);
    }));
  });
});

describe('§5.2: changing, adding or dropping any pair changes the signature', () => {
  // "Changing" means changing the value's text: `"true"` and `true` have the same text and the
  // same signature, one of the ways the canonical form is not injective (see below).
  type Mutation = { kind: 'change'; index: number; value: { json: string; text: string } } | { kind: 'add'; key: string; value: { json: string; text: string } } | { kind: 'drop'; index: number };
  const arb = members({ minLength: 1, maxLength: 8 }).chain((ms) =>
    fc.tuple(
      fc.constant(ms),
      fc.oneof(
        fc.record({ kind: fc.constant('change' as const), index: fc.nat(ms.length - 1), value: anyValue }),
        fc.record({ kind: fc.constant('add' as const), key, value: anyValue }),
        fc.record({ kind: fc.constant('drop' as const), index: fc.nat(ms.length - 1) }),
      ) as fc.Arbitrary<Mutation>,
    ));
  it('the original signature does not verify the mutated body', () => {
    assertProperty(fc.property(arb, ([ms, mutation]) => {
      let mutated: Member[];
      if (mutation.kind === 'change') {
        fc.pre(ms[mutation.index]![1].text !== mutation.value.text);
        mutated = ms.map((m, i) => (i === mutation.index ? [m[0], mutation.value] as const : m));
      } else if (mutation.kind === 'add') {
        fc.pre(!ms.some(([k]) => k === mutation.key));
        mutated = [...ms, [mutation.key, mutation.value]];
      } else {
        mutated = ms.filter((_, i) => i !== mutation.index);
      }
      const original = signBody(bodyOf(ms), SECRET);
      const after = signBody(bodyOf(mutated), SECRET);
      expect(after.signature).not.toBe(original.signature);
      expect(verifyBody(bodyOf(mutated), SECRET, original.signature)).toBe(false);
      expect(verifyBody(bodyOf(ms), SECRET, original.signature)).toBe(true);
    }));
  });
});

describe('§5.1 step 3: numbers and decimal strings are preserved as written', () => {
  it('a JSON number is signed as its text in the body (15.0, 1e3, -0, big integers)', () => {
    assertProperty(fc.property(numberText, (t) => {
      expect(canonicalPairs(`{"amount":${t}}`)).toEqual([['amount', t]]);
    }));
  });
  it('a decimal string keeps its zeros ("0.10", "007", "100.10")', () => {
    assertProperty(fc.property(decimalString, (s) => {
      expect(canonicalPairs(`{"amount":${JSON.stringify(s)},"customer_number":${JSON.stringify(`0${s}`)}}`)).toEqual([
        ['amount', s], ['customer_number', `0${s}`],
      ]);
    }));
  });
});

describe('§5.1: the canonical form is not injective', () => {
  // Merging two adjacent pairs into one value that holds `&k=` gives a different body with the
  // same message, hence the same signature. A verifier must therefore check the body it acts
  // on, not a re-parse of the message, and a signature proves "some body with this message".
  it('for any body with two or more keys, a different body has the same message and signature', () => {
    assertProperty(fc.property(members({ minLength: 2, maxLength: 8 }), fc.nat(), (ms, pick) => {
      const body = bodyOf(ms);
      const sorted = canonicalPairs(body);
      const i = pick % (sorted.length - 1);
      const [k1, v1] = sorted[i]!;
      const [k2, v2] = sorted[i + 1]!;
      const merged = `${v1}&${k2}=${v2}`;
      const other = sorted.filter((_, j) => j !== i + 1).map(([k, v]) => (k === k1 ? [k, merged] as const : [k, v] as const));
      const otherBody = `{${other.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
      expect(canonicalPairs(otherBody)).not.toEqual(sorted);
      const a = signBody(body, SECRET);
      const b = signBody(otherBody, SECRET);
      expect(b.message).toBe(a.message);
      expect(verifyBody(otherBody, SECRET, a.signature)).toBe(true);
    }));
  });
});
