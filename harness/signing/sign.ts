// §5.1 steps 4–5 and §5.2: HMAC-SHA256 over the message, hex, and the Authorization header.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { canonicalPairs, joinPairs, type Pair } from './canonicalise.ts';
import { SUITE_PROFILE, type CanonicalProfile } from './profile.ts';
import { SigningError } from './errors.ts';

/** Every stage of signing one body, so a port can see where it diverges. */
export interface SigningStages {
  pairs: Pair[];
  message: string;
  signature: string;
  /** Present when a client key was given. */
  authorization?: string;
}

export interface SignOptions {
  clientKey?: string;
  profile?: CanonicalProfile;
}

// A run signs thousands of bodies with a handful of secrets: a KeyObject per secret saves
// re-importing the key on every call. Bounded, so a fuzzing run cannot grow it.
const keyCache = new Map<string, KeyObject>();
const KEY_CACHE_LIMIT = 64;

function hmacKey(secret: string): KeyObject {
  let key = keyCache.get(secret);
  if (key === undefined) {
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keyCache.set(secret, key);
  }
  return key;
}

/** hex(HMAC_SHA256(secret_key, message)), lower-case hex. */
export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', hmacKey(secret)).update(message, 'utf8').digest('hex');
}

const BASE64_PADDING = /=+$/;

/**
 * How a presented signature that is not §5.1's hex still carries an HMAC over `message`: another
 * encoding of HMAC-SHA256 (base64, base64url), a prefix naming the algorithm before the hex
 * (`sha256=`, as webhook signatures are), or another hash's HMAC in hex. Undefined when none.
 * `over` names the message in the answer. For diagnosis only, after the signature failed to match: not in constant time.
 */
export function otherFormOf(secret: string, message: string, presented: string, over = 'the right message'): string | undefined {
  const digest = (hash: string) => createHmac(hash, hmacKey(secret)).update(message, 'utf8').digest();
  const sha256 = digest('sha256');
  const unpadded = presented.replace(BASE64_PADDING, '');
  if (unpadded === sha256.toString('base64').replace(BASE64_PADDING, '')) return `the HMAC-SHA256 over ${over}, written in base64, not hex (§5.1 step 5)`;
  if (unpadded === sha256.toString('base64url')) return `the HMAC-SHA256 over ${over}, written in base64url, not hex (§5.1 step 5)`;
  const prefixed = /^([A-Za-z0-9-]+)[=:](.+)$/.exec(presented);
  if (prefixed && prefixed[2]!.toLowerCase() === sha256.toString('hex')) {
    return `the HMAC-SHA256 over ${over}, in hex after a prefix \`${prefixed[1]}${presented.charAt(prefixed[1]!.length)}\` (§5.2: the hex alone after the client key's colon)`;
  }
  for (const hash of ['sha512', 'sha384', 'sha1']) {
    if (presented.toLowerCase() === digest(hash).toString('hex')) return `the HMAC-${hash.toUpperCase()} over ${over}, not HMAC-SHA256 (§5.1 step 4)`;
  }
  return undefined;
}

export function authorizationHeader(clientKey: string, signature: string): string {
  return `HMAC ${clientKey}:${signature}`;
}

/** Signs the raw body text (the bytes sent), returning every stage. */
export function signBody(rawBody: string, secret: string, options: SignOptions = {}): SigningStages {
  const pairs = canonicalPairs(rawBody, options.profile ?? SUITE_PROFILE);
  const message = joinPairs(pairs);
  const signature = hmacHex(secret, message);
  const stages: SigningStages = { pairs, message, signature };
  if (options.clientKey !== undefined) stages.authorization = authorizationHeader(options.clientKey, signature);
  return stages;
}

/** Constant-time comparison of a presented hex signature with the one computed for `message`. */
export function signatureMatches(secret: string, message: string, presented: string): boolean {
  const expected = Buffer.from(hmacHex(secret, message), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  // timingSafeEqual needs equal lengths; compare against itself to spend the same time.
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, given);
}

/** Verifies a presented signature over the raw body, in constant time; a body that cannot be read is false. */
export function verifyBody(rawBody: string, secret: string, presented: string): boolean {
  let message: string;
  try {
    message = joinPairs(canonicalPairs(rawBody));
  } catch (error) {
    if (error instanceof SigningError) return false;
    throw error;
  }
  return signatureMatches(secret, message, presented);
}

export interface ParsedAuthorization {
  clientKey: string;
  signature: string;
}

/** §5.2: `HMAC {client_key}:{hmac_signature}`. The scheme word is matched exactly. */
export function parseAuthorizationHeader(header: string | undefined): ParsedAuthorization {
  if (header === undefined || header === '') {
    throw new SigningError('ERR_AUTHORIZATION_MALFORMED', 'Authorization header is missing');
  }
  const match = /^HMAC ([^:\s]+):([^:\s]+)$/.exec(header);
  if (!match) {
    throw new SigningError('ERR_AUTHORIZATION_MALFORMED', 'Authorization header is not "HMAC {client_key}:{signature}"');
  }
  return { clientKey: match[1]!, signature: match[2]! };
}
