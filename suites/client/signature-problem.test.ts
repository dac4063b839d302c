// Why a client's signature is not the one over the bytes sent (harness/cases/client/call.ts
// signatureProblem): each explanation, plainest first, and the cause it states. Known answers,
// from requests built here: the text of every branch is what a user reads in a FAIL.
import { describe, expect, it } from 'vitest';
import { signatureProblem, type SdkCall } from '../../harness/cases/index.ts';
import type { ReceivedRequest } from '../../harness/sdk/index.ts';
import { hmacHex, signBody } from '../../harness/signing/index.ts';
import { observationOf, receivedRequest } from './observations.ts';

const secretKey = 'sk-problem-secret-0001';
const clientKey = 'ck-problem-key-0001';
const FORM = 'application/x-www-form-urlencoded';
const PLAIN: Array<[string, string]> = [['amount', '"1.00"'], ['client_id', '2']];
const JSON_BODY = '{"amount":"1.00","client_id":2}';
const NOT_SENT = 'the signature is not the one over the bytes sent: ';
const FORM_NOT_JSON = 'the body sent is not JSON: it is a form of key=value pairs (Content-Type: application/x-www-form-urlencoded), which §5.1\'s message (over a JSON body) cannot be made from; ';

function observation(fields: Array<[string, string]> = PLAIN): SdkCall {
  return observationOf({ secretKey, clientKey }, { fields });
}
function request(body: string | Buffer, authorization: string | undefined, contentType = 'application/json'): ReceivedRequest {
  return receivedRequest({ headers: { 'content-type': [contentType], ...(authorization === undefined ? {} : { authorization: [authorization] }) }, body });
}
const signedWith = (signature: string) => `HMAC ${clientKey}:${signature}`;
const over = (json: string) => signedWith(signBody(json, secretKey).signature);

describe('client.collect signature checks: no signature to read', () => {
  it('no Authorization header: said, the shared cause authorization-unreadable', () => {
    expect(signatureProblem(observation(), request(JSON_BODY, undefined))).toStrictEqual({ text: 'Authorization header is missing (got none)', causes: ['authorization-unreadable'] });
  });
  it('another scheme: the header quoted', () => {
    expect(signatureProblem(observation(), request(JSON_BODY, 'Bearer x'))).toStrictEqual({
      text: 'Authorization header is not "HMAC {client_key}:{signature}" (got "Bearer x")', causes: ['authorization-unreadable'],
    });
  });
});

describe('client.collect signature checks: a JSON body', () => {
  it('the signature over the bytes sent, in either letter case, is no problem here (signature-lowercase judges the case)', () => {
    const signature = signBody(JSON_BODY, secretKey).signature;
    expect(signatureProblem(observation(), request(JSON_BODY, signedWith(signature)))).toBeUndefined();
    expect(signatureProblem(observation(), request(JSON_BODY, signedWith(signature.toUpperCase())))).toBeUndefined();
  });
  it('signed over the fields as the caller passed them, sent otherwise: the pair signed and the pair sent', () => {
    const passed: Array<[string, string]> = [['amount', '15.0'], ['client_id', '2']];
    expect(signatureProblem(observation(passed), request('{"amount":15,"client_id":2}', over('{"amount":15.0,"client_id":2}')))).toStrictEqual({
      text: `${NOT_SENT}it is the signature over the fields as the caller passed them, not as the SDK sent them: signed \`amount=15.0\`, the body has \`amount=15\``,
      causes: ['not-signed-as-sent'],
    });
  });
  it('extra fields sent but the six of §2.1 alone signed: the extras named', () => {
    expect(signatureProblem(observation([...PLAIN, ['note', '"x"']]), request('{"amount":"1.00","client_id":2,"note":"x"}', over(JSON_BODY)))).toStrictEqual({
      text: `${NOT_SENT}it is the signature over the six fields of §2.1 alone: it left out \`note\`, which the body carries (§5.1 step 1 signs every field sent)`,
      causes: ['not-signed-as-sent'],
    });
  });
  it('a body that is not UTF-8: the first wrong byte, and why no signature can match', () => {
    const latin1 = Buffer.from('{"amount":"caf\xe9","client_id":2}', 'latin1');
    expect(signatureProblem(observation(), request(latin1, signedWith(hmacHex(secretKey, 'amount=café&client_id=2'))))).toStrictEqual({
      text: `${NOT_SENT}the body is not UTF-8 (byte 0xe9 at offset 14, after "amount\\":\\"caf"; likely ISO-8859-1 or Windows-1252 text), so no signature over its characters can match: JSON is sent as UTF-8 (RFC 8259 §8.1)`,
      causes: ['not-signed-as-sent'],
    });
  });
  it('nothing known explains it: the signing module\'s words', () => {
    expect(signatureProblem(observation(), request(JSON_BODY, signedWith(hmacHex('other', 'x'))))?.text).toBe(
      `${NOT_SENT}no known canonicalisation reproduces it: likely the secret is wrong, or the text signed differs from the body in a way no labelled alternative covers (the body changed after signing, another character encoding)`,
    );
  });
});

describe('client.collect signature checks: a form body (the shared cause body-not-json)', () => {
  it('signed over its pairs, sorted: the message shown, a secret in it redacted', () => {
    const body = `amount=1.00&client_id=2&k=${secretKey}`;
    expect(signatureProblem(observation(), request(body, over(`{"amount":"1.00","client_id":"2","k":"${secretKey}"}`), FORM))).toStrictEqual({
      text: `${FORM_NOT_JSON}the signature is the one over the form's pairs (each value decoded), sorted by key and joined as key=value: \`amount=1.00&client_id=2&k=[REDACTED]\``,
      causes: ['body-not-json'],
    });
  });
  it('signed over its pairs in upper-case hex: said', () => {
    const signature = signBody('{"amount":"1.00","client_id":"2"}', secretKey).signature.toUpperCase();
    expect(signatureProblem(observation(), request('amount=1.00&client_id=2', signedWith(signature), FORM))?.text).toBe(
      `${FORM_NOT_JSON}the signature is the one over the form's pairs (each value decoded), sorted by key and joined as key=value (in upper-case hex): \`amount=1.00&client_id=2\``,
    );
  });
  it('signed over its pairs by a labelled alternative: the alternative named', () => {
    expect(signatureProblem(observation(), request('client_id=2&amount=1.00', signedWith(hmacHex(secretKey, 'client_id=2&amount=1.00')), FORM))?.text).toBe(
      `${FORM_NOT_JSON}over the form's pairs, your signature matches the message of \`body-order\` (any language: keys left in body order, not sorted): signed \`client_id=2\` where the service signs \`amount=1.00\`; the service signs keys in code-point order with every value as its text stands in the body`,
    );
  });
  it('signed over the fields as the caller passed them: said', () => {
    const passed: Array<[string, string]> = [['customer_number', '"0244"']];
    expect(signatureProblem(observation(passed), request('customer_number=244', over('{"customer_number":"0244"}'), FORM))?.text).toBe(
      `${FORM_NOT_JSON}the signature is the one over the fields as the caller passed them, not over any reading of the body sent`,
    );
  });
  it('nothing known explains it: said, with what was tried', () => {
    expect(signatureProblem(observation(), request('amount=1.00&client_id=2', signedWith(hmacHex('other', 'x')), FORM))?.text).toBe(
      `${FORM_NOT_JSON}no known form of this body explains the signature (neither its pairs sorted and joined as key=value, nor the fields as the caller passed them)`,
    );
  });
  it('a body neither JSON nor a form, signed over the fields passed: the parse error, then the explanation', () => {
    expect(signatureProblem(observation(), request('garbage {', over(JSON_BODY), 'text/plain'))).toStrictEqual({
      text: 'the body sent is not JSON: unexpected character at offset 0 (near "garbage {") (Content-Type: text/plain), which §5.1\'s message (over a JSON body) cannot be made from; the signature is the one over the fields as the caller passed them, not over any reading of the body sent',
      causes: ['body-not-json'],
    });
  });
});
