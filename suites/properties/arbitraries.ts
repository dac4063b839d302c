// Bodies as raw JSON text, built member by member so each value's text is known: the property
// can then say exactly what the message must hold without a second canonicaliser.
import fc from 'fast-check';

/** A JSON value as written in the body, and the text §5.1 signs for it. */
export interface ValueText {
  json: string;
  text: string;
}
export type Member = readonly [key: string, value: ValueText];

/** Characters a URL-encoding signer would change, plus non-ASCII (2-, 3- and 4-byte UTF-8). */
export const TRICKY_CHARS = ['?', '&', '=', '%', '#', '+', ' ', '/', ':', '@', '"', '\\', 'é', 'ñ', '中', '😀', 'Ɛ', 'a', 'Z', '0', '\n'];

export const trickyString = fc.oneof(
  fc.string({ unit: fc.constantFrom(...TRICKY_CHARS), maxLength: 16 }),
  fc.string({ unit: 'binary', maxLength: 16 }),
);

export const stringValue: fc.Arbitrary<ValueText> = trickyString.map((s) => ({ json: JSON.stringify(s), text: s }));

/** Number texts of RFC 8259 §6, including those a float printer rewrites (15.0, 1e3, -0, big integers). */
export const numberText: fc.Arbitrary<string> = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String)),
    fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^[0-9]{1,3}$/)), { nil: undefined }),
  )
  .map(([negative, int, frac, exp]) => `${negative ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}${exp === undefined ? '' : exp.join('')}`);

export const numberValue: fc.Arbitrary<ValueText> = numberText.map((t) => ({ json: t, text: t }));

/** Decimal strings (amounts, phone numbers): kept as written, leading and trailing zeros too. */
export const decimalString: fc.Arbitrary<string> = fc
  .tuple(fc.stringMatching(/^[0-9]{1,12}$/), fc.option(fc.stringMatching(/^[0-9]{1,4}$/), { nil: undefined }))
  .map(([i, f]) => (f === undefined ? i : `${i}.${f}`));

export const literalValue: fc.Arbitrary<ValueText> = fc.constantFrom('true', 'false', 'null').map((t) => ({ json: t, text: t }));

export const anyValue: fc.Arbitrary<ValueText> = fc.oneof(
  { weight: 4, arbitrary: stringValue },
  { weight: 2, arbitrary: numberValue },
  { weight: 1, arbitrary: decimalString.map((s) => ({ json: JSON.stringify(s), text: s })) },
  { weight: 1, arbitrary: literalValue },
);

export const key: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'Z', '_', '-', '.', '1', 'é', '😀', 'ﬁ'), minLength: 1, maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** Members with distinct keys (duplicate keys are a separate, interpretive point). */
export function members(constraints: { minLength?: number; maxLength?: number; value?: fc.Arbitrary<ValueText> } = {}): fc.Arbitrary<Member[]> {
  return fc.uniqueArray(fc.tuple(key, constraints.value ?? anyValue), {
    minLength: constraints.minLength ?? 0,
    maxLength: constraints.maxLength ?? 8,
    selector: ([k]) => k,
  });
}

export const whitespace = fc.constantFrom('', ' ', '\n  ', '\t');

/** The raw body text for these members, in this order. */
export function bodyOf(ms: readonly Member[], ws = ''): string {
  return `{${ws}${ms.map(([k, v]) => `${JSON.stringify(k)}${ws}:${ws}${v.json}`).join(`,${ws}`)}${ws}}`;
}
