// Why does a signature not match? Try the suite's position, then every labelled alternative,
// then alternatives two or three at a time (a real client follows several of its language's
// rules at once), and name EVERY one that reproduces what the signer presented: when several
// fit, the evidence is ambiguous and the answer says so rather than picking the first listed.
import { readRawJsonObject, type RawMember } from './raw-json.ts';
import { joinPairs, pairsOfMembers, type Pair } from './canonicalise.ts';
import { hmacHex, otherFormOf, signatureMatches } from './sign.ts';
import { SigningError } from './errors.ts';
import { ALTERNATIVES, SUITE_PROFILE, languageOf, profileOfAll, type Alternative, type CanonicalProfile } from './profile.ts';

/** One way of reproducing a presented message: these alternatives together. */
export interface Explanation {
  alternatives: Alternative[];
  pairs: Pair[];
  message: string;
}

export interface Presented {
  message?: string;
  signature?: string;
}

/** Combinations are tried only when fewer alternatives explain nothing; at most this many at once. */
const MAX_COMBINED = 3;
/** At most this many renderings per question: a refused request must not cost the service seconds. */
const RENDERING_BUDGET = 600;

/** What each alternative makes of these members (undefined: it refuses the body). */
export function renderingsOf(members: readonly RawMember[]): Map<Alternative, Pair[] | undefined> {
  const out = new Map<Alternative, Pair[] | undefined>();
  for (const alternative of ALTERNATIVES) out.set(alternative, pairsOrRefusal(members, profileOfAll([alternative])));
  return out;
}

function pairsOrRefusal(members: readonly RawMember[], profile: CanonicalProfile): Pair[] | undefined {
  try {
    return pairsOfMembers(members, profile);
  } catch (error) {
    if (error instanceof SigningError) return undefined;
    throw error;
  }
}

function disjoint(alternatives: readonly Alternative[]): boolean {
  const points = alternatives.flatMap((a) => Object.keys(a.deviation));
  return new Set(points).size === points.length;
}

/**
 * Every smallest set of alternatives whose message reproduces the presented message (or whose
 * HMAC under `secret` is the presented signature). Empty when none does.
 */
export function explainPresented(
  members: readonly RawMember[], secret: string, presented: Presented,
  /** Labels known not to apply (ruled out by other evidence): look past them to larger combinations. */
  exclude: ReadonlySet<string> = new Set(),
): Explanation[] {
  const canonical = joinPairs(pairsOfMembers(members, SUITE_PROFILE));
  const fits = (message: string) => message !== canonical && (
    message === presented.message
    || (presented.signature !== undefined && signatureMatches(secret, message, presented.signature)));
  // Only alternatives that change this body's message can be part of an explanation.
  const changing: Alternative[] = [];
  for (const [alternative, pairs] of renderingsOf(members)) {
    if (pairs !== undefined && joinPairs(pairs) !== canonical && !exclude.has(alternative.label)) changing.push(alternative);
  }
  let budget = RENDERING_BUDGET;
  // An encoding changes nothing on a plain value, yet changes what another alternative printed
  // (PHP urlencode() of the float string conversion wrote): it may join any combination.
  const pool = [...changing, ...ALTERNATIVES.filter((a) => 'valueEncoding' in a.deviation && !changing.includes(a) && !exclude.has(a.label))];
  for (let size = 1; size <= Math.min(MAX_COMBINED, pool.length); size++) {
    const found: Explanation[] = [];
    for (const combination of combinations(size === 1 ? changing : pool, size)) {
      if (!disjoint(combination)) continue;
      if (size > 1 && --budget < 0) return found;
      const pairs = pairsOrRefusal(members, profileOfAll(combination));
      if (pairs === undefined) continue;
      const message = joinPairs(pairs);
      if (fits(message)) found.push({ alternatives: combination, pairs, message });
    }
    if (found.length > 0) return found;
  }
  return [];
}

/** Alternatives that refuse this body (a signer that refused it may follow one of them). */
export function explainRefusal(members: readonly RawMember[]): Alternative[] {
  return [...renderingsOf(members)].filter(([, pairs]) => pairs === undefined).map(([a]) => a);
}

function* combinations<T>(items: readonly T[], size: number, start = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = start; i <= items.length - size; i++) {
    for (const rest of combinations(items, size - 1, i + 1)) yield [items[i]!, ...rest];
  }
}

export type SignatureDiagnosis =
  | { match: 'canonical' }
  | { match: 'alternative'; fits: Explanation[]; canonicalPairs: Pair[] }
  | { match: 'case'; note: string }
  | { match: 'none'; note: string };

/** Diagnoses a presented signature over a raw body (the simulator's and a client check's question). */
export function diagnoseSignature(rawBody: string, secret: string, presented: string): SignatureDiagnosis {
  const members = readRawJsonObject(rawBody);
  const canonicalPairs = pairsOfMembers(members, SUITE_PROFILE);
  const canonical = joinPairs(canonicalPairs);
  if (signatureMatches(secret, canonical, presented)) return { match: 'canonical' };
  if (presented !== presented.toLowerCase() && signatureMatches(secret, canonical, presented.toLowerCase())) {
    return { match: 'case', note: 'the signature is right but written in upper-case hex; §5.1 hex is lower-case' };
  }
  const form = otherFormOf(secret, canonical, presented);
  if (form) return { match: 'none', note: `it is ${form}` };
  const fits = explainPresented(members, secret, { signature: presented });
  if (fits.length > 0) return { match: 'alternative', fits, canonicalPairs };
  const escapes = escapesSignedAsWritten(members, secret, presented);
  if (escapes) return { match: 'none', note: escapes };
  return {
    match: 'none',
    note: 'no known canonicalisation reproduces it: likely the secret is wrong, or the text signed differs from the body in a way no labelled alternative covers (the body changed after signing, another character encoding)',
  };
}

/**
 * The strings' JSON escapes (`\u00e9`, `\/`) signed as they stand in the body instead of the
 * characters they stand for: a signer that reads the body's text without a JSON parser.
 */
function escapesSignedAsWritten(members: readonly RawMember[], secret: string, presented: string): string | undefined {
  const escaped = members.filter((m) => m.value.kind === 'string' && m.value.raw.includes('\\'));
  if (escaped.length === 0) return undefined;
  const asWritten = members.map((m) => (m.value.kind === 'string' ? { ...m, value: { ...m.value, value: m.value.raw.slice(1, -1) } } : m));
  if (!signatureMatches(secret, joinPairs(pairsOfMembers(asWritten, SUITE_PROFILE)), presented)) return undefined;
  return `the strings' JSON escapes were signed as they stand in the body (${escaped.map((m) => `${m.key}=${m.value.raw.slice(1, -1)}`).join(', ').slice(0, 120)}), not as the characters they stand for: §5.1 signs each value's text, a string's characters once its JSON is read`;
}

/** "`php-float-precision` (PHP: …)", or "`a` with `b` (…; …)" for a combination: each rule with its language. */
export function describeExplanation(explanation: Pick<Explanation, 'alternatives'>): string {
  const labels = explanation.alternatives.map((a) => `\`${a.label}\``).join(' with ');
  const what = explanation.alternatives.map((a) => `${languageOf(a)}: ${a.description}`).join('; ');
  return `${labels} (${what})`;
}

/** The first pair that differs: "signed `amount=3.3`, the body has `amount=3.3000000000000003`". */
export function signedVersusSent(sent: readonly Pair[], signed: readonly Pair[]): string {
  const text = ([k, v]: Pair) => `\`${k}=${v}\``;
  for (let i = 0; i < Math.max(sent.length, signed.length); i++) {
    const a = sent[i];
    const b = signed[i];
    if (a && b && a[0] === b[0] && a[1] === b[1]) continue;
    if (a && b && a[0] === b[0]) return `signed ${text(b)}, the body has ${text(a)}`;
    if (a && b) return `signed ${text(b)} where the service signs ${text(a)}`;
    if (a) return `left ${text(a)} out`;
    return `signed ${text(b!)}, which the service does not`;
  }
  return 'signed the same pairs';
}

/** One sentence for a log line or an error message. */
export function describeDiagnosis(d: SignatureDiagnosis): string {
  switch (d.match) {
    case 'canonical':
      return 'the signature matches';
    case 'alternative': {
      const service = 'the service signs keys in code-point order with every value as its text stands in the body';
      if (d.fits.length === 1) {
        const fit = d.fits[0]!;
        return `your signature matches the message of ${describeExplanation(fit)}: ${signedVersusSent(d.canonicalPairs, fit.pairs)}; ${service}`;
      }
      const diffs = new Set(d.fits.map((fit) => signedVersusSent(d.canonicalPairs, fit.pairs)));
      const each = diffs.size === 1
        ? `${d.fits.map(describeExplanation).join('; or ')}: each ${[...diffs][0]!}`
        : d.fits.map((fit) => `${describeExplanation(fit)}, which ${signedVersusSent(d.canonicalPairs, fit.pairs)}`).join('; or ');
      return `the evidence is ambiguous: your signature matches the message of each of ${d.fits.length} alternatives: ${each}; ${service}`;
    }
    case 'case':
    case 'none':
      return d.note;
  }
}

/** HMAC of the message an explanation gives (for vector files and tests). */
export function signatureOf(secret: string, explanation: Pick<Explanation, 'message'>): string {
  return hmacHex(secret, explanation.message);
}
