// Public face of the canonical signer (§5.1, §5.2).
export { SigningError, type SigningErrorCode } from './errors.ts';
export { readRawJsonObject, MAX_NESTING_DEPTH, type RawMember, type RawValue } from './raw-json.ts';
export { canonicalPairs, canonicalMessage, joinPairs, pairsOfMembers, compareCodePoints, type Pair } from './canonicalise.ts';
export {
  SUITE_PROFILE, ALTERNATIVES, profileOf, findAlternative,
  type CanonicalProfile, type Alternative,
} from './profile.ts';
export {
  signBody, hmacHex, authorizationHeader, signatureMatches, verifyBody, parseAuthorizationHeader,
  type SigningStages, type SignOptions, type ParsedAuthorization,
} from './sign.ts';
export { diagnoseSignature, describeDiagnosis, type SignatureDiagnosis } from './diagnose.ts';
