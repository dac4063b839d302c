// Verdict rules for a signer's answer to one signature vector (DESIGN.md "Signers in other
// languages"). A mismatch names the stage that diverges (message or signature) and, where it
// can, the labelled alternative the signer follows.
import {
  readRawJsonObject, pairsOfMembers, joinPairs, hmacHex, profileOf, findAlternative, ALTERNATIVES,
  type Alternative, type CanonicalProfile,
} from '../signing/index.ts';
import type { Evidence, Level, Verdict } from '../results/index.ts';
import type { SignatureVector } from './types.ts';
import type { SignerAnswer } from './signer.ts';

export type DivergentStage = 'message' | 'signature';

export interface SignerJudgement {
  verdict: Verdict;
  reason?: string;
  level: Level;
  specRef: string;
  /** Where the answer first departs from the suite's stages, when it does. */
  stage?: DivergentStage;
  /** The labelled alternative the answer reproduces, when one does. */
  alternative?: string;
  evidence: Evidence;
}

/** What the suite's position is, per open point, to close a "follows alternative" sentence. */
const SUITE_POSITION: Record<keyof CanonicalProfile, string> = {
  keyOrder: 'the service verifies in code-point order',
  duplicateKeys: 'the suite keeps the last value of a duplicated key',
  valueEncoding: 'the service verifies values as written, never URL-encoded (§5.1 step 3)',
  numbers: 'the service verifies a JSON number as written in the body (15.0 stays 15.0)',
  decimalStrings: 'the service verifies a decimal string as written ("100.10" stays 100.10)',
  nulls: 'the suite writes null as null',
  booleans: 'the suite writes booleans as true and false',
  emptyStrings: 'the suite keeps pairs with an empty value (key=)',
  nested: 'the suite writes an object or array as its JSON text in the body',
};

export function judgeSignerAnswer(vector: SignatureVector, answer: SignerAnswer, fileSpecRef = '§5.1'): SignerJudgement {
  const level: Level = vector.result === 'acceptable' ? 'SHOULD' : 'MUST';
  const specRef = vector.specRef ?? fileSpecRef;
  const evidence: Evidence = {
    vector: { tcId: vector.tcId, result: vector.result, flags: vector.flags, body: vector.body },
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
    return j;
  };

  if (answer.kind === 'failed') return judged('ERROR', `${answer.code}: ${answer.reason}`);

  if (vector.result === 'invalid') {
    if (answer.kind === 'refused') {
      return judged('FAIL', `refuses to sign a body the suite signs (signer said: ${quote(answer.error)}); only the presented signature of this vector is wrong`);
    }
    if (vector.presentedSignature !== undefined && answer.signature === vector.presentedSignature) {
      return judged('FAIL', `produces the presented signature ${vector.presentedSignature}, which must be refused (${vector.comment})`, { stage: 'signature' });
    }
    return judged('PASS');
  }

  const matches = answer.kind === 'signed' && answer.message === vector.message && answer.signature === vector.signature;
  if (matches) return judged('PASS');

  if (answer.kind === 'refused') {
    return vector.result === 'acceptable'
      ? judged('PASS', `refuses the body (${quote(answer.error)}), which the suite accepts for this interpretive case`)
      : judged('FAIL', `refuses a body the suite signs (signer said: ${quote(answer.error)})`);
  }

  const mismatch = describeMismatch(vector, answer.message, answer.signature);
  const verdict: Verdict = vector.result === 'acceptable' ? 'WARN' : 'FAIL';
  return judged(verdict, mismatch.reason, { stage: mismatch.stage, ...(mismatch.alternative ? { alternative: mismatch.alternative } : {}) });
}

interface Mismatch {
  stage: DivergentStage;
  reason: string;
  alternative?: string;
}

function describeMismatch(vector: SignatureVector, message: string, signature: string): Mismatch {
  const ownHmac = hmacHex(vector.secret, message);
  const selfConsistent = signature === ownHmac || signature.toLowerCase() === ownHmac;
  const inconsistency = selfConsistent ? '' : '; besides, its signature is not HMAC-SHA256 of its own message';

  if (message === vector.message) {
    if (signature.toLowerCase() === vector.signature) {
      return { stage: 'signature', reason: 'message matches; the signature is upper-case hex (§5.1 step 5 writes lower-case hex)' };
    }
    return {
      stage: 'signature',
      reason: `message matches; signature differs: expected ${vector.signature}, got ${signature} (the key, the hash or the byte encoding of the message differs)`,
    };
  }

  const alt = matchAlternative(vector, message, signature);
  const diff = describeTextDiff(vector.message, message);
  if (alt) {
    return {
      stage: 'message',
      alternative: alt.label,
      reason: `follows alternative \`${alt.label}\` (${alt.description}); ${alt.position}. Message ${diff}${inconsistency}`,
    };
  }
  if (signature === vector.signature) {
    return { stage: 'message', reason: `signature matches but the reported message ${diff}` };
  }
  return { stage: 'message', reason: `message ${diff}; no labelled alternative reproduces it${inconsistency}` };
}

interface AlternativeMatch {
  label: string;
  description: string;
  position: string;
}

/** Labels the vector lists first, then every alternative harness/signing knows (computed). */
function matchAlternative(vector: SignatureVector, message: string, signature: string): AlternativeMatch | undefined {
  for (const listed of vector.alternatives ?? []) {
    if (listed.message === message || listed.signature === signature) return describeAlternative(listed.label, findAlternative(listed.label), listed.message);
  }
  let members;
  try {
    members = readRawJsonObject(vector.body);
  } catch {
    return undefined;
  }
  for (const alternative of ALTERNATIVES) {
    const altMessage = joinPairs(pairsOfMembers(members, profileOf(alternative)));
    if (altMessage !== vector.message && (altMessage === message || hmacHex(vector.secret, altMessage) === signature)) {
      return describeAlternative(alternative.label, alternative, altMessage);
    }
  }
  return undefined;
}

function describeAlternative(label: string, known: Alternative | undefined, altMessage: string): AlternativeMatch {
  if (!known) return { label, description: `message ${quote(altMessage)}`, position: 'the suite takes another position' };
  const point = Object.keys(known.deviation)[0] as keyof CanonicalProfile | undefined;
  return { label, description: known.description, position: point ? SUITE_POSITION[point] : 'the suite takes another position' };
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
