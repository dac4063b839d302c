// Why does a signature not match? Try the suite's position, then each labelled alternative,
// and name the first that reproduces the presented signature.
import { readRawJsonObject } from './raw-json.ts';
import { joinPairs, pairsOfMembers } from './canonicalise.ts';
import { signatureMatches } from './sign.ts';
import { ALTERNATIVES, SUITE_PROFILE, profileOf, type Alternative } from './profile.ts';

export type SignatureDiagnosis =
  | { match: 'canonical' }
  | { match: 'alternative'; alternative: Alternative; message: string }
  | { match: 'case'; note: string }
  | { match: 'none'; note: string };

export function diagnoseSignature(rawBody: string, secret: string, presented: string): SignatureDiagnosis {
  const members = readRawJsonObject(rawBody);
  const canonical = joinPairs(pairsOfMembers(members, SUITE_PROFILE));
  if (signatureMatches(secret, canonical, presented)) return { match: 'canonical' };
  if (presented !== presented.toLowerCase() && signatureMatches(secret, canonical, presented.toLowerCase())) {
    return { match: 'case', note: 'the signature is right but written in upper-case hex; §5.1 hex is lower-case' };
  }
  for (const alternative of ALTERNATIVES) {
    const message = joinPairs(pairsOfMembers(members, profileOf(alternative)));
    if (message !== canonical && signatureMatches(secret, message, presented)) {
      return { match: 'alternative', alternative, message };
    }
  }
  return {
    match: 'none',
    note: 'no known canonicalisation reproduces it: the secret is wrong or the body changed after signing',
  };
}

/** One sentence for a log line or an error message. */
export function describeDiagnosis(d: SignatureDiagnosis): string {
  switch (d.match) {
    case 'canonical':
      return 'the signature matches';
    case 'alternative':
      return `your signature matches the message with ${d.alternative.description} (alternative \`${d.alternative.label}\`); the service signs keys in code-point order with values as written`;
    case 'case':
    case 'none':
      return d.note;
  }
}
