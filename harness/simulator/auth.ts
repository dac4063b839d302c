// §5 checks: Authorization header, client lookup, signature over the raw body, source IP
// (§5.4) and the sandbox Numbers whitelist (§5.3). Fault switches bend exactly one rule each.
import {
  SUITE_PROFILE, findAlternative, profileOf, pairsOfMembers, joinPairs, hmacHex, signatureMatches,
  parseAuthorizationHeader, diagnoseSignature, describeDiagnosis,
  type CanonicalProfile, type ParsedAuthorization, type RawMember,
} from '../signing/index.ts';
import { normaliseAddress, type SimulatorClient, type SimulatorConfig } from './config.ts';
import type { FaultSet } from './faults.ts';
import { Rejection } from './rejections.ts';

export function checkSource(remoteAddress: string | undefined, allowed: ReadonlySet<string>, faults: FaultSet): string {
  const source = normaliseAddress(remoteAddress);
  if (!faults.has('ip-whitelist-off') && !allowed.has(source)) {
    throw new Rejection('IP_NOT_WHITELISTED', `source address ${source} is not whitelisted`);
  }
  return source;
}

export function readAuthorization(header: string | string[] | undefined): ParsedAuthorization {
  if (header === undefined || header === '') {
    throw new Rejection('MISSING_AUTHORIZATION', 'the Authorization header is required: "HMAC {client_key}:{signature}"');
  }
  if (Array.isArray(header)) throw new Rejection('MALFORMED_AUTHORIZATION', 'the Authorization header is sent more than once');
  try {
    return parseAuthorizationHeader(header);
  } catch (error) {
    throw new Rejection('MALFORMED_AUTHORIZATION', (error as Error).message);
  }
}

/** The client named by client_key (or, with `client-key-ignored`, by the body's client_id). */
export function findClient(
  clients: readonly SimulatorClient[], auth: ParsedAuthorization, members: readonly RawMember[], faults: FaultSet,
): SimulatorClient {
  if (faults.has('client-key-ignored')) {
    const raw = members.find((m) => m.key === 'client_id')?.value;
    const id = raw?.kind === 'number' ? Number(raw.raw) : raw?.kind === 'string' ? Number(raw.value) : NaN;
    const byId = clients.find((c) => c.clientId === id);
    if (byId) return byId;
  }
  // Not secret-dependent timing worth hiding: client keys identify, they do not authenticate.
  const client = clients.find((c) => c.clientKey === auth.clientKey);
  if (!client) throw new Rejection('UNKNOWN_CLIENT_KEY', 'no client has the client_key of the Authorization header');
  return client;
}

const BODY_ORDER = profileOf(findAlternative('body-order')!);
const URL_ENCODED = profileOf(findAlternative('url-encoded-values')!);

/** §5.1/§5.2: recompute the signature over the raw body's members and compare in constant time. */
export function checkSignature(rawBody: string, members: readonly RawMember[], secret: string, presented: string, faults: FaultSet): void {
  if (faults.has('no-signature-check')) return;
  let profile: CanonicalProfile = SUITE_PROFILE;
  if (faults.has('unsorted-signature')) profile = BODY_ORDER;
  if (faults.has('encoded-signature')) profile = URL_ENCODED;
  const message = joinPairs(pairsOfMembers(members, profile));
  let ok: boolean;
  if (faults.has('prefix-signature-compare')) {
    ok = presented.length > 0 && hmacHex(secret, message).startsWith(presented);
  } else if (faults.has('case-insensitive-signature')) {
    ok = signatureMatches(secret, message, presented.toLowerCase());
  } else {
    ok = signatureMatches(secret, message, presented);
  }
  if (!ok && faults.has('partial-signature')) {
    // The bug: a fallback to a "legacy" field list without callback_url, so correct clients
    // still pass and a changed callback_url passes too.
    const legacy = joinPairs(pairsOfMembers(members.filter((m) => m.key !== 'callback_url'), profile));
    ok = signatureMatches(secret, legacy, presented);
  }
  if (ok) return;
  // Say why: a sandbox that only says "invalid signature" costs integrators days.
  const why = describeDiagnosis(diagnoseSignature(rawBody, secret, presented));
  throw new Rejection('INVALID_SIGNATURE', `the signature does not match the body: ${why}`);
}

export function checkCustomerNumber(config: SimulatorConfig, allowed: ReadonlySet<string>, customerNumber: string, faults: FaultSet): void {
  if (config.mode !== 'sandbox' || faults.has('sandbox-numbers-off')) return;
  if (faults.has('numbers-as-integers')) {
    const asInteger = String(Number(customerNumber));
    if (config.whitelist.customerNumbers.some((n) => String(Number(n)) === asInteger)) return;
  } else if (allowed.has(customerNumber)) {
    return;
  }
  throw new Rejection('NUMBER_NOT_WHITELISTED', `sandbox mode: customer_number ${customerNumber} is not in the Numbers whitelist`);
}
