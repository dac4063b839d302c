// Builds vectors/signature.json from tables/signature.ts with harness/signing.
import { ALTERNATIVES, hmacHex, joinPairs, profileOf, readRawJsonObject, renderingsOf, signBody } from '../../harness/signing/index.ts';
import { SIGNATURE_HEADER, SIGNATURE_ROWS, SIGNATURE_SOURCES, sourceOfRow } from './tables/signature.ts';
import { VECTOR_CLIENT_KEY, VECTOR_SECRET } from './fixtures.ts';
import { assembleFile, checkRows } from './assemble.ts';
import type { SignatureRow, SignatureVector, Tamper, VectorFile } from './types.ts';

export function buildSignatureFile(): VectorFile<SignatureVector> & { sources: Record<string, string> } {
  checkRows('signature', SIGNATURE_ROWS, SIGNATURE_HEADER);
  const { tests, ...header } = assembleFile(SIGNATURE_HEADER, SIGNATURE_ROWS.map(buildSignatureVector));
  // `sources` defines the values of each test's `source`, next to the notes that define the flags.
  return { ...header, sources: SIGNATURE_SOURCES, tests };
}

export function buildSignatureVector(row: SignatureRow): SignatureVector {
  const stages = signBody(row.body, VECTOR_SECRET, { clientKey: VECTOR_CLIENT_KEY });
  const alternatives = signatureAlternatives(row.body, stages.message);
  let presented: string | undefined;
  if (row.result === 'invalid') {
    if (!row.tamper) throw new Error(`signature tcId ${row.tcId}: an invalid row needs a tamper`);
    presented = presentedSignature(row, row.tamper, stages.signature);
    if (presented === stages.signature) throw new Error(`signature tcId ${row.tcId}: the tamper leaves the signature right`);
  } else if (row.tamper) {
    throw new Error(`signature tcId ${row.tcId}: only invalid rows take a tamper`);
  }
  const vector: SignatureVector = {
    tcId: row.tcId,
    comment: row.comment,
    flags: row.flags,
    specRef: row.specRef,
    secret: VECTOR_SECRET,
    clientKey: VECTOR_CLIENT_KEY,
    body: row.body,
    pairs: stages.pairs.map(([k, v]) => [k, v]),
    message: stages.message,
    signature: stages.signature,
    authorization: stages.authorization!,
    ...(presented === undefined ? {} : { presentedSignature: presented }),
    alternatives,
    result: row.result,
    source: sourceOfRow(row),
  };
  return vector;
}

/**
 * Every labelled alternative whose message differs from the suite's, in ALTERNATIVES order.
 * An alternative that refuses the body (an ASCII-only encode) has no message and is not listed.
 */
export function signatureAlternatives(body: string, message: string): SignatureVector['alternatives'] {
  const out: SignatureVector['alternatives'] = [];
  for (const [alternative, pairs] of renderingsOf(readRawJsonObject(body))) {
    if (pairs === undefined) continue;
    const altMessage = joinPairs(pairs);
    if (altMessage !== message) out.push({ label: alternative.label, message: altMessage, signature: hmacHex(VECTOR_SECRET, altMessage) });
  }
  return out;
}

function presentedSignature(row: SignatureRow, tamper: Tamper, right: string): string {
  switch (tamper.kind) {
    case 'signed-body':
      return signBody(tamper.body, VECTOR_SECRET).signature;
    case 'wrong-secret':
      return signBody(row.body, tamper.secret).signature;
    case 'upper-case':
      return right.toUpperCase();
    case 'truncate':
      return right.slice(0, tamper.length);
    case 'flip-last': {
      const last = right.at(-1)!;
      return right.slice(0, -1) + (last === '0' ? '1' : '0');
    }
    case 'alternative': {
      const alternative = ALTERNATIVES.find((a) => a.label === tamper.label);
      if (!alternative) throw new Error(`signature tcId ${row.tcId}: no alternative ${tamper.label}`);
      return signBody(row.body, VECTOR_SECRET, { profile: profileOf(alternative) }).signature;
    }
    case 'signed-message':
      return hmacHex(VECTOR_SECRET, tamper.message);
  }
}
