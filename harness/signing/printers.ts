// How real languages print the values of a parsed JSON body, written from each language's
// documented rules and checked against the real runtimes (PHP 8.2, Python 3, Ruby 3.1; see
// suites/signer-protocol/lang-signers.test.ts). Used only by the labelled alternatives: the
// suite's own position signs each value as its text stands in the body.
import type { RawMember, RawValue } from './raw-json.ts';

/** Shortest round-trip digits of a double and its decimal exponent (d.ddd × 10^exp). */
function shortestDigits(x: number): { digits: string; exp: number } {
  const [mantissa, exp] = Math.abs(x).toExponential().split('e') as [string, string];
  return { digits: mantissa.replace('.', ''), exp: Number(exp) };
}

/** The exact decimal value of a finite, non-zero double: all its digits and the decimal exponent of the first (d.ddd × 10^exp). */
function exactDigits(x: number): { digits: string; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  // x = m × 2^e2, exactly; a negative e2 is m × 5^-e2 / 10^-e2.
  const m = biased === 0 ? fraction : fraction | (1n << 52n);
  const e2 = (biased === 0 ? 1 : biased) - 1075;
  const scaled = e2 >= 0 ? (m << BigInt(e2)).toString() : (m * 5n ** BigInt(-e2)).toString();
  const scale = e2 >= 0 ? 0 : -e2;
  return { digits: scaled.replace(/0+$/, ''), exp: scaled.length - 1 - scale };
}

/**
 * `significant` digits of a double, rounded as C's printf and PHP's zend_gcvt round: to the
 * nearest, an exact tie to the even digit (-2442675984358250 at 14 digits is -2.4426759843582E+15;
 * toExponential rounds that tie up).
 */
function roundedDigits(x: number, significant: number): { digits: string; exp: number } {
  const exact = exactDigits(x);
  if (exact.digits.length <= significant) return exact;
  let head = exact.digits.slice(0, significant);
  const rest = exact.digits.slice(significant);
  // rest has no trailing zeros: it is exactly half only when it is "5".
  const up = rest[0]! > '5' || (rest[0] === '5' && (rest.length > 1 || Number(head.at(-1)) % 2 === 1));
  let exp = exact.exp;
  if (up) {
    const next = (BigInt(head) + 1n).toString();
    if (next.length > significant) exp++;
    head = next.slice(0, significant);
  }
  return { digits: head.replace(/0+$/, '') || '0', exp };
}

function fixedFromDigits(digits: string, exp: number): string {
  if (exp < 0) return `0.${'0'.repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return frac === '' ? int : `${int}.${frac}`;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const JSON_INTEGER = /^-?\d+$/;

/** PHP string conversion of a float (precision=14, PHP 8: %.14G, ".0" after a lone digit). */
export function phpFloat(x: number): string {
  if (Number.isNaN(x)) return 'NAN';
  if (!Number.isFinite(x)) return x > 0 ? 'INF' : '-INF';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const { digits, exp } = roundedDigits(x, 14);
  const sign = x < 0 ? '-' : '';
  if (exp < -4 || exp >= 14) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : `${digits}.0`;
    return `${sign}${m}E${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
  }
  return sign + fixedFromDigits(digits, exp);
}

/** A JSON number after json_decode() and string conversion: an int when it fits in 64 bits, else a float. */
export function phpNumber(raw: string): string {
  if (JSON_INTEGER.test(raw)) {
    const n = BigInt(raw);
    if (n >= INT64_MIN && n <= INT64_MAX) return n.toString();
  }
  return phpFloat(Number(raw));
}

/**
 * Shortest round-trip digits, fixed notation when -4 < decimal-point position <= fixedUpTo (with
 * ".0" after an integer), else d.ddde±XX; a lone mantissa digit gets ".0" when `padMantissa`.
 */
function shortestFloat(x: number, fixedUpTo: number, padMantissa: boolean, names: { nan: string; inf: string }, fixedWhenFraction = false): string {
  if (Number.isNaN(x)) return names.nan;
  if (!Number.isFinite(x)) return x > 0 ? names.inf : `-${names.inf}`;
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const { digits, exp } = shortestDigits(x);
  const sign = x < 0 ? '-' : '';
  const decpt = exp + 1;
  if ((decpt > -4 && decpt <= fixedUpTo) || (fixedWhenFraction && decpt > 0 && decpt < digits.length)) {
    const fixed = fixedFromDigits(digits, exp);
    return sign + (fixed.includes('.') ? fixed : `${fixed}.0`);
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : padMantissa ? `${digits}.0` : digits;
  return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Python repr/str of a float: fixed for 1e-4 <= |x| < 1e16, else 1e+16, 1.5e-07. */
export function pythonFloat(x: number): string {
  return shortestFloat(x, 16, false, { nan: 'nan', inf: 'inf' });
}

/** Ruby Float#to_s: fixed for 1e-4 <= |x| < 1e15 and for any digits after the point (1000000000000000.5), else 1.0e+15, 1.5e-07. */
export function rubyFloat(x: number): string {
  return shortestFloat(x, 15, true, { nan: 'NaN', inf: 'Infinity' }, true);
}

/** Java Double.toString (JDK 19+, shortest digits): fixed for 1e-3 <= |x| < 1e7, else 1.0E7, 1.0E-4. */
export function javaDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const { digits, exp } = shortestDigits(x);
  const sign = x < 0 ? '-' : '';
  if (exp >= -3 && exp < 7) {
    const fixed = fixedFromDigits(digits, exp);
    return sign + (fixed.includes('.') ? fixed : `${fixed}.0`);
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : `${digits}.0`;
  return `${sign}${m}E${exp}`;
}

/** A JSON number read by Jackson into a Map: integers exact (Integer, Long, BigInteger), others Double. */
export function javaNumber(raw: string): string {
  return exactInteger(raw) ?? javaDouble(Number(raw));
}

/** String.valueOf of what Jackson reads: LinkedHashMap as {k=v, k2=v2}, ArrayList as [a, b], strings bare. */
export function javaToString(value: RawValue): string {
  switch (value.kind) {
    case 'string': return value.value;
    case 'number': return javaNumber(value.raw);
    case 'boolean': return value.value ? 'true' : 'false';
    case 'null': return 'null';
    case 'array': return `[${value.items.map(javaToString).join(', ')}]`;
    case 'object': return `{${dedupeMembers(value.members).map((m) => `${m.key}=${javaToString(m.value)}`).join(', ')}}`;
  }
}

/** Python json.loads and Ruby JSON.parse keep integer literals as exact integers ("-0" is 0). */
function exactInteger(raw: string): string | undefined {
  return JSON_INTEGER.test(raw) ? BigInt(raw).toString() : undefined;
}

export function pythonNumber(raw: string): string {
  return exactInteger(raw) ?? pythonFloat(Number(raw));
}

export function rubyNumber(raw: string): string {
  return exactInteger(raw) ?? rubyFloat(Number(raw));
}

/** JavaScript: JSON.parse then String(x). */
export function jsNumber(raw: string): string {
  return String(Number(raw));
}

/** Objects as the language's dict/hash keeps them: first position, last value (Python, Ruby, PHP). */
function dedupeMembers(members: readonly RawMember[]): RawMember[] {
  const chosen = new Map<string, RawMember>();
  for (const m of members) chosen.set(m.key, m);
  return [...chosen.values()];
}

const PYTHON_UNPRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
const hex = (c: number, digits: number) => c.toString(16).padStart(digits, '0');

function pythonStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    // str.isprintable(): every separator, control, format, private-use, surrogate and
    // unassigned code point (as this Node's Unicode tables know them) but the space is escaped.
    else if (ch !== ' ' && PYTHON_UNPRINTABLE.test(ch)) out += c <= 0xff ? `\\x${hex(c, 2)}` : c <= 0xffff ? `\\u${hex(c, 4)}` : `\\U${hex(c, 8)}`;
    else out += ch;
  }
  return out + quote;
}

/** Python str() of a parsed JSON value: repr inside containers, plain text at the top. */
export function pythonRepr(value: RawValue): string {
  switch (value.kind) {
    case 'string': return pythonStringRepr(value.value);
    case 'number': return pythonNumber(value.raw);
    case 'boolean': return value.value ? 'True' : 'False';
    case 'null': return 'None';
    case 'array': return `[${value.items.map(pythonRepr).join(', ')}]`;
    case 'object': return `{${dedupeMembers(value.members).map((m) => `${pythonStringRepr(m.key)}: ${pythonRepr(m.value)}`).join(', ')}}`;
  }
}

function pythonJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const c = s.charCodeAt(i);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    // ensure_ascii: everything outside space..~ as \uXXXX, astral characters as surrogate pairs.
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** Python json.dumps() with its defaults (separators ", " and ": ", ensure_ascii). */
export function pythonJsonDumps(value: RawValue): string {
  switch (value.kind) {
    case 'string': return pythonJsonString(value.value);
    // json.dumps() writes an infinite float as JavaScript does, where str() writes inf.
    case 'number': return pythonNumber(value.raw).replace(/^(-?)inf$/, '$1Infinity');
    case 'boolean': return value.value ? 'true' : 'false';
    case 'null': return 'null';
    case 'array': return `[${value.items.map(pythonJsonDumps).join(', ')}]`;
    case 'object': return `{${dedupeMembers(value.members).map((m) => `${pythonJsonString(m.key)}: ${pythonJsonDumps(m.value)}`).join(', ')}}`;
  }
}

const RUBY_ESCAPES: Record<string, string> = {
  '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\f': '\\f', '\v': '\\v', '\b': '\\b', '\x07': '\\a', '\x1b': '\\e',
};

const RUBY_UNPRINTABLE = /^[\p{Cc}\p{Cn}\p{Zl}\p{Zp}]$/u;

function rubyStringInspect(s: string): string {
  let out = '"';
  const chars = [...s];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const c = ch.codePointAt(0)!;
    const escape = RUBY_ESCAPES[ch];
    if (escape !== undefined) out += escape;
    // "#{", "#$" and "#@" would interpolate in Ruby source, so inspect escapes the #.
    else if (ch === '#' && ['{', '$', '@'].includes(chars[i + 1] ?? '')) out += '\\#';
    // rb_enc_isprint: controls, separators of lines and paragraphs, and unassigned code points are escaped.
    else if (RUBY_UNPRINTABLE.test(ch)) out += c <= 0xffff ? `\\u${hex(c, 4).toUpperCase()}` : `\\u{${c.toString(16).toUpperCase()}}`;
    else out += ch;
  }
  return out + '"';
}

/** Ruby inspect (what to_s of a Hash or Array gives): `{"order"=>"17"}` (3.1–3.3) or `{"order" => "17"}` (3.4). */
export function rubyInspect(value: RawValue, arrow: '=>' | ' => '): string {
  switch (value.kind) {
    case 'string': return rubyStringInspect(value.value);
    case 'number': return rubyNumber(value.raw);
    case 'boolean': return value.value ? 'true' : 'false';
    case 'null': return 'nil';
    case 'array': return `[${value.items.map((v) => rubyInspect(v, arrow)).join(', ')}]`;
    case 'object': return `{${dedupeMembers(value.members).map((m) => `${rubyStringInspect(m.key)}${arrow}${rubyInspect(m.value, arrow)}`).join(', ')}}`;
  }
}

/** PHP urlencode(): everything but A-Z a-z 0-9 - _ . percent-encoded (UTF-8), space as +. */
export function phpUrlencode(s: string): string {
  return encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The pairs PHP http_build_query() writes for one top-level member (before any encoding). */
export function httpBuildQueryPairs(key: string, value: RawValue): Array<[string, string]> {
  switch (value.kind) {
    case 'string': return [[key, value.value]];
    case 'number': return [[key, phpNumber(value.raw)]];
    case 'boolean': return [[key, value.value ? '1' : '0']];
    case 'null': return [];
    case 'array': return value.items.flatMap((item, i) => httpBuildQueryPairs(`${key}[${i}]`, item));
    case 'object': return dedupeMembers(value.members).flatMap((m) => httpBuildQueryPairs(`${key}[${m.key}]`, m.value));
  }
}

// --- PHP array keys and ksort() ---

const PHP_INTEGER_KEY = /^(0|-?[1-9]\d*)$/;
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** A PHP array key: an integer-like string within 64 bits becomes an int. */
export type PhpKey = bigint | string;

export function phpArrayKey(key: string): PhpKey {
  if (PHP_INTEGER_KEY.test(key)) {
    const n = BigInt(key);
    if (n >= INT64_MIN && n <= INT64_MAX) return n;
  }
  return key;
}

function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** How PHP reads a numeric string (is_numeric_string): an int within 64 bits, else a double, noting an integer text that overflowed and to which side. */
type PhpNumeric = { kind: 'long'; value: bigint } | { kind: 'double'; value: number; overflow: -1 | 0 | 1 };

function phpNumeric(key: PhpKey): PhpNumeric | undefined {
  if (typeof key === 'bigint') return { kind: 'long', value: key };
  if (!PHP_NUMERIC.test(key)) return undefined;
  const text = key.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, '');
  if (/^[+-]?\d+$/.test(text)) {
    const n = BigInt(text);
    if (n >= INT64_MIN && n <= INT64_MAX) return { kind: 'long', value: n };
    return { kind: 'double', value: Number(text), overflow: n > 0n ? 1 : -1 };
  }
  return { kind: 'double', value: Number(text), overflow: 0 };
}

const signOf = (x: number | bigint): number => (x > 0 ? 1 : x < 0 ? -1 : 0);

/**
 * PHP 8 `<=>` on two array keys, which ksort() with default flags uses (zendi_smart_strcmp and
 * compare_longs_to_string): numeric strings as numbers, 0 when equal (the sort then keeps their
 * order), except integers overflowed to the same side, compared as strings; anything else by bytes.
 */
export function phpKeyCompare(a: PhpKey, b: PhpKey): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return signOf(a - b);
  const x = phpNumeric(a);
  const y = phpNumeric(b);
  if (!x || !y) return byteCompare(String(a), String(b));
  if (x.kind === 'long' && y.kind === 'long') return signOf(x.value - y.value);
  const bothStrings = typeof a === 'string' && typeof b === 'string';
  if (bothStrings && x.kind === 'double' && y.kind === 'double') {
    if (x.overflow !== 0 && x.overflow === y.overflow && x.value === y.value) return byteCompare(a, b);
    if (x.value === y.value && !Number.isFinite(x.value)) return byteCompare(a, b);
  }
  // A string integer beyond 64 bits against an integer text within them: its side decides.
  if (bothStrings && x.kind === 'long' && y.kind === 'double' && y.overflow !== 0) return -y.overflow;
  if (bothStrings && x.kind === 'double' && y.kind === 'long' && x.overflow !== 0) return x.overflow;
  return signOf(Number(x.value) - Number(y.value));
}
