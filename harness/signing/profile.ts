// §5.1 leaves several renderings open ("not shown"), and real signers render values the way
// their language prints them. A profile names one choice per point; the suite's position is
// one profile, and each labelled alternative is that profile with the choices of one real
// rule changed (one point for a narrow rule, several for a language's whole string conversion).
// Each alternative says which language's rule it models and what that rule does, in that
// language's own terms: a PHP client is told about PHP, not about JavaScript.

export interface CanonicalProfile {
  /** How keys are ordered. §5.1: "ascending alphabetical order (A to Z)". */
  keyOrder: 'code-point' | 'utf16' | 'locale' | 'body' | 'php-ksort' | 'php-renumbered' | 'js-object';
  /** A dotted key (`a.b`) as a key, or as a path into nested objects (lodash `_.set`). */
  keyPaths: 'flat' | 'dotted';
  /** The key `__proto__`: kept, or lost by `obj[key] = value` on a plain JavaScript object. */
  protoKey: 'keep' | 'drop';
  /** A key that stands twice in the body. */
  duplicateKeys: 'last' | 'first' | 'all';
  /** §5.1: values "are not URL-encoded". */
  valueEncoding: 'literal' | 'encodeURIComponent' | 'encodeURI' | 'form' | 'php-urlencode';
  /** JSON numbers: as written in the body, or parsed and printed by a language. */
  numbers: 'as-written' | 'js' | 'php' | 'python' | 'ruby' | 'java';
  /** Every string holding a decimal number ("100.10"), through JavaScript Number. */
  decimalStrings: 'as-written' | 'js';
  /** The `amount` string through a language's float conversion (float(), (float), to_f). */
  amount: 'as-written' | 'php' | 'python' | 'ruby';
  nulls: 'literal' | 'omit' | 'empty' | 'python';
  booleans: 'literal' | 'numeric' | 'python';
  emptyStrings: 'keep' | 'drop';
  /** Objects and arrays as values. */
  nested: 'as-written' | 'compact-json' | 'php-array' | 'js-string' | 'python-repr' | 'python-json' | 'ruby-inspect' | 'ruby34-inspect' | 'java-map';
  /** The whole message built by PHP http_build_query (after a ksort), urldecoded or not. */
  query: 'none' | 'php-http-build-query' | 'php-http-build-query-decoded';
  /** Non-ASCII text: signed as UTF-8, or refused by an ASCII-only encode. */
  nonAscii: 'utf-8' | 'refuse';
}

/** The suite's position: every value as its text stands in the body, strings unquoted. */
export const SUITE_PROFILE: Readonly<CanonicalProfile> = Object.freeze({
  keyOrder: 'code-point',
  keyPaths: 'flat',
  protoKey: 'keep',
  duplicateKeys: 'last',
  valueEncoding: 'literal',
  numbers: 'as-written',
  decimalStrings: 'as-written',
  amount: 'as-written',
  nulls: 'literal',
  booleans: 'literal',
  emptyStrings: 'keep',
  nested: 'as-written',
  query: 'none',
  nonAscii: 'utf-8',
});

/** Whose rule an alternative models; `any` for a mistake made in every language. */
export type Language = 'any' | 'JavaScript' | 'PHP' | 'Python' | 'Ruby' | 'Java';

export interface Alternative {
  /** Stable label, used in vectors and reports ("follows alternative `php-float-precision`"). */
  label: string;
  language: Language;
  /** What implementations that follow it do, in that language's terms. */
  description: string;
  /** The value kinds or places it changes, for a summary ("JSON numbers with a fraction"). */
  affects: string;
  deviation: Partial<CanonicalProfile>;
}

/** Renderings that real signers produce where the suite's position differs. */
export const ALTERNATIVES: readonly Alternative[] = Object.freeze([
  // --- key order and keys ---
  { label: 'locale-order', language: 'JavaScript', description: 'keys sorted with localeCompare (ICU collation: case and punctuation weigh less than letters, so amount sorts before Zeta)', affects: 'key order', deviation: { keyOrder: 'locale' } },
  { label: 'utf16-order', language: 'JavaScript', description: 'keys sorted by UTF-16 code units (JavaScript\'s default sort(), also Java\'s String.compareTo), so a key above U+FFFF sorts before one in U+E000–U+FFFF', affects: 'order of keys outside the Basic Multilingual Plane', deviation: { keyOrder: 'utf16' } },
  { label: 'body-order', language: 'any', description: 'keys left in body order, not sorted', affects: 'key order', deviation: { keyOrder: 'body' } },
  { label: 'php-ksort-numeric', language: 'PHP', description: 'PHP arrays turn integer-like keys ("10", "9") into integers, and ksort() with its default flags compares them as numbers (9 before 10); ksort($a, SORT_STRING) keeps byte order', affects: 'order of integer-like keys', deviation: { keyOrder: 'php-ksort' } },
  { label: 'js-object-key-order', language: 'JavaScript', description: 'keys sorted with sort(), then put into a plain object and read back (Object.keys, Object.entries, for…in): every JavaScript engine lists integer-like keys (array indices, "0" to "4294967294") first, in numeric order, then the others in the order they were added, so "9" comes before "10", and both before "-1" and "Zeta"', affects: 'order of integer-like keys', deviation: { keyOrder: 'js-object' } },
  { label: 'php-keys-renumbered', language: 'PHP', description: 'integer-like keys renumbered from 0 by a PHP array function (array_merge, array_values) before ksort(): {"10":…,"9":…} is signed as 0=…&1=…', affects: 'integer-like keys', deviation: { keyOrder: 'php-renumbered' } },
  { label: 'js-dotted-path', language: 'JavaScript', description: 'a key with a dot treated as a path (lodash _.set, dot-object): `a` and `a.b` cannot both stand, the later one in the body replaces the other', affects: 'keys that are a dotted path of another key', deviation: { keyPaths: 'dotted' } },
  { label: 'js-proto-dropped', language: 'JavaScript', description: 'the key __proto__ lost: copying fields with obj[key] = value onto a plain object sets the prototype (a string value is ignored) instead of adding a property', affects: 'the key __proto__', deviation: { protoKey: 'drop' } },
  { label: 'first-duplicate', language: 'any', description: 'a duplicated key keeps its first value', affects: 'duplicated keys', deviation: { duplicateKeys: 'first' } },
  { label: 'all-duplicates', language: 'any', description: 'a duplicated key is signed once per occurrence', affects: 'duplicated keys', deviation: { duplicateKeys: 'all' } },
  // --- encoding ---
  { label: 'url-encoded-values', language: 'JavaScript', description: 'values percent-encoded with encodeURIComponent (space as %20; ! ~ * \' ( ) kept)', affects: 'values with spaces or reserved characters', deviation: { valueEncoding: 'encodeURIComponent' } },
  { label: 'encode-uri', language: 'JavaScript', description: 'values percent-encoded with encodeURI (space as %20; ? & = / # kept)', affects: 'values with spaces, % or non-ASCII', deviation: { valueEncoding: 'encodeURI' } },
  { label: 'form-encoded-values', language: 'JavaScript', description: 'values form-urlencoded as by URLSearchParams (space as +, * kept, ~ as %7E)', affects: 'values with spaces or reserved characters', deviation: { valueEncoding: 'form' } },
  { label: 'php-urlencode', language: 'PHP', description: 'values passed through PHP urlencode() (space as +, * as %2A, ~ as %7E)', affects: 'values with spaces or reserved characters', deviation: { valueEncoding: 'php-urlencode' } },
  { label: 'php-http-build-query', language: 'PHP', description: 'the message built by PHP http_build_query() after ksort(): keys and values urlencoded (space as +, [ ] as %5B %5D), true as 1, false as 0, null left out, nested values as a[b]=… in their own order, floats at precision 14', affects: 'every value that is not plain text, and nested keys', deviation: { query: 'php-http-build-query' } },
  { label: 'php-http-build-query-decoded', language: 'PHP', description: 'the message built by urldecode(http_build_query()) after ksort(): true as 1, false as 0, null left out, nested values as a[b]=… in their own order, floats at precision 14', affects: 'booleans, null, floats and nested values', deviation: { query: 'php-http-build-query-decoded' } },
  // --- numbers ---
  { label: 'float-printer', language: 'JavaScript', description: 'JSON numbers parsed by JSON.parse and printed with String(x): 15.0 becomes 15, 0.10 becomes 0.1, 1e21 becomes 1e+21, integers beyond 2^53 lose digits', affects: 'JSON numbers', deviation: { numbers: 'js' } },
  { label: 'php-float-precision', language: 'PHP', description: 'JSON numbers through json_decode() and PHP string conversion, which prints floats to 14 significant digits (precision=14): 15.0 becomes 15, 3.14159265358979 becomes 3.1415926535898, 1e15 becomes 1.0E+15, integers beyond 64 bits become 1.2345678901235E+19', affects: 'JSON numbers with a fraction, an exponent or more than 64 bits', deviation: { numbers: 'php' } },
  { label: 'decimal-as-float', language: 'JavaScript', description: 'every decimal string re-parsed with Number() and printed with String(x) ("100.10" becomes 100.1, "15.0" becomes 15)', affects: 'strings holding decimal numbers', deviation: { decimalStrings: 'js' } },
  { label: 'php-float-amount', language: 'PHP', description: 'the amount string cast with (float) and printed by PHP string conversion at precision 14 ("15.0" becomes 15, "1000000000000000" becomes 1.0E+15)', affects: 'the amount field', deviation: { amount: 'php' } },
  { label: 'python-float-amount', language: 'Python', description: 'the amount string run through float() and str() ("1.00" becomes 1.0, "15" becomes 15.0, "1e16" becomes 1e+16)', affects: 'the amount field', deviation: { amount: 'python' } },
  { label: 'ruby-float-amount', language: 'Ruby', description: 'the amount string run through String#to_f and Float#to_s ("1.00" becomes 1.0, "15" becomes 15.0, "1000000000000000" becomes 1.0e+15)', affects: 'the amount field', deviation: { amount: 'ruby' } },
  // --- null, booleans, empty ---
  { label: 'null-omitted', language: 'any', description: 'null values left out of the message', affects: 'null values', deviation: { nulls: 'omit' } },
  { label: 'null-empty', language: 'any', description: 'null written as an empty value, key= (what PHP and Ruby string conversion of null/nil give)', affects: 'null values', deviation: { nulls: 'empty' } },
  { label: 'null-python', language: 'Python', description: 'null written as None (Python str(None))', affects: 'null values', deviation: { nulls: 'python' } },
  { label: 'bool-numeric', language: 'PHP', description: 'true written as 1 and false as an empty value (PHP string conversion of booleans)', affects: 'booleans', deviation: { booleans: 'numeric' } },
  { label: 'bool-python', language: 'Python', description: 'booleans written as True and False (Python str())', affects: 'booleans', deviation: { booleans: 'python' } },
  { label: 'empty-dropped', language: 'any', description: 'pairs with an empty string value left out', affects: 'empty strings', deviation: { emptyStrings: 'drop' } },
  // --- objects and arrays ---
  { label: 'nested-compact-json', language: 'JavaScript', description: 'objects and arrays re-serialised with JSON.stringify (compact; integer-like keys first)', affects: 'objects and arrays', deviation: { nested: 'compact-json' } },
  { label: 'nested-php-array', language: 'PHP', description: 'objects and arrays written as Array (PHP string conversion of an array)', affects: 'objects and arrays', deviation: { nested: 'php-array' } },
  { label: 'nested-js-string', language: 'JavaScript', description: 'objects written as [object Object] and arrays joined by commas (JavaScript String(x))', affects: 'objects and arrays', deviation: { nested: 'js-string' } },
  { label: 'python-json-dumps', language: 'Python', description: 'objects and arrays re-serialised with json.dumps() defaults: separators ", " and ": ", non-ASCII escaped as \\uXXXX', affects: 'objects and arrays', deviation: { nested: 'python-json' } },
  // --- a language's whole string conversion ---
  { label: 'php-string', language: 'PHP', description: 'every value through json_decode() and PHP string conversion ("$k=$v"): floats to 14 significant digits (15.0 becomes 15), true as 1, false and null as empty, arrays as Array', affects: 'numbers with a fraction or exponent, booleans, null, objects and arrays', deviation: { numbers: 'php', booleans: 'numeric', nulls: 'empty', nested: 'php-array' } },
  { label: 'python-str', language: 'Python', description: 'every value through json.loads() and str(): floats as repr (0.10 becomes 0.1, 1e3 becomes 1000.0, 1e16 becomes 1e+16), True, False, None, dicts and lists as their repr ({\'order\': \'17\'})', affects: 'numbers with a fraction or exponent, booleans, null, objects and arrays', deviation: { numbers: 'python', booleans: 'python', nulls: 'python', nested: 'python-repr' } },
  { label: 'ruby-to-s', language: 'Ruby', description: 'every value through JSON.parse and to_s, as Ruby 3.1–3.3 print it: floats by Float#to_s (1e3 becomes 1000.0, 1e15 becomes 1.0e+15), nil as empty, hashes as {"order"=>"17"}, arrays as [1, 2]', affects: 'numbers with a fraction or exponent, null, objects and arrays', deviation: { numbers: 'ruby', nulls: 'empty', nested: 'ruby-inspect' } },
  { label: 'ruby34-to-s', language: 'Ruby', description: 'every value through JSON.parse and to_s, as Ruby 3.4 prints it: as ruby-to-s but hashes as {"order" => "17"}', affects: 'numbers with a fraction or exponent, null, objects and arrays', deviation: { numbers: 'ruby', nulls: 'empty', nested: 'ruby34-inspect' } },
  { label: 'java-string-valueof', language: 'Java', description: 'every value read by Jackson into a Map and printed with String.valueOf: floats by Double.toString (1e3 becomes 1000.0, 1e7 becomes 1.0E7, 0.0001 becomes 1.0E-4; modelled as shortest digits, which a few subnormal values such as 4.9E-324 do not follow), objects as {k=v, k2=v2}, lists as [1, 2]', affects: 'numbers with a fraction or exponent, objects and arrays', deviation: { numbers: 'java', nested: 'java-map' } },
  // --- refusals ---
  { label: 'python-ascii-only', language: 'Python', description: 'the message encoded as ASCII (str.encode(\'ascii\')), so any non-ASCII character raises UnicodeEncodeError and the body is refused', affects: 'non-ASCII text', deviation: { nonAscii: 'refuse' } },
] satisfies Alternative[]);

export function profileOf(alternative: Alternative): CanonicalProfile {
  return { ...SUITE_PROFILE, ...alternative.deviation };
}

/** The profile of several alternatives at once (they must change different points). */
export function profileOfAll(alternatives: readonly Alternative[]): CanonicalProfile {
  return Object.assign({ ...SUITE_PROFILE }, ...alternatives.map((a) => a.deviation)) as CanonicalProfile;
}

export function findAlternative(label: string): Alternative | undefined {
  return ALTERNATIVES.find((a) => a.label === label);
}

/** Whose rule it is, in words: `PHP`, `JavaScript`, or `any language` for a mistake made in all. */
export function languageOf(alternative: Pick<Alternative, 'language'>): string {
  return alternative.language === 'any' ? 'any language' : alternative.language;
}

/**
 * A label as every reason names it, with the language whose rule it is: "`php-ksort-numeric`
 * (PHP)". A label this kit does not know (a vector file from elsewhere) stands alone.
 */
export function namedLabel(label: string): string {
  const alternative = findAlternative(label);
  return alternative ? `\`${label}\` (${languageOf(alternative)})` : `\`${label}\``;
}

/** Several labels followed at once: "`php-ksort-numeric` (PHP) with `php-string` (PHP)". */
export function namedLabels(labels: readonly string[]): string {
  return labels.map(namedLabel).join(' with ');
}
