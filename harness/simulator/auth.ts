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

export function checkSource(remoteAddress: string | undefined, allowed: ReadonlySet<string>, faults: FaultSet, forwardedFor?: string | string[]): string {
  // Fault `trusts-forwarded-for`: the client's own X-Forwarded-For (its first entry) stands for
  // the source address, as behind a proxy that is assumed but not there.
  const claimed = faults.has('trusts-forwarded-for') ? [forwardedFor ?? []].flat().join(',').split(',')[0]?.trim() : undefined;
  const source = normaliseAddress(claimed || remoteAddress);
  if (!faults.has('ip-whitelist-off') && !allowed.has(source)) {
    throw new Rejection('IP_NOT_WHITELISTED', `source address ${source} is not whitelisted`);
  }
  return source;
}

/** The parsed header; undefined only with `authorization-optional` and no header at all. */
export function readAuthorization(given: string | string[] | undefined, faults: FaultSet): ParsedAuthorization | undefined {
  const header = Array.isArray(given) && given.length === 1 ? given[0] : given;
  if (header === undefined || header === '') {
    // The "verify if present" bug: the check hangs on the header instead of requiring it.
    if (faults.has('authorization-optional')) return undefined;
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
  clients: readonly SimulatorClient[], auth: ParsedAuthorization | undefined, members: readonly RawMember[], faults: FaultSet,
): SimulatorClient {
  if (faults.has('client-key-ignored') || auth === undefined) {
    const byId = clientOfBody(clients, members);
    if (byId) return byId;
  }
  if (auth === undefined) {
    throw new Rejection('MISSING_AUTHORIZATION', 'the Authorization header is required when the body names no known client_id');
  }
  // Not secret-dependent timing worth hiding: client keys identify, they do not authenticate.
  const client = clients.find((c) => c.clientKey === auth.clientKey);
  if (!client) throw new Rejection('UNKNOWN_CLIENT_KEY', 'no client has the client_key of the Authorization header');
  return client;
}

/** Fault `status-unsigned`: the client the body's client_id names, no header looked at. */
export function clientNamedByBody(clients: readonly SimulatorClient[], members: readonly RawMember[]): SimulatorClient {
  const client = clientOfBody(clients, members);
  if (!client) throw new Rejection('CLIENT_ID_MISMATCH', 'client_id names no client');
  return client;
}

function clientOfBody(clients: readonly SimulatorClient[], members: readonly RawMember[]): SimulatorClient | undefined {
  const raw = members.find((m) => m.key === 'client_id')?.value;
  const id = raw?.kind === 'number' ? Number(raw.raw) : raw?.kind === 'string' ? Number(raw.value) : NaN;
  return clients.find((c) => c.clientId === id);
}

/**
 * `client-id-unsigned`: "the key already names the client", so the body's client_id is
 * overwritten with the key's before anything reads it. Correct requests still verify (their
 * client_id is the key's); a client_id changed after signing is replaced, so it verifies too,
 * and no CLIENT_ID_MISMATCH can arise. The body's client_id is, in effect, not signed.
 */
export function withKeyClientId(members: RawMember[], client: SimulatorClient, faults: FaultSet): RawMember[] {
  if (!faults.has('client-id-unsigned')) return members;
  const raw = String(client.clientId);
  return members.map((m) => (m.key === 'client_id' ? { key: m.key, value: { kind: 'number', raw } } : m));
}

const BODY_ORDER = profileOf(findAlternative('body-order')!);
const URL_ENCODED = profileOf(findAlternative('url-encoded-values')!);

/** §5.1/§5.2: recompute the signature over the raw body's members and compare in constant time. */
export function checkSignature(
  rawBody: string, members: readonly RawMember[], secret: string, auth: ParsedAuthorization | undefined, faults: FaultSet,
): void {
  if (faults.has('no-signature-check') || auth === undefined) return;
  const presented = auth.signature;
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
