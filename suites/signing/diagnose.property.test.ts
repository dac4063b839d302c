// The catalogue names a wrong signer whatever the body: a signature made by any labelled
// alternative over any body (where that alternative changes the message) is diagnosed with that
// alternative among the fits, never as "the secret is wrong or the body changed". The property
// counts the alternatives it exercised and fails when one never was: random members alone never
// hold a duplicated key, a dotted path, __proto__, an amount or a nested value, so each body
// carries a witness of the alternative drawn (members that make it differ from the suite's
// message), and a few other witnesses, among random members.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  ALTERNATIVES, diagnoseSignature, describeDiagnosis, hmacHex, joinPairs, pairsOfMembers, profileOf, readRawJsonObject,
  SigningError, SUITE_PROFILE,
} from '../../harness/signing/index.ts';
import { assertProperty } from '../properties/fc-run.ts';
import { members } from '../properties/arbitraries.ts';

const SPACED_URL = '"url":"https://m.test/cb?a=1&b=x y"';
const INTEGER_KEYS = '"10":"x","9":"y"';
const DUPLICATED = '"d":"1","d":"2"';
const NESTED = '"o":{"b":1,"a":[1,"x y"]}';
const EVERY_VALUE_PRINTED = '"g":1e3';
/** For each alternative, members (as body text) with which its message differs from the suite's. */
const WITNESSES: Readonly<Record<string, string>> = {
  'locale-order': '"Zeta":"z","amount":"1.00"',
  'utf16-order': '"\u{1F600}":"1","\uE000":"2"',
  'body-order': '"b":"1","a":"2"',
  'php-ksort-numeric': INTEGER_KEYS,
  'js-object-key-order': INTEGER_KEYS,
  'php-keys-renumbered': INTEGER_KEYS,
  'js-dotted-path': '"a":"1","a.b":"2"',
  'js-proto-dropped': '"__proto__":"p"',
  'first-duplicate': DUPLICATED,
  'all-duplicates': DUPLICATED,
  'url-encoded-values': SPACED_URL,
  'encode-uri': SPACED_URL,
  'form-encoded-values': SPACED_URL,
  'php-urlencode': SPACED_URL,
  'php-http-build-query': SPACED_URL,
  'php-http-build-query-decoded': '"t":true',
  'float-printer': '"f":1.10',
  'php-float-precision': '"h":3.3000000000000003',
  'decimal-as-float': '"amount":"15.0"',
  'php-float-amount': '"amount":"1.00"',
  'python-float-amount': '"amount":"1.00"',
  'ruby-float-amount': '"amount":"1.00"',
  'null-omitted': '"n":null',
  'null-empty': '"n":null',
  'null-python': '"n":null',
  'bool-numeric': '"t":true',
  'bool-python': '"t":true',
  'empty-dropped': '"e":""',
  'nested-compact-json': '"o":{"b":1,"2":"x","a":1.50}',
  'nested-php-array': NESTED,
  'nested-js-string': NESTED,
  'python-json-dumps': NESTED,
  'php-string': EVERY_VALUE_PRINTED,
  'python-str': EVERY_VALUE_PRINTED,
  'ruby-to-s': EVERY_VALUE_PRINTED,
  'ruby34-to-s': EVERY_VALUE_PRINTED,
  'java-string-valueof': EVERY_VALUE_PRINTED,
  'python-ascii-only': '"note":"caf\u00e9"',
};
const OTHER_WITNESSES = [...new Set(Object.values(WITNESSES))];

/** A body holding the witness of `label`, up to two other witnesses and random members, in some order. */
function bodyFor(label: string): fc.Arbitrary<string> {
  return fc
    .tuple(members({ maxLength: 4 }), fc.subarray(OTHER_WITNESSES, { maxLength: 2 }), fc.nat(5))
    .map(([ms, others, at]) => {
      const parts = [...ms.map(([k, v]) => `${JSON.stringify(k)}:${v.json}`), ...others];
      parts.splice(Math.min(at, parts.length), 0, WITNESSES[label]!);
      return `{${parts.join(',')}}`;
    });
}

describe('diagnoseSignature names the alternative a signature follows, for any body', () => {
  it('each labelled alternative is among the fits when it changes the message, and every alternative is exercised', () => {
    const diagnosed = new Map<string, number>(ALTERNATIVES.map((a) => [a.label, 0]));
    const refused = new Map<string, number>(ALTERNATIVES.map((a) => [a.label, 0]));
    expect(ALTERNATIVES.map((a) => a.label).filter((label) => WITNESSES[label] === undefined), 'alternatives without a witness').toEqual([]);
    const drawn = fc.constantFrom(...ALTERNATIVES).chain((alternative) => fc.tuple(fc.constant(alternative), bodyFor(alternative.label)));
    assertProperty(fc.property(drawn, ([alternative, body]) => {
      const parsed = readRawJsonObject(body);
      let message: string;
      try {
        message = joinPairs(pairsOfMembers(parsed, profileOf(alternative)));
      } catch (error) {
        if (!(error instanceof SigningError)) throw error;
        refused.set(alternative.label, refused.get(alternative.label)! + 1);
        return; // the alternative refuses this body: nothing to sign
      }
      if (message === joinPairs(pairsOfMembers(parsed, SUITE_PROFILE))) return;
      const diagnosis = diagnoseSignature(body, 'secret', hmacHex('secret', message));
      expect(diagnosis.match).toBe('alternative');
      const fits = diagnosis.match === 'alternative' ? diagnosis.fits.map((f) => f.alternatives.map((a) => a.label).join('+')) : [];
      expect(fits).toContain(alternative.label);
      expect(describeDiagnosis(diagnosis)).toContain(`\`${alternative.label}\``);
      diagnosed.set(alternative.label, diagnosed.get(alternative.label)! + 1);
    }));
    // An alternative that only ever refuses (an ASCII-only encoder) has no signature to diagnose:
    // it is exercised when it refused a body. Every other one must have been diagnosed.
    const refusesOnly = (label: string) => ALTERNATIVES.find((a) => a.label === label)!.deviation.nonAscii === 'refuse';
    const never = ALTERNATIVES.map((a) => a.label).filter((label) => (refusesOnly(label) ? refused : diagnosed).get(label) === 0);
    expect(never, `alternatives the property never exercised (diagnosed: ${JSON.stringify(Object.fromEntries(diagnosed))})`).toEqual([]);
  });
});
