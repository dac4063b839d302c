// service.auth: signature verification, the Authorization header and the source-IP whitelist
// (§5.1, §5.2, §5.4, §7). Every request is correctly signed except for the one thing the case
// spoils, and its callback URL routes to the case, so a request wrongly acted on is seen.
import {
  COLLECT_FIELD_NAMES, REVERSED_ORDER, membersOf, ownAddressTowards, type BodyMembers, type CollectFieldName, type Tamper,
} from '../../client/index.ts';
import type { Level } from '../../results/index.ts';
import { expectAccepted, expectRejected, serviceCase, type ServiceCase } from './define.ts';
import type { CaseOutcome } from '../model.ts';
import { CaseError } from '../model.ts';
import { describeAnswer, failureOf, type ServiceSession } from './session.ts';

/**
 * Said by each signature case whose request, signed over something other than its body, was
 * processed: several of them are one cause (harness/diagnoses names it once).
 */
export const SIGNATURE_NOT_MATCHING = 'a request whose signature does not match its body was processed (§5.2)';

/** A FAIL of a signature case that shows the mismatched request processed (only such a FAIL states `processed`) says so, in the same words each time. */
function notMatchingProcessed(outcome: CaseOutcome): CaseOutcome {
  return outcome.causes?.includes('processed')
    ? { ...outcome, reason: `${outcome.reason}; ${SIGNATURE_NOT_MATCHING}`, causes: [...outcome.causes, 'signatures-not-verified'] }
    : outcome;
}

interface RejectionOptions {
  /** Appended to the reason of a FAIL: the rule the accepted request broke. */
  why?: string;
  /** The tamper leaves a signature that does not match the body sent (not: no header, a wrong key, a letter case). */
  mismatch?: boolean;
  /** Members signed after the six fields, so the tamper can drop one the service accepts. */
  extra?: BodyMembers;
  /** Default MUST; SHOULD where the rule is the suite's position, not a sentence of the spec. */
  level?: Level;
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.');
}

/**
 * A correctly signed request from the non-whitelisted source carrying `address` in the headers
 * through which a proxy passes the client's address (RFC 7239 quotes an IPv6 one).
 */
async function sendClaiming(s: ServiceSession, address: string) {
  const fields = s.fields();
  const what = `the same request from the non-whitelisted source claiming ${address} in X-Forwarded-For, X-Real-IP and Forwarded`;
  const headers = { 'x-forwarded-for': address, 'x-real-ip': address, forwarded: `for=${address.includes(':') ? `"[${address}]"` : address}` };
  return { tag: fields.tag, what, answer: await s.send({ fields }, { source: 'notWhitelisted', label: what, headers }) };
}

function rejectionCase(
  leaf: string, title: string, specRef: string, tamper: (s: ServiceSession, tag: string) => Tamper, what: string,
  options: RejectionOptions = {},
): ServiceCase {
  return serviceCase({
    id: `service.auth.${leaf}`, title, specRef, level: options.level ?? 'MUST', needs: [], negative: 'refusal',
    async check(s) {
      const fields = s.fields();
      const members = options.extra ? { members: [...membersOf(fields), ...options.extra] } : {};
      const answer = await s.sendAnswered({ fields, ...members, tamper: tamper(s, fields.tag) }, { label: what });
      const judged = await expectRejected(s, answer, fields.tag, what, { obligation: options.level === 'SHOULD' ? 'should' : 'must' });
      const outcome = options.mismatch ? notMatchingProcessed(judged) : judged;
      return outcome.verdict === 'FAIL' && options.why ? { ...outcome, reason: `${outcome.reason ?? ''}. ${options.why}` } : outcome;
    },
  });
}

/** Another value for each field, chosen so that only the signature can tell them apart. */
function changedValue(s: ServiceSession, field: CollectFieldName, tag: string): unknown {
  const t = s.target;
  switch (field) {
    case 'amount':
      return '100.00';
    case 'callback_url':
      // Still routed to the case, so a callback that follows the changed URL is seen.
      return s.callbackUrl(tag, { query: 'changed=after-signing' });
    case 'client_id':
      return t.clientId + 1;
    case 'customer_number': {
      // Another number the service accepts, so a sandbox rejection cannot pass for a signature check.
      const own = s.successNumber();
      const others = [...t.customerNumbers.whitelisted, ...(t.customerNumbers.failing ?? [])].filter((n) => n !== own);
      if (others[0] !== undefined) return others[0];
      s.note('only one accepted customer number is known: the changed number may also be refused by the sandbox whitelist');
      return own.slice(0, -1) + (own.endsWith('9') ? '8' : '9');
    }
    case 'network_code':
      return t.networkCode === 'MTN' ? 'VOD' : 'MTN';
    case 'transaction_id':
      return s.ctx.newTransactionId();
  }
}

const CHANGED: ServiceCase[] = COLLECT_FIELD_NAMES.map((field) =>
  rejectionCase(
    `changed-${field}`,
    `a body with ${field} changed after signing is rejected`,
    '§5.2, §7',
    (s, tag) => ({ kind: 'change-field', field, value: changedValue(s, field, tag) }),
    `a request whose ${field} was changed after signing`,
    { mismatch: true },
  ));

export const AUTH_CASES: readonly ServiceCase[] = [
  serviceCase({
    id: 'service.auth.valid-accepted',
    title: 'a correctly signed request is accepted',
    specRef: '§5.1, §5.2',
    level: 'MUST',
    needs: [],
    async check(s) {
      const answer = await s.sendAnswered({ fields: s.fields() }, { label: 'correctly signed' });
      return expectAccepted(s, answer, 'a correctly signed request', 'likely causes: the credentials, the source address or the customer number of the target file');
    },
  }),
  rejectionCase('missing-header', 'a request without Authorization header is rejected', '§5.2',
    () => ({ kind: 'missing-header' }), 'a request without an Authorization header'),
  rejectionCase('wrong-client-key', 'a signature under a wrong client_key is rejected', '§5.2',
    () => ({ kind: 'wrong-client-key' }), 'a request naming a client_key that is not the account\'s'),
  ...CHANGED,
  // The dropped field is an optional extra one (§2.1 shows six fields; more are allowed): were
  // it one of the six, a service that never checks signatures would still refuse the body for
  // the missing field, and the case could not fail.
  rejectionCase('dropped-field', 'a body with a signed field left out is rejected', '§5.1 step 1, §5.2',
    () => ({ kind: 'drop-field', field: 'description' }), 'a request whose description field was signed but not sent',
    { extra: [['description', 'conformance']], why: '§5.1 step 1 signs every field of the body, so the signed message names a field the body lacks', mismatch: true }),
  rejectionCase('added-field', 'a body with a field added after signing is rejected', '§5.1 step 1, §5.2',
    () => ({ kind: 'add-field', field: 'description', value: 'added after signing' }), 'a request with a field added after signing', { mismatch: true }),
  serviceCase({
    id: 'service.auth.unsigned-callback_url',
    title: 'a callback_url added after signing the other fields is rejected',
    specRef: '§5.1 step 1, §5.2',
    level: 'MUST',
    needs: [],
    negative: 'refusal',
    async check(s) {
      // A verifier that falls back to a field list without callback_url lets anyone who saw one
      // signed request redirect its callback: sign the five other fields, then add the URL.
      const { tag, ...fields } = s.fields();
      const members = membersOf(fields).filter(([key]) => key !== 'callback_url');
      const what = 'a request whose callback_url is not covered by the signature';
      const answer = await s.sendAnswered(
        { fields, members, tamper: { kind: 'add-field', field: 'callback_url', value: fields.callback_url } },
        { label: what },
      );
      return notMatchingProcessed(await expectRejected(s, answer, tag, what));
    },
  }),
  rejectionCase('wrong-secret', 'a signature made with a wrong secret is rejected', '§5.1 step 4, §7',
    () => ({ kind: 'wrong-secret' }), 'a request signed with a wrong secret', { mismatch: true }),
  rejectionCase('uppercase-signature', 'an upper-case hex signature is rejected', '§5.1 step 5',
    () => ({ kind: 'uppercase-signature' }), 'a request with its signature in upper-case hex',
    // SHOULD: §5.1 step 5 says "hex-encode" without a letter case; exact comparison of
    // lower-case hex is the suite's position (DESIGN.md tamper vectors).
    { level: 'SHOULD', why: 'the suite\'s position (§5.1 step 5 names no letter case): the signature is lower-case hex, compared exactly, not case-folded' }),
  rejectionCase('truncated-signature', 'a signature one hex digit short is rejected', '§5.2, §7',
    () => ({ kind: 'truncated-signature' }), 'a request with a truncated signature', { mismatch: true }),
  serviceCase({
    id: 'service.auth.ip-not-whitelisted',
    title: 'a valid request from a non-whitelisted source is rejected, also claiming a whitelisted address in X-Forwarded-For',
    specRef: '§5.4, §7',
    level: 'MUST',
    needs: ['notWhitelistedSource'],
    negative: 'refusal',
    async check(s) {
      const fields = s.fields();
      const what = 'a correctly signed request from a non-whitelisted source';
      const answer = await s.send({ fields }, { source: 'notWhitelisted', label: what });
      if (answer.judgement === 'no-answer' && !answer.routeError) {
        // Silence is a rejection at the network only if the service does answer the whitelisted
        // source: the same request (its own id and tag) sent from there is the control.
        const control = await s.send({ fields: s.fields() }, { label: 'control: the same request from the whitelisted source' });
        if (control.judgement === 'no-answer') {
          throw new CaseError(
            `${what} got no HTTP answer (${failureOf(answer)}), and the same request from the whitelisted source got none either `
            + `(${failureOf(control)}): the service answered neither, so the silence says nothing about its whitelist`,
            s.evidence(),
          );
        }
        s.note(`control: the same request from the whitelisted source was answered ${describeAnswer(control)}`);
      }
      // The same source claiming the whitelisted address in the headers a proxy would set: the
      // client writes them, so §5.4's source address is never one of them. Both are watched for
      // a callback at once, so the case takes no longer.
      // The claimed address is this machine's own towards the service: the whitelisted one
      // (127.0.0.1 or ::1 on loopback) unless a NAT between them shows the service another.
      const claimed = await ownAddressTowards(s.target.baseUrl);
      if (claimed === undefined) s.note('not repeated with X-Forwarded-For: this machine\'s own address towards the service could not be learned');
      else if (!isLoopback(claimed)) s.note(`the claimed address ${claimed} is this machine's own towards the service; if a NAT lies between them, the service whitelists another and a service trusting X-Forwarded-For refuses this claim too`);
      const forged = claimed === undefined ? undefined : await sendClaiming(s, claimed);
      const [plain, claiming] = await Promise.all([
        expectRejected(s, answer, fields.tag, what, { noAnswerRejects: true }),
        forged && expectRejected(s, forged.answer, forged.tag, forged.what, { noAnswerRejects: true }),
      ]);
      // An accepted request is a FAIL (expectRejected); a refused one is judged by its callback.
      if (answer.judgement === 'accepted') {
        return { ...plain, reason: `${plain.reason ?? ''}. The harness wrote no forwarding header into it, so the service likely checks no source address at all` };
      }
      if (plain.verdict !== 'PASS' || claiming === undefined) return plain;
      if (claiming.verdict === 'FAIL') {
        return { ...claiming, reason: `${claiming.reason ?? ''}. Without those headers it was rejected: the service likely takes the client's address from a header the client writes (§5.4 whitelists the source address)` };
      }
      // Both refused and neither acted on: each judgement noted what held.
      return s.pass();
    },
  }),
  serviceCase({
    id: 'service.auth.unsorted-body-accepted',
    title: 'a signed body with keys in descending order is accepted',
    specRef: '§5.1 step 2',
    level: 'MUST',
    needs: [],
    async check(s) {
      const answer = await s.sendAnswered({ fields: s.fields(), order: REVERSED_ORDER }, { label: 'keys in descending order' });
      return expectAccepted(s, answer, 'a correctly signed body with keys in descending order',
        'the signature is over the sorted pairs (§5.1 step 2); a verifier that signs in body order refuses it');
    },
  }),
  serviceCase({
    id: 'service.auth.literal-url-accepted',
    title: 'a signed callback_url full of ?, & and = is accepted',
    specRef: '§5.1 step 3',
    level: 'MUST',
    needs: [],
    async check(s) {
      const fields = s.fields({ query: 'next=/done?x=1&ref=a=b&sum=1+2&pct=50%25' });
      const answer = await s.sendAnswered({ fields }, { label: 'literal callback_url' });
      return expectAccepted(s, answer, 'a correctly signed body whose callback_url has ?, &, = and % in its query',
        'the signature is over the literal URL (§5.1 step 3: values are not URL-encoded); a verifier that encodes values refuses it');
    },
  }),
];
