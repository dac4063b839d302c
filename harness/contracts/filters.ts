// Request filters of provider verification. The verifier's proxy hands the filter the request
// with its JSON body already parsed and forwards `JSON.stringify(req.body)`; a filter that
// changes a signed request must sign exactly those bytes and set content-length to match.
import { randomBytes } from 'node:crypto';
import { signBody } from '../signing/index.ts';
import { EXAMPLE_CREDENTIALS, EXAMPLE_VALUES, PACT_CALLBACK_PATH } from './examples.ts';
import type { ReceiverVerifyOptions, ServiceVerifyOptions } from './options.ts';

/** The part of an express request a filter touches (express types are not a dependency). */
export interface FilterRequest {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}
export type RequestFilter = (req: FilterRequest, res: unknown, next: (error?: unknown) => void) => void;

/** Path of the verifier's own state-change requests, which no filter may alter. */
export const STATE_SETUP_PATH = '/_pactSetup';

/** Mutable per-verification flags that provider states set and the service filter reads. */
export interface ServiceRunFlags {
  /** "the signature does not match the body": sign with a secret the provider does not hold. */
  signWithWrongSecret: boolean;
}

/**
 * Re-signs every collect/status request with the provider's own client: the pact pins the shape
 * and the scheme (§5.2), the golden vectors pin exact signatures. client_id becomes the
 * provider's client and, when configured, the example customer numbers the provider's own.
 */
export function serviceRequestFilter(options: ServiceVerifyOptions, flags: ServiceRunFlags): RequestFilter {
  const wrongSecret = randomBytes(24).toString('hex');
  const numbers = new Map<string, string>();
  if (options.customerNumbers?.whitelisted) numbers.set(EXAMPLE_VALUES.whitelistedNumber, options.customerNumbers.whitelisted);
  if (options.customerNumbers?.notWhitelisted) numbers.set(EXAMPLE_VALUES.notWhitelistedNumber, options.customerNumbers.notWhitelisted);
  return (req, _res, next) => {
    if (req.path === STATE_SETUP_PATH || req.method !== 'POST' || !isJsonObject(req.body)) return next();
    const body = req.body;
    if ('client_id' in body) body['client_id'] = options.credentials.clientId;
    const number = body['customer_number'];
    if (typeof number === 'string' && numbers.has(number)) body['customer_number'] = numbers.get(number)!;
    const raw = JSON.stringify(body);
    const secret = flags.signWithWrongSecret ? wrongSecret : options.credentials.secretKey;
    req.headers['authorization'] = signBody(raw, secret, { clientKey: options.credentials.clientKey }).authorization!;
    req.headers['content-length'] = String(Buffer.byteLength(raw, 'utf8'));
    next();
  };
}

/**
 * Puts the receiver's configured token where the pact has its placeholder (a wrong token in the
 * pact stays wrong), and moves the pact's `/callback` to the receiver's callback path.
 */
export function receiverRequestFilter(options: ReceiverVerifyOptions): RequestFilter {
  const callbackPath = options.callbackPath ?? PACT_CALLBACK_PATH;
  return (req, _res, next) => {
    if (req.path === STATE_SETUP_PATH) return next();
    if (req.headers['x-callback-token'] === EXAMPLE_CREDENTIALS.callbackToken) {
      req.headers['x-callback-token'] = options.callbackToken;
    }
    if (callbackPath !== PACT_CALLBACK_PATH && (req.url === PACT_CALLBACK_PATH || req.url.startsWith(`${PACT_CALLBACK_PATH}?`))) {
      req.url = callbackPath + req.url.slice(PACT_CALLBACK_PATH.length);
    }
    next();
  };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}
