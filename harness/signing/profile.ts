// §5.1 leaves several renderings open ("not shown"). A profile names one choice per open
// point; the suite's position is one profile, and each labelled alternative is the same
// profile with exactly one choice changed, so a mismatch can be named precisely.

export interface CanonicalProfile {
  /** How keys are ordered. §5.1: "ascending alphabetical order (A to Z)". */
  keyOrder: 'code-point' | 'utf16' | 'locale' | 'body';
  /** A key that stands twice in the body. */
  duplicateKeys: 'last' | 'first' | 'all';
  /** §5.1: values "are not URL-encoded". */
  valueEncoding: 'literal' | 'encodeURIComponent' | 'encodeURI' | 'form';
  /** JSON numbers: as written in the body, or as a float printer writes them. */
  numbers: 'as-written' | 'float-printer';
  /** Strings holding a decimal number ("100.10"). */
  decimalStrings: 'as-written' | 'float-printer';
  nulls: 'literal' | 'omit' | 'empty' | 'python';
  booleans: 'literal' | 'numeric' | 'python';
  emptyStrings: 'keep' | 'drop';
  /** Objects and arrays as values. */
  nested: 'as-written' | 'compact-json' | 'php-array' | 'js-string' | 'bracket';
}

/** The suite's position: every value as its text stands in the body, strings unquoted. */
export const SUITE_PROFILE: Readonly<CanonicalProfile> = Object.freeze({
  keyOrder: 'code-point',
  duplicateKeys: 'last',
  valueEncoding: 'literal',
  numbers: 'as-written',
  decimalStrings: 'as-written',
  nulls: 'literal',
  booleans: 'literal',
  emptyStrings: 'keep',
  nested: 'as-written',
});

export interface Alternative {
  /** Stable label, used in vectors and reports ("follows alternative `locale-order`"). */
  label: string;
  /** What implementations that follow it do, in a few words. */
  description: string;
  deviation: Partial<CanonicalProfile>;
}

/** Renderings that real signers produce where the suite's position differs. */
export const ALTERNATIVES: readonly Alternative[] = Object.freeze([
  { label: 'locale-order', description: 'keys sorted by a locale-aware comparison (localeCompare, ICU collation)', deviation: { keyOrder: 'locale' } },
  { label: 'utf16-order', description: 'keys sorted by UTF-16 code units (JavaScript default sort) instead of code points', deviation: { keyOrder: 'utf16' } },
  { label: 'body-order', description: 'keys left in body order, not sorted', deviation: { keyOrder: 'body' } },
  { label: 'first-duplicate', description: 'a duplicated key keeps its first value', deviation: { duplicateKeys: 'first' } },
  { label: 'all-duplicates', description: 'a duplicated key is signed once per occurrence', deviation: { duplicateKeys: 'all' } },
  { label: 'url-encoded-values', description: 'values percent-encoded with encodeURIComponent', deviation: { valueEncoding: 'encodeURIComponent' } },
  { label: 'encode-uri', description: 'values percent-encoded with encodeURI', deviation: { valueEncoding: 'encodeURI' } },
  { label: 'form-encoded-values', description: 'values form-urlencoded (spaces as +)', deviation: { valueEncoding: 'form' } },
  { label: 'float-printer', description: 'JSON numbers re-printed by a float printer (15.0 becomes 15)', deviation: { numbers: 'float-printer' } },
  { label: 'decimal-as-float', description: 'decimal strings re-parsed as floats ("100.10" becomes 100.1)', deviation: { decimalStrings: 'float-printer' } },
  { label: 'null-omitted', description: 'null values left out of the message', deviation: { nulls: 'omit' } },
  { label: 'null-empty', description: 'null written as an empty value (key=)', deviation: { nulls: 'empty' } },
  { label: 'null-python', description: 'null written as None (Python str)', deviation: { nulls: 'python' } },
  { label: 'bool-numeric', description: 'true written as 1 and false as empty (PHP)', deviation: { booleans: 'numeric' } },
  { label: 'bool-python', description: 'booleans written as True and False (Python str)', deviation: { booleans: 'python' } },
  { label: 'empty-dropped', description: 'pairs with an empty string value left out', deviation: { emptyStrings: 'drop' } },
  { label: 'nested-compact-json', description: 'objects and arrays re-serialised as compact JSON', deviation: { nested: 'compact-json' } },
  { label: 'nested-php-array', description: 'objects and arrays written as Array (PHP string conversion)', deviation: { nested: 'php-array' } },
  { label: 'nested-js-string', description: 'objects written as [object Object], arrays joined by commas (JavaScript String)', deviation: { nested: 'js-string' } },
  { label: 'nested-bracket', description: 'objects and arrays flattened as a[b]=1 pairs (http_build_query)', deviation: { nested: 'bracket' } },
] satisfies Alternative[]);

export function profileOf(alternative: Alternative): CanonicalProfile {
  return { ...SUITE_PROFILE, ...alternative.deviation };
}

export function findAlternative(label: string): Alternative | undefined {
  return ALTERNATIVES.find((a) => a.label === label);
}
