// Building one collect request: body → signature over the exact bytes → header, then the
// tamper (if any) applied to what is sent.
import { signBody, authorizationHeader } from '../signing/index.ts';
import { membersOf, writeBody, type CollectFields, type CollectFieldName, type BodyMembers } from './body.ts';
import { tamperMembers, wrongSecretFor, describeTamper, type Tamper } from './tamper.ts';

export interface CollectCredentials {
  clientKey: string;
  secretKey: string;
}

export interface CollectInput {
  fields: CollectFields;
  /** Key order of the body (default: UNSORTED_ORDER). */
  order?: readonly CollectFieldName[];
  /** Members written instead of `fields`/`order` (for bodies the six fields cannot express). */
  members?: BodyMembers;
  tamper?: Tamper;
}

export interface PreparedCollect {
  /** The raw JSON text that was signed. */
  signedBody: string;
  /** The raw JSON text that is sent (equal to signedBody unless the tamper changes the body). */
  sentBody: string;
  /** §5.1 message of the signed body. */
  message: string;
  /** The signature the header presents (after any tamper of the signature). */
  presentedSignature: string;
  /** The Authorization header sent, or undefined when the tamper removes it. */
  authorization: string | undefined;
  tamper: string;
}

/** A client key nobody has: fixed, so the evidence is reproducible. */
export const WRONG_CLIENT_KEY = 'conformance-wrong-client-key';

export function prepareCollect(input: CollectInput, credentials: CollectCredentials): PreparedCollect {
  const members = input.members ?? membersOf(input.fields, input.order);
  const signedBody = writeBody(members);
  const sentBody = writeBody(tamperMembers(members, input.tamper));
  const tamper = input.tamper;
  const secret = tamper?.kind === 'wrong-secret' ? wrongSecretFor(credentials.secretKey) : credentials.secretKey;
  // The signature is computed over the exact bytes signed, by the canonical signer.
  const stages = signBody(signedBody, secret);
  let presented = stages.signature;
  if (tamper?.kind === 'uppercase-signature') presented = presented.toUpperCase();
  if (tamper?.kind === 'truncated-signature') presented = presented.slice(0, tamper.length ?? presented.length - 1);
  const clientKey = tamper?.kind === 'wrong-client-key' ? WRONG_CLIENT_KEY : credentials.clientKey;
  return {
    signedBody,
    sentBody,
    message: stages.message,
    presentedSignature: presented,
    authorization: tamper?.kind === 'missing-header' ? undefined : authorizationHeader(clientKey, presented),
    tamper: describeTamper(tamper),
  };
}
