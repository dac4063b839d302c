// Verdict rules for a signer's answer to one signature vector (DESIGN.md "Signers in other
// languages"). A mismatch names the stage that diverges (message or signature) and, where it
// can, the labelled alternative the signer follows.
import {
  readRawJsonObject, hmacHex, otherFormOf, explainPresented, explainRefusal, describeExplanation, namedLabels,
  type Alternative, type CanonicalProfile, type RawMember,
} from '../signing/index.ts';
import type { DivergentStage, Evidence, Level, Verdict } from '../results/index.ts';
import type { SignatureVector } from './types.ts';
import type { SignerAnswer } from './signer.ts';

export type { DivergentStage };

export interface SignerJudgement {
  verdict: Verdict;
  reason?: string;
  level: Level;
  specRef: string;
  /** Where the answer first departs from the suite's stages, when it does. */
  stage?: DivergentStage;
  /** The labelled alternative the answer reproduces, when exactly one does. */
  alternative?: string;
  /** Every set of labelled alternatives that reproduces the answer (several: ambiguous). */
  fits?: string[][];
  evidence: Evidence;
}

/** What the suite's position is, per open point, to close a "follows alternative" sentence. */
const SUITE_POSITION: Record<keyof CanonicalProfile, string> = {
  keyOrder: 'the service verifies in code-point order',
  keyPaths: 'the service signs every key as it stands, dots included',
  protoKey: 'the service signs every key as it stands, __proto__ included',
  duplicateKeys: 'the suite keeps the last value of a duplicated key',
  valueEncoding: 'the service verifies values as written, never URL-encoded (§5.1 step 3)',
  numbers: 'the service verifies a JSON number as written in the body (15.0 stays 15.0)',
  decimalStrings: 'the service verifies a decimal string as written ("100.10" stays 100.10)',
  amount: 'the service verifies the amount string as written ("15.0" stays 15.0)',
  nulls: 'the suite writes null as null',
  booleans: 'the suite writes booleans as true and false',
  emptyStrings: 'the suite keeps pairs with an empty value (key=)',
  nested: 'the suite writes an object or array as its JSON text in the body',
  query: 'the service signs k=v pairs as written, with no http_build_query encoding or flattening',
  nonAscii: 'the service signs non-ASCII text as its UTF-8 bytes',
};

/** The sentence that closes "follows alternative …": what the service does instead. */
export function positionAgainst(alternative: Alternative): string {
  const points = Object.keys(alternative.deviation) as Array<keyof CanonicalProfile>;
  return points.length === 1 ? SUITE_POSITION[points[0]!] : 'the service signs every value as its text stands in the body (15.0 stays 15.0, true stays true)';
}

/** Where the position a vector checks comes from (the vector's `source`), for every reason. */
export function sourceOf(vector: SignatureVector): string {
  switch (vector.source) {
    case 'spec':
      return `position from the spec's text (${vector.specRef ?? '§5.1'})`;
    case 'service-docs':
      return 'position from the real service\'s public documentation (the JSON number 15.0 signed as amount=15.0)';
    case 'suite':
      return 'the suite\'s own position: the spec is silent here';
    default:
      return 'position source not given by the vector file';
  }
}

export function judgeSignerAnswer(vector: SignatureVector, answer: SignerAnswer, fileSpecRef = '§5.1'): SignerJudgement {
  const level: Level = vector.result === 'acceptable' ? 'SHOULD' : 'MUST';
  const specRef = vector.specRef ?? fileSpecRef;
  const evidence: Evidence = {
    vector: { tcId: vector.tcId, result: vector.result, flags: vector.flags, body: vector.body, ...(vector.source ? { source: vector.source } : {}) },
    expected: vector.result === 'invalid'
      ? { message: vector.message, signature: vector.signature, mustDifferFrom: vector.presentedSignature }
      : { message: vector.message, signature: vector.signature },
    answer,
  };
  const judged = (verdict: Verdict, reason?: string, extra: Partial<SignerJudgement> = {}): SignerJudgement => {
    const j: SignerJudgement = { verdict, level, specRef, evidence, ...extra };
    if (reason !== undefined) j.reason = reason;
    if (extra.stage) evidence.stage = extra.stage;
    if (extra.alternative) evidence.alternative = extra.alternative;
    if (extra.fits) evidence.fits = extra.fits;
    return j;
  };

  if (answer.kind === 'failed') return judged('ERROR', `${answer.code}: ${answer.reason}`);

  if (vector.result === 'invalid') {
    if (answer.kind === 'refused') {
      return judged('FAIL', `refuses to sign a body the suite signs (signer said: ${quote(answer.error)}); only the presented signature of this vector is wrong`);
    }
    // What the signer's own message follows, for the signer's summary (the verdict does not depend on it).
    const members = answer.message === vector.message ? undefined : membersOf(vector);
    const fits = members ? explainPresented(members, vector.secret, { message: answer.message, signature: answer.signature }).map((f) => f.alternatives.map((a) => a.label)) : [];
    const named = fits.length === 1 ? { fits, ...(fits[0]!.length === 1 ? { alternative: fits[0]![0]! } : {}) } : fits.length > 1 ? { fits } : {};
    if (vector.presentedSignature !== undefined && answer.signature === vector.presentedSignature) {
      const follows = fits.length === 0 ? '' : `; the signer follows ${fits.map(namedLabels).join(' or ')}`;
      return judged('FAIL', `produces the presented signature ${vector.presentedSignature}, which must be refused (${vector.comment})${follows}; ${sourceOf(vector)}`, { stage: 'signature', ...named });
    }
    return judged('PASS', undefined, named);
  }

  const matches = answer.kind === 'signed' && answer.message === vector.message && answer.signature === vector.signature;
  if (matches) return judged('PASS');

  const members = membersOf(vector);
  if (answer.kind === 'refused') {
    if (vector.result === 'acceptable') return judged('PASS', `refuses the body (${quote(answer.error)}), which the suite accepts for this interpretive case`);
    const refusing = members ? explainRefusal(members) : [];
    const fits = refusing.map((a) => [a.label]);
    const named = refusing.length === 0 ? ''
      : refusing.length === 1 ? `; follows alternative ${describeExplanation({ alternatives: refusing })}`
      : `; ${AMBIGUOUS_REFUSAL}${refusing.map((a) => describeExplanation({ alternatives: [a] })).join(', ')} refuses it`;
    return judged('FAIL', `refuses a body the suite signs (signer said: ${quote(answer.error)})${named}; ${sourceOf(vector)}`, {
      ...(fits.length > 0 ? { fits } : {}), ...(refusing.length === 1 ? { alternative: refusing[0]!.label } : {}),
    });
  }

  const mismatch = describeMismatch(vector, members, answer.message, answer.signature);
  const verdict: Verdict = vector.result === 'acceptable' ? 'WARN' : 'FAIL';
  return judged(verdict, `${mismatch.reason}; ${sourceOf(vector)}`, {
    stage: mismatch.stage,
    ...(mismatch.alternative ? { alternative: mismatch.alternative } : {}),
    ...(mismatch.fits ? { fits: mismatch.fits } : {}),
  });
}

function membersOf(vector: SignatureVector): RawMember[] | undefined {
  try {
    return readRawJsonObject(vector.body);
  } catch {
    return undefined;
  }
}

interface Mismatch {
  stage: DivergentStage;
  reason: string;
  alternative?: string;
  fits?: string[][];
}

function describeMismatch(vector: SignatureVector, members: RawMember[] | undefined, message: string, signature: string): Mismatch {
  const ownHmac = hmacHex(vector.secret, message);
  const selfConsistent = signature === ownHmac || signature.toLowerCase() === ownHmac;
  const matches = message === vector.message;
  // The right HMAC of the signer's message in another form (base64, a prefix, another hash) is named as such.
  const form = selfConsistent ? undefined : otherFormOf(vector.secret, message, signature, matches ? 'the right message' : 'its own message');
  const inconsistency = selfConsistent ? '' : form ? `; besides, its signature is ${form}` : '; besides, its signature is not HMAC-SHA256 of its own message';

  if (matches) {
    if (signature.toLowerCase() === vector.signature) {
      return { stage: 'signature', reason: 'message matches; the signature is upper-case hex (§5.1 step 5 writes lower-case hex)' };
    }
    if (form) return { stage: 'signature', reason: `message matches; the signature is ${form}` };
    return {
      stage: 'signature',
      reason: `message matches; signature differs: expected ${vector.signature}, got ${signature} (the key, the hash or the byte encoding of the message differs)`,
    };
  }

  const diff = describeTextDiff(vector.message, message);
  const fits = members ? explainPresented(members, vector.secret, { message, signature }) : [];
  if (fits.length === 1) {
    const only = fits[0]!.alternatives;
    const position = only.length === 1 ? positionAgainst(only[0]!) : 'the service signs every value as its text stands in the body';
    return {
      stage: 'message',
      fits: [only.map((a) => a.label)],
      ...(only.length === 1 ? { alternative: only[0]!.label } : {}),
      reason: `follows ${only.length === 1 ? 'alternative' : 'alternatives'} ${describeExplanation(fits[0]!)}; ${position}. Message ${diff}${inconsistency}`,
    };
  }
  if (fits.length > 1) {
    // When every fit departs on the same point, the service's position on it is one sentence.
    const positions = new Set(fits.map((f) => (f.alternatives.length === 1 ? positionAgainst(f.alternatives[0]!) : '')));
    const only = positions.size === 1 ? [...positions][0]! : '';
    const position = only === '' ? '' : ` ${only.charAt(0).toUpperCase()}${only.slice(1)}.`;
    return {
      stage: 'message',
      fits: fits.map((f) => f.alternatives.map((a) => a.label)),
      reason: `${AMBIGUOUS_MESSAGE}${fits.map((f) => namedLabels(f.alternatives.map((a) => a.label))).join(', ')} equally; `
        + `${UNTOLD}.${position} Message ${diff}${inconsistency}. `
        + `They are: ${fits.map(describeExplanation).join('; ')}`,
    };
  }
  // A vector file from elsewhere may list labels this kit does not know.
  const listed = (vector.alternatives ?? []).find((a) => a.message === message || a.signature === signature);
  if (listed) {
    return { stage: 'message', alternative: listed.label, fits: [[listed.label]], reason: `follows alternative \`${listed.label}\` (listed by the vector file: message ${quote(listed.message)}); the suite takes another position. Message ${diff}${inconsistency}` };
  }
  if (signature === vector.signature) {
    return { stage: 'message', reason: `signature matches but the reported message ${diff}` };
  }
  return { stage: 'message', reason: `message ${diff}; no labelled alternative reproduces it${inconsistency}` };
}

/** How a vector's reason starts when several alternatives fit its message equally. */
const AMBIGUOUS_MESSAGE = 'the evidence is ambiguous: the message fits each of ';
const UNTOLD = 'other vectors may tell them apart (see the signer\'s summary)';
/** Where a refusal's reason says that several alternatives refuse the body. */
const AMBIGUOUS_REFUSAL = 'the evidence is ambiguous: each of ';

/**
 * A vector's reason once the signer's summary has told apart what this vector alone could not
 * (issue 22 point 6): the label it settled on named first, then what this vector showed.
 * Undefined when the reason was not ambiguous.
 */
export function settledReason(reason: string, labels: readonly string[]): string | undefined {
  const told = `follows ${namedLabels(labels)}, as the signer's summary tells from other vectors`;
  if (reason.startsWith(AMBIGUOUS_MESSAGE)) {
    return `${told}; on this vector alone the message fits each of ${reason.slice(AMBIGUOUS_MESSAGE.length).replace(`; ${UNTOLD}.`, '.')}`;
  }
  const at = reason.indexOf(`; ${AMBIGUOUS_REFUSAL}`);
  if (at === -1) return undefined;
  return `${reason.slice(0, at)}; ${told}; on this vector alone each of ${reason.slice(at + 2 + AMBIGUOUS_REFUSAL.length)}`;
}

/** "differs at character 7: expected …"amount=15.0&"…, got …"amount=15&"…". */
export function describeTextDiff(expected: string, got: string): string {
  let i = 0;
  while (i < expected.length && i < got.length && expected[i] === got[i]) i++;
  const from = Math.max(0, i - 12);
  const excerpt = (s: string) => `${from > 0 ? '…' : ''}${JSON.stringify(s.slice(from, i + 24))}${s.length > i + 24 ? '…' : ''}`;
  return `differs at character ${i}: expected ${excerpt(expected)}, got ${excerpt(got)}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
