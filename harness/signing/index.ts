// Public face of the canonical signer (§5.1, §5.2) and of the catalogue of labelled
// alternatives that names what a wrong signer does (diagnose.ts: usable from any side).
export { SigningError, type SigningErrorCode } from './errors.ts';
export { readRawJsonObject, MAX_NESTING_DEPTH, type RawMember, type RawValue } from './raw-json.ts';
export { canonicalPairs, canonicalMessage, joinPairs, pairsOfMembers, compareCodePoints, type Pair } from './canonicalise.ts';
export {
  SUITE_PROFILE, ALTERNATIVES, profileOf, profileOfAll, findAlternative, languageOf, namedLabel, namedLabels,
  type CanonicalProfile, type Alternative, type Language,
} from './profile.ts';
export {
  signBody, hmacHex, otherFormOf, authorizationHeader, signatureMatches, verifyBody, parseAuthorizationHeader,
  type SigningStages, type SignOptions, type ParsedAuthorization,
} from './sign.ts';
export {
  diagnoseSignature, describeDiagnosis, describeExplanation, explainPresented, explainRefusal, renderingsOf,
  signedVersusSent, signatureOf,
  type SignatureDiagnosis, type Explanation, type Presented,
} from './diagnose.ts';
export { phpFloat, pythonFloat, rubyFloat, javaDouble } from './printers.ts';
