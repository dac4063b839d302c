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
