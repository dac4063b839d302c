// §5.1 steps 1–3: body → pairs → message. One implementation; every other module
// (simulator, receiver checks, vectors, CLI) calls this one.
import { readRawJsonObject, type RawMember, type RawValue } from './raw-json.ts';
import { SUITE_PROFILE, type CanonicalProfile } from './profile.ts';

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
  const chosen = profile.keyOrder === 'body'
    ? dedupeInBodyOrder(members, profile.duplicateKeys)
    : collapseDuplicates(sortByKey(members.slice(), profile.keyOrder), profile.duplicateKeys);
  const pairs: Pair[] = [];
  let flattened = false;
  for (const { key, value } of chosen) {
    if (value.kind === 'null' && profile.nulls === 'omit') continue;
    if (value.kind === 'string' && value.value === '' && profile.emptyStrings === 'drop') continue;
    if ((value.kind === 'object' || value.kind === 'array') && profile.nested === 'bracket') {
      for (const [k, v] of flattenBracket(key, value, profile)) pairs.push([k, encodeValue(v, profile)]);
      flattened = true;
      continue;
    }
    pairs.push([key, encodeValue(renderValue(value, profile), profile)]);
  }
  // Flattened keys (`a[b]`) are new keys and take their own place in the order.
  return flattened && profile.keyOrder !== 'body' ? sortByKey(pairs, profile.keyOrder) : pairs;
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

function renderValue(value: RawValue, profile: CanonicalProfile): string {
  switch (value.kind) {
    case 'string':
      return profile.decimalStrings === 'float-printer' && DECIMAL.test(value.value)
        ? String(Number(value.value))
        : value.value;
    case 'number':
      return profile.numbers === 'float-printer' ? String(Number(value.raw)) : value.raw;
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
        default:
          return value.raw;
      }
  }
}

function flattenBracket(prefix: string, value: RawValue, profile: CanonicalProfile): Pair[] {
  if (value.kind === 'object') {
    return value.members.flatMap((m) => flattenBracket(`${prefix}[${m.key}]`, m.value, profile));
  }
  if (value.kind === 'array') {
    return value.items.flatMap((item, i) => flattenBracket(`${prefix}[${i}]`, item, profile));
  }
  if (value.kind === 'null') return profile.nulls === 'omit' ? [] : [[prefix, renderValue(value, profile)]];
  // http_build_query, which this alternative models, writes booleans as 1 and 0.
  if (value.kind === 'boolean') return [[prefix, value.value ? '1' : '0']];
  return [[prefix, renderValue(value, profile)]];
}

function encodeValue(text: string, profile: CanonicalProfile): string {
  switch (profile.valueEncoding) {
    case 'encodeURIComponent':
      return encodeURIComponent(text);
    case 'encodeURI':
      return encodeURI(text);
    case 'form':
      return new URLSearchParams([['', text]]).toString().slice(1);
    default:
      return text;
  }
}

// Module-level on purpose: a closure made per call costs a defineProperty under tsx (keepNames).
function keyOf(item: { key: string } | Pair): string {
  return 'key' in item ? item.key : item[0];
}

type KeyOrder = Exclude<CanonicalProfile['keyOrder'], 'body'>;

const KEY_COMPARATORS: Readonly<Record<KeyOrder, (a: string, b: string) => number>> = {
  'code-point': compareCodePoints,
  utf16: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  locale: (a, b) => a.localeCompare(b, 'en'),
};

function sortByKey<T extends { key: string } | Pair>(items: T[], order: KeyOrder): T[] {
  const compare = KEY_COMPARATORS[order];
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
