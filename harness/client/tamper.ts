// The ways a request can be spoiled after (or while) signing, each one a rule of §5.2/§5.1
// that a verifier must enforce. Data, so a case names its tamper and evidence shows it.
import type { BodyMembers } from './body.ts';

export type Tamper =
  /** The body sent carries another value for `field` than the body signed. */
  | { kind: 'change-field'; field: string; value: unknown }
  /** `field` is signed but left out of the body sent. */
  | { kind: 'drop-field'; field: string }
  /** `field` is added to the body sent after signing. */
  | { kind: 'add-field'; field: string; value: unknown }
  /** Signed with a secret that is not the account's. */
  | { kind: 'wrong-secret' }
  /** The header names a client key that is not the account's (signature itself correct). */
  | { kind: 'wrong-client-key' }
  /** The correct signature in upper-case hex (§5.1 step 5 gives hex; the suite expects lower). */
  | { kind: 'uppercase-signature' }
  /** The correct signature cut to its first `length` hex digits (default 63, one short). */
  | { kind: 'truncated-signature'; length?: number }
  /** No Authorization header at all. */
  | { kind: 'missing-header' };

export function describeTamper(tamper: Tamper | undefined): string {
  if (!tamper) return 'none';
  switch (tamper.kind) {
    case 'change-field': return `${tamper.field} changed to ${JSON.stringify(tamper.value)} after signing`;
    case 'drop-field': return `${tamper.field} dropped after signing`;
    case 'add-field': return `${tamper.field} added after signing`;
    case 'wrong-secret': return 'signed with a wrong secret';
    case 'wrong-client-key': return 'header names a wrong client key';
    case 'uppercase-signature': return 'signature in upper-case hex';
    case 'truncated-signature': return `signature truncated to ${tamper.length ?? 63} hex digits`;
    case 'missing-header': return 'no Authorization header';
  }
}

/** The body sent for a tamper that changes the body after signing; other tampers send it as signed. */
export function tamperMembers(members: BodyMembers, tamper: Tamper | undefined): BodyMembers {
  if (!tamper) return members;
  switch (tamper.kind) {
    case 'change-field': {
      if (!members.some(([k]) => k === tamper.field)) {
        throw Object.assign(new Error(`change-field: the body has no field "${tamper.field}"`), { code: 'ERR_TAMPER_FIELD' });
      }
      return members.map(([k, v]) => [k, k === tamper.field ? tamper.value : v]);
    }
    case 'drop-field':
      return members.filter(([k]) => k !== tamper.field);
    case 'add-field':
      return [...members, [tamper.field, tamper.value]];
    default:
      return members;
  }
}

/** A secret that differs from `secret` in its last character: close, but not it. */
export function wrongSecretFor(secret: string): string {
  const last = secret.at(-1) ?? 'x';
  return secret.slice(0, -1) + (last === 'x' ? 'y' : 'x');
}
