// client.collect: the collect request an SDK puts on the wire (§2.1, §4.1, §5). The SDK is
// judged on what it did with what it was given: a string stays a string, and whatever it
// sends, its signature is the one over the bytes sent. A number the caller passes may arrive
// as that language prints it; an SDK may also refuse it (SKIP, not exercised). Each rule is
// judged on what it needs (body.ts): the method, the path and the headers on any body; the
// keys sent and their text on a form too; JSON types and the signature on a JSON body only.
import { encodingsOf } from '../../secrets/index.ts';
import type { RawMember } from '../../signing/index.ts';
import type { ReceivedRequest } from '../../sdk/index.ts';
import type { CaseOutcome } from '../model.ts';
import { BODY_NOT_JSON, notJsonBecause, readSentBody } from './body.ts';
import { bodyText, evidenceOf, firstRequest, header, isOutcome, reported, signatureProblem, SIX_FIELDS, type SdkCall } from './call.ts';
import { clientCase, fail, pass, type CallShape, type ClientCase } from './define.ts';

const COLLECT_PATH = '/api/v1.0/collect/';
const AUTHORIZATION = /^HMAC ([^:\s]+):([^:\s]+)$/;
const HEX = /^[0-9a-fA-F]+$/;

function member(members: readonly RawMember[], key: string): RawMember | undefined {
  return members.find((m) => m.key === key);
}

/** The fields of §2.1 a body does not carry under their names (an SDK's own names for them, often). */
export function missingFields(members: readonly RawMember[]): string[] {
  return SIX_FIELDS.filter((name) => !members.some((m) => m.key === name));
}

/** A FAIL for a field the body lacks: one cause with every other such FAIL (the preflight names it once, with the keys sent). */
function absent(o: SdkCall, text: string): CaseOutcome {
  return fail(o, { text, causes: ['fields-missing'] });
}

interface RequestOptions {
  /** The SDK may refuse the call before sending (a number amount): no request is SKIP, not FAIL. */
  mayRefuse?: boolean;
}

/** Checks the first request that arrived with `judge`; a missing request FAILs (or SKIPs when the SDK may refuse the call). */
function onRequest(judge: (o: SdkCall, request: ReceivedRequest) => CaseOutcome, options: RequestOptions = {}) {
  return (o: SdkCall): CaseOutcome => {
    const request = firstRequest(o, options.mayRefuse === true);
    if (isOutcome(request)) return request;
    const outcome = judge(o, request);
    const retried = o.requests.length > 1 ? [`${o.requests.length} requests arrived during the call; the first is judged`] : [];
    return retried.length > 0 && outcome.evidence ? { ...outcome, evidence: { ...outcome.evidence, notes: [...(outcome.evidence.notes ?? []), ...retried] } } : outcome;
  };
}

/**
 * Checks the body's members with `judge`. `pairs`: the rule reads keys and the text of values,
 * which a form body tells as well (its values as JSON strings); `json`: it reads JSON types, so a
 * body that is not JSON FAILs it in the shared words BODY_NOT_JSON.
 */
function onBody(need: 'pairs' | 'json', judge: (o: SdkCall, members: RawMember[]) => CaseOutcome, options: RequestOptions = {}) {
  return onRequest((o, request) => {
    const body = readSentBody(request);
    if (body.kind === 'json' || (body.kind === 'form' && need === 'pairs')) return judge(o, body.members);
    return fail(o, { text: `${BODY_NOT_JSON}: ${notJsonBecause(body)}; this rule reads the JSON body of §4.1`, causes: ['body-not-json'] });
  }, options);
}

/** The signature over the bytes sent, as the check of a case that passes fields of its own. */
function signedAsSent(what: string, options: RequestOptions = {}) {
  return onBody('pairs', (o, members) => {
    const problem = signatureProblem(o, o.requests[0]!);
    if (problem) return fail(o, { ...problem, text: `${what}: ${problem.text}` });
    return pass(o, [`${what}: sent ${members.map((m) => `${m.key}=${m.value.raw}`).join(', ')}; the signature is the one over the bytes sent`]);
  }, options);
}

/** A number passed by the caller as `raw` (JSON text) in the amount field. */
function numberCase(leaf: string, raw: string, title: string): ClientCase {
  const call: CallShape = { fields: () => ({ amount: raw }) };
  return clientCase({
    id: `client.collect.${leaf}`, title, specRef: '§5.1 step 3, §5.2', level: 'MUST', call,
    check: signedAsSent(`the caller passed the amount as the JSON number ${raw}`, { mayRefuse: true }),
  });
}

export const CALLBACK_URL_SUFFIX = '?order=17&ref=a%2Fb&note=caf\u00e9=cr\u00e8me#part-2';

export const COLLECT_CASES: readonly ClientCase[] = [
  clientCase({
    id: 'client.collect.method-path', title: 'the collect call is a POST to /api/v1.0/collect/', specRef: '§4.1', level: 'MUST',
    check: onRequest((o, r) => {
      const path = r.target.split('?')[0];
      if (r.method !== 'POST' || path !== COLLECT_PATH) {
        return fail(o, `the SDK sent ${r.method} ${JSON.stringify(r.target)}; the collect operation is POST ${COLLECT_PATH} under the base URL`);
      }
      return pass(o);
    }),
  }),
  clientCase({
    id: 'client.collect.content-type', title: 'the request carries Content-Type: application/json', specRef: '§4, §4.1', level: 'MUST',
    check: onRequest((o, r) => {
      const values = header(r, 'content-type');
      const media = values.map((v) => v.split(';')[0]!.trim().toLowerCase());
      if (values.length !== 1 || media[0] !== 'application/json') {
        // The type sent, quoted; and when the body is not JSON either, the words of the cause they share.
        const body = readSentBody(r);
        const also = body.kind === 'json' ? '' : `, and ${BODY_NOT_JSON} either: ${notJsonBecause(body)}`;
        return fail(o, { text: `Content-Type was ${values.length === 0 ? 'not sent' : values.map((v) => JSON.stringify(v)).join(' and ')}; a JSON body is sent as application/json${also}`, causes: also === '' ? [] : ['body-not-json'] });
      }
      return pass(o);
    }),
  }),
  clientCase({
    id: 'client.collect.authorization', title: 'Authorization is HMAC {client_key}:{hex signature}', specRef: '§5.2', level: 'MUST',
    check: onRequest((o, r) => {
      const values = header(r, 'authorization');
      // No header, or one no signature can be read from: the cause of every signature FAIL too (the preflight names it).
      const unreadable = (text: string) => fail(o, { text, causes: ['authorization-unreadable'] });
      if (values.length === 0) return unreadable('the request carried no Authorization header; §5.2 requires one');
      if (values.length > 1) return fail(o, `the request carried ${values.length} Authorization headers; §5.2 requires one`);
      const match = AUTHORIZATION.exec(values[0]!);
      if (!match) return unreadable(`the Authorization header ${JSON.stringify(values[0])} is not "HMAC {client_key}:{signature}"`);
      if (match[1] !== o.ctx.target.clientKey) return fail(o, 'the Authorization header does not carry the client key the SDK was given');
      if (!/^[0-9a-fA-F]{64}$/.test(match[2]!)) return fail(o, `the signature ${JSON.stringify(match[2])} is not 64 hex digits (hex of HMAC-SHA256, §5.1 step 5)`);
      return pass(o);
    }),
  }),
  clientCase({
    // §5.1 step 5 says hex-encode, with no letter case: lower case is the suite's position (as
    // service.auth.uppercase-signature on the service side), so this is a SHOULD.
    id: 'client.collect.signature-lowercase', title: 'the signature is written in lower-case hex', specRef: '§5.1 step 5', level: 'SHOULD',
    check: onRequest((o, r) => {
      const signature = AUTHORIZATION.exec(header(r, 'authorization')[0] ?? '')?.[2];
      const skip = (why: string): CaseOutcome => ({ verdict: 'SKIP', reason: `not exercised: ${why} (client.collect.authorization judges it)`, evidence: evidenceOf(o) });
      if (signature === undefined) return skip('the request carried no well-formed Authorization header');
      // Letter case is a question of hex only: base64 has upper-case letters of its own.
      if (!HEX.test(signature)) return skip(`the signature ${JSON.stringify(signature)} is not hex`);
      if (/[A-F]/.test(signature)) {
        return fail(o, `the signature ${JSON.stringify(signature)} is written in upper-case hex; hex is written in lower case (a service comparing the text refuses it)`);
      }
      return pass(o);
    }),
  }),
  clientCase({
    id: 'client.collect.signature', title: 'the signature is the HMAC over the bytes sent', specRef: '§5.1, §5.2', level: 'MUST',
    check: signedAsSent('a plain call (string amount, six fields)'),
  }),
  clientCase({
    id: 'client.collect.secret-not-sent', title: 'the secret key is never sent', specRef: '§2.2, §5.5', level: 'MUST',
    check: onRequest((o, r) => {
      const wire = [r.target, ...Object.entries(r.headers).flatMap(([k, v]) => v.map((x) => `${k}: ${x}`)), bodyText(r)].join('\n');
      const found = encodingsOf(o.ctx.target.secretKey).some((form) => wire.includes(form));
      return found ? fail(o, 'the secret key (or an encoding of it) was sent in the request; it computes the signature and is never sent (§2.2)') : pass(o);
    }),
  }),
  clientCase({
    // §4.1 leaves open which fields are mandatory: sending all six is the suite's reading of "the fields of section 2.1".
    id: 'client.collect.fields', title: 'the six fields of §2.1 are sent once each', specRef: '§2.1, §4.1', level: 'SHOULD',
    check: onBody('pairs', (o, members) => {
      const problems: string[] = [];
      for (const name of SIX_FIELDS) {
        const count = members.filter((m) => m.key === name).length;
        if (count !== 1) problems.push(`${name} sent ${count} times`);
      }
      const causes = missingFields(members).length > 0 ? ['fields-missing' as const] : [];
      // transaction_id as given is a MUST of its own (client.collect.transaction-id-kept).
      const network = member(members, 'network_code');
      const given = new Map(o.fields).get('network_code');
      if (network?.value.kind === 'string') {
        if (JSON.stringify(network.value.value) !== given) problems.push(`network_code sent as ${network.value.raw}, given ${given}`);
      } else if (network) problems.push(`network_code sent as ${network.value.raw}, not a string`);
      return problems.length > 0 ? fail(o, { text: `the body does not carry the fields as given: ${problems.join('; ')}`, causes }) : pass(o);
    }),
  }),
  clientCase({
    // "Unique reference chosen by the caller. It is echoed back in the callback and serves as the matching key."
    id: 'client.collect.transaction-id-kept', title: 'the caller\'s transaction_id is sent as given, once', specRef: '§2.1', level: 'MUST',
    check: onBody('pairs', (o, members) => {
      const given = JSON.parse(new Map(o.fields).get('transaction_id')!) as string;
      const sent = members.filter((m) => m.key === 'transaction_id');
      const kept = sent.length === 1 && sent[0]!.value.kind === 'string' && sent[0]!.value.value === given;
      if (kept) return pass(o);
      const text = `the caller passed transaction_id ${JSON.stringify(given)}; the SDK sent ${sent.length === 0 ? 'none' : sent.map((m) => m.value.raw).join(' and ')}: it is the caller's reference, echoed back in the callback as the matching key (§2.1)`;
      return sent.length === 0 ? absent(o, text) : fail(o, text);
    }),
  }),
  clientCase({
    id: 'client.collect.amount-string', title: 'a string amount is sent as a JSON string', specRef: '§2.1', level: 'MUST',
    call: { fields: () => ({ amount: '"15.00"' }) },
    check: onBody('json', (o, members) => {
      const m = member(members, 'amount');
      if (!m) return absent(o, 'the body has no amount');
      if (m.value.kind !== 'string') return fail(o, `the caller passed the amount as the string "15.00"; the SDK sent ${m.value.raw}: §2.1 carries the amount as a string in JSON`);
      return pass(o);
    }),
  }),
  // SHOULD: §2.1 says a string, not that its text is kept; an SDK that passes money through a
  // float ("15.00" → 15 → "15") still sends a string, but not what its caller wrote.
  clientCase({
    id: 'client.collect.amount-text-kept', title: 'a string amount is sent as its caller wrote it', specRef: '§2.1 (interpretive)', level: 'SHOULD',
    call: { fields: () => ({ amount: '"15.00"' }) },
    check: onBody('pairs', (o, members) => {
      const m = member(members, 'amount');
      if (!m) return absent(o, 'the body has no amount');
      if (m.value.kind !== 'string' || m.value.value !== '15.00') {
        return fail(o, `the caller passed the amount "15.00"; the SDK sent ${m.value.raw}: an amount through a number loses the caller's text (the suite's position: §2.1 carries it as a string, which an SDK has no reason to rewrite)`);
      }
      return pass(o);
    }),
  }),
  clientCase({
    id: 'client.collect.customer-number-zeros', title: 'customer_number keeps its leading zero, as a string', specRef: '§2.1', level: 'MUST',
    check: onBody('json', (o, members) => {
      const m = member(members, 'customer_number');
      const given = JSON.parse(new Map(o.fields).get('customer_number')!) as string;
      if (!m) return absent(o, `the caller passed customer_number "${given}"; the SDK sent none: digits are kept as text, leading zeros included (§2.1)`);
      if (m.value.kind !== 'string' || m.value.value !== given) {
        return fail(o, `the caller passed customer_number "${given}"; the SDK sent ${m.value.raw}: digits are kept as text, leading zeros included (§2.1)`);
      }
      return pass(o);
    }),
  }),
  clientCase({
    id: 'client.collect.client-id-integer', title: 'client_id is sent as a JSON integer', specRef: '§2.1', level: 'MUST',
    check: onBody('json', (o, members) => {
      const m = member(members, 'client_id');
      const expected = String(o.ctx.target.clientId);
      if (!m) return absent(o, `client_id was sent as nothing; §2.1 types it as an integer (${expected})`);
      if (m.value.raw !== expected) return fail(o, `client_id was sent as ${m.value.raw}; §2.1 types it as an integer (${expected})`);
      return pass(o);
    }),
  }),
  clientCase({
    id: 'client.collect.callback-url-literal', title: 'a callback URL with ? & = % # and non-ASCII is sent and signed literally', specRef: '§2.1, §5.1 step 3', level: 'MUST',
    call: { fields: (plain) => ({ callback_url: JSON.stringify(`${JSON.parse(plain.callback_url) as string}${CALLBACK_URL_SUFFIX}`) }) },
    check: onBody('pairs', (o, members) => {
      const given = JSON.parse(new Map(o.fields).get('callback_url')!) as string;
      const m = member(members, 'callback_url');
      if (!m) return absent(o, `the caller passed callback_url ${JSON.stringify(given)}; the SDK sent none: the URL is sent as given, not re-encoded`);
      if (m.value.kind !== 'string' || m.value.value !== given) {
        return fail(o, `the caller passed callback_url ${JSON.stringify(given)}; the SDK sent ${m.value.raw}: the URL is sent as given, not re-encoded`);
      }
      const problem = signatureProblem(o, o.requests[0]!);
      return problem ? fail(o, { ...problem, text: `callback_url was sent literally, but ${problem.text}` }) : pass(o);
    }),
  }),
  clientCase({
    id: 'client.collect.field-order', title: 'fields passed in any order are signed in code-point order', specRef: '§5.1 step 2', level: 'MUST',
    call: { order: ['transaction_id', 'network_code', 'customer_number', 'client_id', 'callback_url', 'amount'] },
    check: signedAsSent('the caller passed the fields in reverse order'),
  }),
  numberCase('number-whole-float', '15.0', 'an amount passed as the number 15.0 is signed as sent'),
  numberCase('number-float-noise', '3.3000000000000003', 'an amount passed as 3.3000000000000003 is signed as sent'),
  numberCase('number-exponent', '1e3', 'an amount passed as the number 1e3 is signed as sent'),
  numberCase('number-large-integer', '12345678901234567890', 'an amount passed as a 20-digit integer is signed as sent'),
  clientCase({
    id: 'client.collect.extra-fields', title: 'fields beyond the six are signed when sent', specRef: '§5.1 step 1', level: 'MUST',
    call: { extra: [['Reference', '"INV-7"'], ['note', '"two words"']] },
    check: onBody('pairs', (o, members) => {
      const sent = members.filter((m) => m.key === 'Reference' || m.key === 'note');
      if (sent.length === 0) {
        return { verdict: 'SKIP', reason: `not exercised: the SDK sent no extra field (it reported ${reported(o)}); whether it would sign them is unknown`, evidence: evidenceOf(o) };
      }
      const problem = signatureProblem(o, o.requests[0]!);
      return problem ? fail(o, { ...problem, text: `the caller passed extra fields Reference and note: ${problem.text}` }) : pass(o, [`sent the extra fields ${sent.map((m) => m.key).join(', ')}, signed`]);
    }, { mayRefuse: true }),
  }),
];
