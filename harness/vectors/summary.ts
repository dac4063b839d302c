// The signer's deviations as a short list (one Diagnosis per alternative it follows, one per
// set of alternatives the vectors cannot tell apart, one for what no alternative explains),
// built from the signature cases' results alone, so it reads a report as well as a live run.
//
// Evidence against a label counts as much as evidence for it: a signer that kept `15.0` on one
// vector does not follow a label that would have printed `15`, whatever another vector fits.
import {
  ALTERNATIVES, findAlternative, joinPairs, pairsOfMembers, readRawJsonObject, renderingsOf, SUITE_PROFILE,
  describeExplanation, explainPresented, namedLabel, namedLabels, signedVersusSent, type Alternative, type Pair, type RawMember,
} from '../signing/index.ts';
import type { CaseResult, Diagnosis } from '../results/index.ts';
import type { SignerAnswer } from './signer.ts';
import { positionAgainst, settledReason } from './judge.ts';

interface SignatureCase {
  result: CaseResult;
  tcId: number;
  vectorResult: string;
  source?: string;
  members: RawMember[];
  canonical: Pair[];
  answer: SignerAnswer;
  fits: string[][];
  /** Its own reason called the evidence ambiguous: several sets of alternatives fit it. */
  ambiguousAlone: boolean;
}

const SERVICE_REFUSES = 'the service would refuse such a request (401 INVALID_SIGNATURE)';

function signatureCases(results: readonly CaseResult[]): SignatureCase[] {
  const out: SignatureCase[] = [];
  for (const result of results) {
    const { vector, answer, fits = [] } = result.evidence ?? {};
    if (!result.id.startsWith('vectors.signature.') || !vector || !('body' in vector) || !answer) continue;
    let members: RawMember[];
    try {
      members = readRawJsonObject(vector.body);
    } catch {
      continue;
    }
    out.push({
      result, tcId: vector.tcId, vectorResult: vector.result, members,
      ...(vector.source ? { source: vector.source } : {}),
      canonical: pairsOfMembers(members, SUITE_PROFILE), answer, fits, ambiguousAlone: fits.length > 1,
    });
  }
  return out;
}

/** The first vector on which the signer did what the service does where `alternative` would not. */
function contradictions(cases: readonly SignatureCase[]): Map<string, SignatureCase> {
  const against = new Map<string, SignatureCase>();
  for (const c of cases) {
    const canonical = joinPairs(c.canonical);
    const keptCanonical = c.answer.kind === 'signed' && c.answer.message === canonical;
    if (!keptCanonical) continue;
    for (const [alternative, pairs] of renderingsOf(c.members)) {
      if (against.has(alternative.label)) continue;
      if (pairs === undefined || joinPairs(pairs) !== canonical) against.set(alternative.label, c);
    }
  }
  return against;
}

function key(labels: readonly string[]): string {
  return labels.join('+');
}

function caseList(cases: readonly SignatureCase[], limit = 8): string {
  const ids = cases.map((c) => c.tcId);
  return ids.length <= limit ? ids.join(', ') : `${ids.slice(0, limit).join(', ')} and ${ids.length - limit} more`;
}

/** Which kinds of value, on which keys, an alternative changes on these vectors: "number (amount, rate), null (note)". */
function whereItShows(alternative: Alternative, cases: readonly SignatureCase[]): string {
  const byKind = new Map<string, Set<string>>();
  let order = false;
  for (const c of cases) {
    const pairs = renderingsOf(c.members).get(alternative);
    if (!pairs) continue;
    const canonical = new Map(c.canonical);
    const rendered = new Map(pairs);
    const changed = [...new Set([...canonical.keys(), ...rendered.keys()])].filter((k) => canonical.get(k) !== rendered.get(k));
    if (changed.length === 0) order = true;
    for (const k of changed) {
      const member = c.members.find((m) => m.key === k);
      const kind = member ? member.value.kind : 'keys';
      byKind.set(kind, (byKind.get(kind) ?? new Set()).add(member ? k : k));
    }
  }
  const parts = [...byKind].map(([kind, keys]) => {
    const shown = [...keys].slice(0, 4).map((k) => `\`${k}\``).join(', ');
    return `${kind} (${shown}${keys.size > 4 ? ', …' : ''})`;
  });
  if (order) parts.unshift('key order');
  return parts.length > 0 ? parts.join(', ') : alternative.affects;
}

const SOURCE_WORDS: Record<string, string> = {
  spec: 'the spec\'s text',
  'service-docs': 'the real service\'s public documentation',
  suite: 'the suite alone, the spec being silent',
};

function whatTheServiceDoes(cases: readonly SignatureCase[]): string {
  const normative = cases.filter((c) => c.vectorResult !== 'acceptable').length;
  const counts = new Map<string, number>();
  for (const c of cases) if (c.source) counts.set(c.source, (counts.get(c.source) ?? 0) + 1);
  const sources = counts.size === 0 ? ''
    : `; positions from ${[...counts].map(([s, n]) => `${SOURCE_WORDS[s] ?? s} (${n})`).join(', ')}`;
  if (normative === cases.length) return SERVICE_REFUSES + sources;
  if (normative === 0) return `the reference service would refuse such a request (401 INVALID_SIGNATURE), WARN only: the spec is silent here${sources}`;
  return `${SERVICE_REFUSES}, WARN only on the ${cases.length - normative} where the spec is silent${sources}`;
}

function example(alternatives: readonly Alternative[], c: SignatureCase): string {
  const alternativePairs = alternatives.length === 1 ? renderingsOf(c.members).get(alternatives[0]!) : undefined;
  if (alternativePairs) return `vectors.signature.${c.tcId}: ${signedVersusSent(c.canonical, alternativePairs)}`;
  return `vectors.signature.${c.tcId}: signed ${JSON.stringify(c.answer.kind === 'signed' ? c.answer.message : '')}`;
}

/**
 * The signer's deviations, as diagnoses of the vectors report (ids `signer.<label>`,
 * `signer.ambiguous.<n>`, `signer.unexplained`), in catalogue order. Empty when every vector passes.
 */
export function summariseSigner(results: readonly CaseResult[]): Diagnosis[] {
  return signerSummary(results).diagnoses;
}

export interface SignerSummary {
  diagnoses: Diagnosis[];
  /**
   * The vectors whose own reason called the evidence ambiguous while the summary told the
   * alternatives apart with other vectors: their results with the settled label named first
   * (issue 22 point 6), to replace the ones reported.
   */
  settled: CaseResult[];
}

/** summariseSigner, and the vector results whose ambiguity the summary settled. */
export function signerSummary(results: readonly CaseResult[]): SignerSummary {
  const cases = signatureCases(results);
  const against = contradictions(cases);
  const usable = (labels: readonly string[]) => labels.every((l) => !against.has(l));

  // Vectors whose answer deviates from the service's message (or refuses what it signs).
  const deviating = cases.filter((c) => c.answer.kind === 'refused'
    ? c.result.verdict !== 'PASS' || c.fits.length > 0
    : c.answer.kind === 'signed' && c.answer.message !== joinPairs(c.canonical));
  // Where every minimal fit is ruled out, a larger combination of the labels left may still fit.
  const ruledOut = new Set(against.keys());
  for (const c of deviating) {
    if (c.fits.length === 0 || c.fits.some(usable) || c.answer.kind !== 'signed') continue;
    const larger = explainPresented(c.members, '', { message: c.answer.message }, ruledOut).map((f) => f.alternatives.map((a) => a.label));
    if (larger.length > 0) c.fits = larger;
  }
  const certain = new Set<string>();
  for (const c of deviating) {
    const fits = c.fits.filter(usable);
    if (fits.length === 0) continue;
    const shared = fits.slice(1).reduce((acc, f) => acc.filter((l) => f.includes(l)), fits[0]!);
    for (const l of shared) certain.add(l);
  }

  const byLabel = new Map<string, SignatureCase[]>();
  const settled: CaseResult[] = [];
  const ambiguous = new Map<string, { fits: string[][]; cases: SignatureCase[] }>();
  const unexplained: Array<{ c: SignatureCase; why: string }> = [];
  for (const c of deviating) {
    const fits = c.fits.filter(usable);
    let chosen: string[] | undefined;
    if (fits.length === 1) chosen = fits[0];
    else if (fits.length > 1) {
      const settled = fits.filter((f) => f.every((l) => certain.has(l)));
      if (settled.length === 1) chosen = settled[0];
    }
    if (chosen) {
      for (const l of chosen) byLabel.set(l, [...(byLabel.get(l) ?? []), c]);
      const reason = c.ambiguousAlone && c.result.reason !== undefined ? settledReason(c.result.reason, chosen) : undefined;
      if (reason !== undefined) settled.push({ ...c.result, reason });
    } else if (fits.length > 1) {
      const k = fits.map(key).join(' | ');
      const group = ambiguous.get(k) ?? { fits, cases: [] };
      group.cases.push(c);
      ambiguous.set(k, group);
    } else if (c.result.verdict !== 'PASS') {
      const resembled = c.fits.filter((f) => !usable(f)).flat().filter((l) => against.has(l));
      const resembles = resembled.length > 0
        ? ` (resembles ${namedLabel(resembled[0]!)}, but on vector ${against.get(resembled[0]!)!.tcId} the signer does what the service does)`
        : '';
      unexplained.push({ c, why: `${describeAnswer(c)}${resembles}` });
    }
  }
  // Non-PASS verdicts the loop above did not reach (ERROR, a signature-stage mismatch, an invalid vector's presented signature).
  const reached = new Set(deviating.map((c) => c.result.id));
  for (const c of cases) {
    if (c.result.verdict !== 'PASS' && !reached.has(c.result.id)) unexplained.push({ c, why: describeAnswer(c) });
  }

  const diagnoses: Diagnosis[] = [];
  for (const alternative of ALTERNATIVES) {
    const shown = byLabel.get(alternative.label);
    if (!shown) continue;
    const listed = shown.filter((c) => c.result.verdict !== 'PASS');
    // Most telling first (label, where, which vectors, what the service does): renderers may clip.
    diagnoses.push({
      id: `signer.${alternative.label}`,
      summary: `follows ${namedLabel(alternative.label)} `
        + `on ${whereItShows(alternative, shown)}: vectors ${caseList(shown)}; ${whatTheServiceDoes(shown)}. `
        + `${capitalise(alternative.description)}; ${positionAgainst(alternative)}.`,
      cases: listed.map((c) => c.result.id),
      evidence: { notes: shown.slice(0, 3).map((c) => example([alternative], c)) },
    });
  }
  let n = 0;
  for (const { fits, cases: shown } of ambiguous.values()) {
    const alternatives = fits.map((f) => f.map((l) => findAlternative(l)).filter((a): a is Alternative => a !== undefined));
    diagnoses.push({
      id: `signer.ambiguous.${++n}`,
      summary: `ambiguous: on vectors ${caseList(shown)} the message fits each of ${fits.map(namedLabels).join(', ')} equally, and no other vector tells them apart; `
        + `${whatTheServiceDoes(shown)}. ${alternatives.map((a) => describeExplanation({ alternatives: a })).join('; ')}.`,
      cases: shown.filter((c) => c.result.verdict !== 'PASS').map((c) => c.result.id),
      evidence: { notes: shown.slice(0, 3).map((c) => example([], c)) },
    });
  }
  if (unexplained.length > 0) {
    diagnoses.push({
      id: 'signer.unexplained',
      summary: `unexplained: no labelled alternative explains vectors ${caseList(unexplained.map((u) => u.c))}: ${groupedReasons(unexplained)}`,
      cases: unexplained.map((u) => u.c.result.id),
      evidence: { notes: unexplained.map((u) => `vectors.signature.${u.c.tcId}: ${u.why}`) },
    });
  }
  return { diagnoses, settled };
}

/** "no answer (ERR_SIGNER_CRASHED) on vectors 4, 8; refused the body (…) on vector 23". */
function groupedReasons(items: ReadonlyArray<{ c: SignatureCase; why: string }>): string {
  const byWhy = new Map<string, SignatureCase[]>();
  for (const { c, why } of items) byWhy.set(why, [...(byWhy.get(why) ?? []), c]);
  const groups = [...byWhy].map(([why, cases]) => `${why} on ${cases.length === 1 ? 'vector' : 'vectors'} ${caseList(cases, 4)}`);
  return groups.slice(0, 3).join('; ') + (groups.length > 3 ? `; and ${groups.length - 3} other reasons (see the cases)` : '');
}

function describeAnswer(c: SignatureCase): string {
  switch (c.answer.kind) {
    case 'failed':
      return `no answer (${c.answer.code})`;
    case 'refused':
      return `refused the body (${truncate(c.answer.error)})`;
    case 'signed': {
      if (c.answer.message === joinPairs(c.canonical)) return c.result.reason ? truncate(c.result.reason) : 'the signature differs';
      return `signed ${JSON.stringify(truncate(c.answer.message))} where the service signs ${JSON.stringify(truncate(joinPairs(c.canonical)))}`;
    }
  }
}

function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
