// §5.1 steps 1–3: body → pairs → message. One implementation; every other module
// (simulator, receiver checks, vectors, CLI) calls this one.
import { readRawJsonObject, type RawMember, type RawValue } from './raw-json.ts';
import { SUITE_PROFILE, type CanonicalProfile } from './profile.ts';
import { SigningError } from './errors.ts';
import { zendSort } from './php-sort.ts';
import {
  httpBuildQueryPairs, javaNumber, javaToString, jsNumber, phpArrayKey, phpFloat, phpKeyCompare, phpNumber, phpUrlencode,
  pythonFloat, pythonJsonDumps, pythonNumber, pythonRepr, rubyFloat, rubyInspect, rubyNumber,
} from './printers.ts';

export type Pair = readonly [key: string, value: string];

/** §5.1 steps 1–2 and the "plain text" rule of step 3: the sorted key/value pairs. */
export function canonicalPairs(rawBody: string, profile: CanonicalProfile = SUITE_PROFILE): Pair[] {
  return pairsOfMembers(readRawJsonObject(rawBody), profile);
}

/** §5.1 step 3: `k1=v1&k2=v2…`, nothing encoded. */
export function joinPairs(pairs: readonly Pair[]): string {
  // Array.join gives one flat string; `+=` would build a rope that HMAC has to flatten again.
  const parts = new Array<string>(pairs.length);
  for (let i = 0; i < pairs.length; i++) parts[i] = pairs[i]![0] + '=' + pairs[i]![1];
  return parts.join('&');
}

export function canonicalMessage(rawBody: string, profile: CanonicalProfile = SUITE_PROFILE): string {
  return joinPairs(canonicalPairs(rawBody, profile));
}

export function pairsOfMembers(members: readonly RawMember[], profile: CanonicalProfile): Pair[] {
  let chosen: readonly RawMember[] = members;
  if (profile.protoKey === 'drop') chosen = chosen.filter((m) => m.key !== '__proto__');
  if (profile.keyPaths === 'dotted') chosen = asDottedPaths(dedupeInBodyOrder(chosen, 'last'));
  // A PHP array holds a repeated key once, where it first stood, with its last value; ksort()
  // then sorts those (its `<=>` not being transitive, sorting the repeats too could order the rest otherwise).
  if (profile.keyOrder === 'php-ksort' || profile.keyOrder === 'php-renumbered') chosen = dedupeInBodyOrder(chosen, 'last');
  if (profile.keyOrder === 'php-renumbered') chosen = renumberIntegerKeys(chosen);
  chosen = profile.keyOrder === 'body'
    ? dedupeInBodyOrder(chosen, profile.duplicateKeys)
    : collapseDuplicates(sortByKey(chosen.slice(), profile.keyOrder), profile.duplicateKeys);
  const pairs = profile.query === 'none' ? renderPairs(chosen, profile) : httpBuildQuery(chosen, profile.query);
  if (profile.nonAscii === 'refuse') refuseNonAscii(pairs);
  return pairs;
}

function renderPairs(chosen: readonly RawMember[], profile: CanonicalProfile): Pair[] {
  const pairs: Pair[] = [];
  for (const { key, value } of chosen) {
    if (value.kind === 'null' && profile.nulls === 'omit') continue;
    if (value.kind === 'string' && value.value === '' && profile.emptyStrings === 'drop') continue;
    const text = key === 'amount' && value.kind === 'string' && profile.amount !== 'as-written'
      ? amountAsFloat(value.value, profile.amount)
      : renderValue(value, profile);
    pairs.push([key, encodeValue(text, profile)]);
  }
  return pairs;
}

/** PHP http_build_query(): nested values in their own order after the sorted top-level key. */
function httpBuildQuery(chosen: readonly RawMember[], mode: Exclude<CanonicalProfile['query'], 'none'>): Pair[] {
  const pairs: Pair[] = [];
  for (const { key, value } of chosen) {
    for (const [k, v] of httpBuildQueryPairs(key, value)) {
      pairs.push(mode === 'php-http-build-query' ? [phpUrlencode(k), phpUrlencode(v)] : [k, v]);
    }
  }
  return pairs;
}

function refuseNonAscii(pairs: readonly Pair[]): void {
  for (const [k, v] of pairs) {
    if (/[^\x00-\x7f]/.test(k + v)) throw new SigningError('ERR_NON_ASCII_REFUSED', `an ASCII-only encode refuses the non-ASCII text in ${JSON.stringify(k)}`);
  }
}

/** lodash _.set on each key in body order, then flattened back with dots. */
function asDottedPaths(members: readonly RawMember[]): RawMember[] {
  type Branch = Map<string, RawMember | Branch>;
  const root: Branch = new Map();
  for (const member of members) {
    const path = member.key.split('.');
    let branch = root;
    for (const segment of path.slice(0, -1)) {
      let next = branch.get(segment);
      if (!(next instanceof Map)) {
        next = new Map();
        branch.set(segment, next);
      }
      branch = next;
    }
    branch.set(path.at(-1)!, member);
  }
  const out: RawMember[] = [];
  const walk = (branch: Branch, prefix: string) => {
    for (const [segment, node] of branch) {
      const key = prefix === '' && branch === root ? segment : `${prefix}.${segment}`;
      if (node instanceof Map) walk(node, key);
      else out.push({ key, value: node.value });
    }
  };
  walk(root, '');
  return out;
}

/** array_merge() and friends: integer keys renumbered from 0 in array order, string keys kept. */
function renumberIntegerKeys(members: readonly RawMember[]): RawMember[] {
  let next = 0;
  return members.map((m) => (typeof phpArrayKey(m.key) === 'bigint' ? { key: String(next++), value: m.value } : m));
}

function dedupeInBodyOrder(members: readonly RawMember[], rule: CanonicalProfile['duplicateKeys']): readonly RawMember[] {
  if (rule === 'all') return members;
  const chosen = new Map<string, RawMember>();
  for (const member of members) {
    if (rule === 'first' && chosen.has(member.key)) continue;
    chosen.set(member.key, member);
  }
  return chosen.size === members.length ? members : [...chosen.values()];
}

/** After a stable sort, duplicates of a key stand together in body order: keep first or last (in place). */
function collapseDuplicates(sorted: RawMember[], rule: CanonicalProfile['duplicateKeys']): RawMember[] {
  if (rule === 'all') return sorted;
  let kept = 0;
  for (let i = 0; i < sorted.length; i++) {
    const member = sorted[i]!;
    if (kept === 0 || sorted[kept - 1]!.key !== member.key) sorted[kept++] = member;
    else if (rule === 'last') sorted[kept - 1] = member;
  }
  sorted.length = kept;
  return sorted;
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const FLOAT_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function amountAsFloat(text: string, language: Exclude<CanonicalProfile['amount'], 'as-written'>): string {
  if (!FLOAT_TEXT.test(text)) return text;
  const x = Number(text);
  return language === 'php' ? phpFloat(x) : language === 'python' ? pythonFloat(x) : rubyFloat(x);
}

const NUMBER_PRINTERS: Readonly<Record<Exclude<CanonicalProfile['numbers'], 'as-written'>, (raw: string) => string>> = {
  js: jsNumber, php: phpNumber, python: pythonNumber, ruby: rubyNumber, java: javaNumber,
};

function renderValue(value: RawValue, profile: CanonicalProfile): string {
  switch (value.kind) {
    case 'string':
      return profile.decimalStrings === 'js' && DECIMAL.test(value.value)
        ? String(Number(value.value))
        : value.value;
    case 'number':
      return profile.numbers === 'as-written' ? value.raw : NUMBER_PRINTERS[profile.numbers](value.raw);
    case 'boolean':
      if (profile.booleans === 'numeric') return value.value ? '1' : '';
      if (profile.booleans === 'python') return value.value ? 'True' : 'False';
      return value.raw;
    case 'null':
      if (profile.nulls === 'empty') return '';
      if (profile.nulls === 'python') return 'None';
      return value.raw;
    case 'object':
    case 'array':
      switch (profile.nested) {
        case 'compact-json':
          return JSON.stringify(JSON.parse(value.raw));
        case 'php-array':
          return 'Array';
        case 'js-string':
          return String(JSON.parse(value.raw));
        case 'python-repr':
          return pythonRepr(value);
        case 'python-json':
          return pythonJsonDumps(value);
        case 'ruby-inspect':
          return rubyInspect(value, '=>');
        case 'ruby34-inspect':
          return rubyInspect(value, ' => ');
        case 'java-map':
          return javaToString(value);
        default:
          return value.raw;
      }
  }
}

function encodeValue(text: string, profile: CanonicalProfile): string {
  switch (profile.valueEncoding) {
    case 'encodeURIComponent':
      return encodeURIComponent(text);
    case 'encodeURI':
      return encodeURI(text);
    case 'form':
      return new URLSearchParams([['', text]]).toString().slice(1);
    case 'php-urlencode':
      return phpUrlencode(text);
    default:
      return text;
  }
}

// Module-level on purpose: a closure made per call costs a defineProperty under tsx (keepNames).
function keyOf(item: { key: string } | Pair): string {
  return 'key' in item ? item.key : item[0];
}

type KeyOrder = Exclude<CanonicalProfile['keyOrder'], 'body'>;

function phpKsort(a: string, b: string): number {
  return phpKeyCompare(phpArrayKey(a), phpArrayKey(b));
}

/** The largest array index of ECMAScript (2^32 - 2): such keys an object lists first, in numeric order. */
const MAX_ARRAY_INDEX = 4294967294;

function arrayIndexOf(key: string): number | undefined {
  if (!/^(?:0|[1-9][0-9]{0,9})$/.test(key)) return undefined;
  const n = Number(key);
  return n <= MAX_ARRAY_INDEX ? n : undefined;
}

/** A plain object's own key order after its keys were added sorted by UTF-16 units (sort()). */
function jsObjectOrder(a: string, b: string): number {
  const x = arrayIndexOf(a);
  const y = arrayIndexOf(b);
  if (x !== undefined && y !== undefined) return x - y;
  if (x !== undefined) return -1;
  if (y !== undefined) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const KEY_COMPARATORS: Readonly<Record<KeyOrder, (a: string, b: string) => number>> = {
  'code-point': compareCodePoints,
  utf16: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  locale: (a, b) => a.localeCompare(b, 'en'),
  'php-ksort': phpKsort,
  'php-renumbered': phpKsort,
  'js-object': jsObjectOrder,
};

function sortByKey<T extends { key: string } | Pair>(items: T[], order: KeyOrder): T[] {
  const compare = KEY_COMPARATORS[order];
  // PHP's `<=>` is not transitive on mixed keys: the order is the one its own algorithm gives.
  if (order === 'php-ksort' || order === 'php-renumbered') return zendSort(items, (a, b) => compare(keyOf(a), keyOf(b)));
  // Bodies have a handful of keys: a stable insertion sort beats Array.prototype.sort there.
  if (items.length > 32) return items.sort((a, b) => compare(keyOf(a), keyOf(b)));
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    const key = keyOf(item);
    let j = i - 1;
    while (j >= 0 && compare(keyOf(items[j]!), key) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}

/** Code-point order (equal to the byte order of UTF-8), which is what "A to Z" means byte-wise. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only surrogates (astral code points) sort differently from UTF-16 units.
    if (x >= 0xd800 && y >= 0xd800) return (a.codePointAt(i) ?? x) - (b.codePointAt(i) ?? y);
    return x - y;
  }
  return a.length - b.length;
}
