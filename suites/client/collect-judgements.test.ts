// How each client.collect case judges what a call showed (its `judge`, without an adapter): the
// requests an SDK may send, built here, and the verdict each case gives them. Known answers for
// what the fault sweep (suites/self-test/client-faults.test.ts) shows only through a whole SDK:
// a correct SDK unlike the reference passes, each deviation fails for its own words.
import { describe, expect, it } from 'vitest';
import type { SdkCall } from '../../harness/cases/index.ts';
import type { ReceivedRequest } from '../../harness/sdk/index.ts';
import { hmacHex, signBody } from '../../harness/signing/index.ts';
import { ACCEPTED, judgedBy, observationOf, receivedRequest } from './observations.ts';

const secretKey = 'sk-judge-secret-0001';
const clientKey = 'ck-judge-key-0001';
type Fields = Array<[string, string]>;
const PLAIN: Fields = [
  ['amount', '"1.00"'], ['callback_url', '"http://127.0.0.1:1/callbacks/t1"'], ['client_id', '2'],
  ['customer_number', '"0244000001"'], ['network_code', '"MTN"'], ['transaction_id', '"cc-t-1"'],
];

/** The request a correct SDK sends for `fields`, as the service stand-in received it; `change` alters it. */
function sent(fields: Fields, change: { method?: string; target?: string; headers?: Record<string, string[]>; body?: string } = {}): ReceivedRequest {
  const body = change.body ?? `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
  // A body that is not JSON gets some signature: its cases judge the body, not the signature.
  const signature = body.startsWith('{') ? signBody(body, secretKey).signature : hmacHex(secretKey, body);
  const headers = { 'content-type': ['application/json'], authorization: [`HMAC ${clientKey}:${signature}`], ...change.headers };
  return receivedRequest({ ...(change.method ? { method: change.method } : {}), ...(change.target ? { target: change.target } : {}), headers, body });
}
function observation(requests: ReceivedRequest[], fields: Fields = PLAIN, answer: SdkCall['answer'] = ACCEPTED): SdkCall {
  return observationOf({ secretKey, clientKey }, { requests, fields, answer });
}

describe('client.collect.method-path (§4.1)', () => {
  it('a query string on the right path: PASS (the path is judged)', async () => {
    expect((await judgedBy('client.collect.method-path', observation([sent(PLAIN, { target: '/api/v1.0/collect/?trace=1' })]))).verdict).toBe('PASS');
  });
  it('GET on the right path: FAIL, the method named; no cause, no note', async () => {
    const outcome = await judgedBy('client.collect.method-path', observation([sent(PLAIN, { method: 'GET' })]));
    expect(outcome).toMatchObject({ verdict: 'FAIL', reason: 'the SDK sent GET "/api/v1.0/collect/"; the collect operation is POST /api/v1.0/collect/ under the base URL' });
    expect(outcome.causes).toBeUndefined();
    expect(outcome.evidence?.['notes']).toBeUndefined();
  });
});

describe('client.collect.content-type (§4)', () => {
  it('application/JSON ; charset=utf-8 (a parameter, spaces, another letter case): PASS', async () => {
    expect((await judgedBy('client.collect.content-type', observation([sent(PLAIN, { headers: { 'content-type': ['application/JSON ; charset=utf-8'] } })]))).verdict).toBe('PASS');
  });
  it('a JSON body under another type: the type quoted, no word of a body that is not JSON, no shared cause', async () => {
    const outcome = await judgedBy('client.collect.content-type', observation([sent(PLAIN, { headers: { 'content-type': ['text/plain'] } })]));
    expect(outcome).toMatchObject({ verdict: 'FAIL', reason: 'Content-Type was "text/plain"; a JSON body is sent as application/json' });
    expect(outcome.causes).toBeUndefined();
  });
  it('a form under the form type: the shared cause body-not-json', async () => {
    const outcome = await judgedBy('client.collect.content-type', observation([sent(PLAIN, { body: 'amount=1.00', headers: { 'content-type': ['application/x-www-form-urlencoded'] } })]));
    expect(outcome.reason).toBe('Content-Type was "application/x-www-form-urlencoded"; a JSON body is sent as application/json, and the body sent is not JSON either: it is a form of key=value pairs (Content-Type: application/x-www-form-urlencoded)');
    expect(outcome.causes).toEqual(['body-not-json']);
  });
});

describe('client.collect.authorization and signature-lowercase (§5.1 step 5, §5.2)', () => {
  it('no header: FAIL with the shared cause authorization-unreadable; letter case not judged', async () => {
    const o = observation([sent(PLAIN, { headers: { authorization: [] } })]);
    expect(await judgedBy('client.collect.authorization', o)).toMatchObject({ verdict: 'FAIL', reason: 'the request carried no Authorization header; §5.2 requires one', causes: ['authorization-unreadable'] });
    expect(await judgedBy('client.collect.signature-lowercase', o)).toMatchObject({ verdict: 'SKIP', reason: 'not exercised: the request carried no well-formed Authorization header (client.collect.authorization judges it)' });
  });
  it('a signature that is not hex though it begins like hex: letter case not judged', async () => {
    const o = observation([sent(PLAIN, { headers: { authorization: [`HMAC ${clientKey}:a1B2+xyz=`] } })]);
    expect(await judgedBy('client.collect.signature-lowercase', o)).toMatchObject({ verdict: 'SKIP', reason: 'not exercised: the signature "a1B2+xyz=" is not hex (client.collect.authorization judges it)' });
  });
  it('a lower-case hex signature: both PASS', async () => {
    const o = observation([sent(PLAIN)]);
    expect((await judgedBy('client.collect.authorization', o)).verdict).toBe('PASS');
    expect((await judgedBy('client.collect.signature-lowercase', o)).verdict).toBe('PASS');
  });
});

describe('what arrived: none, or more than one request', () => {
  it('a retry: the first request judged, the count in the evidence', async () => {
    const outcome = await judgedBy('client.collect.method-path', observation([sent(PLAIN, { method: 'PUT' }), sent(PLAIN)]));
    expect(outcome.verdict).toBe('FAIL');
    expect(outcome.evidence?.['notes']).toEqual(['2 requests arrived during the call; the first is judged']);
  });
  it('one request: no note at all', async () => {
    const outcome = await judgedBy('client.collect.method-path', observation([sent(PLAIN)]));
    expect(outcome.evidence?.['notes']).toBeUndefined();
  });
  it.each([
    ['rejected', { kind: 'outcome', outcome: 'rejected', line: '' }],
    ['an error', { kind: 'error', error: 'amount must be a string', line: '' }],
  ] as Array<[string, SdkCall['answer']]>)('nothing sent, the SDK reported %s: SKIP where the SDK may refuse (a number amount), FAIL elsewhere', async (_, answer) => {
    const o = observation([], [['amount', '15.0'], ...PLAIN.slice(1)], answer);
    expect(await judgedBy('client.collect.number-whole-float', o)).toMatchObject({ verdict: 'SKIP', reason: expect.stringMatching(/^not exercised: the SDK refused the call before sending anything: it reported /) });
    expect(await judgedBy('client.collect.method-path', o)).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/^no request reached the service; the SDK reported /) });
    expect((await judgedBy('client.collect.extra-fields', o)).verdict).toBe('SKIP');
  });
  it('nothing sent, yet reported accepted: FAIL even where the SDK may refuse', async () => {
    expect(await judgedBy('client.collect.number-whole-float', observation([], PLAIN))).toMatchObject({ verdict: 'FAIL', reason: 'no request reached the service; the SDK reported accepted' });
  });
});

describe('client.collect.extra-fields (§5.1 step 1)', () => {
  const fields: Fields = [...PLAIN, ['Reference', '"INV-7"'], ['note', '"two words"']];
  it.each([
    ['both', fields, 'sent the extra fields Reference, note, signed'],
    ['Reference alone', fields.slice(0, 7), 'sent the extra fields Reference, signed'],
    ['note alone', [...PLAIN, ['note', '"two words"']] as Fields, 'sent the extra fields note, signed'],
  ])('%s sent and signed: PASS, the fields sent named', async (_, body, note) => {
    const outcome = await judgedBy('client.collect.extra-fields', observation([sent(body)], fields));
    expect(outcome.verdict).toBe('PASS');
    expect(outcome.evidence?.['notes']).toContain(note);
  });
  it('none sent: SKIP, whether it would sign them unknown', async () => {
    expect(await judgedBy('client.collect.extra-fields', observation([sent(PLAIN)], fields))).toMatchObject({ verdict: 'SKIP', reason: 'not exercised: the SDK sent no extra field (it reported accepted); whether it would sign them is unknown' });
  });
});

describe('client.collect fields and their types (§2.1)', () => {
  const amount = (raw: string): Fields => [['amount', raw], ...PLAIN.slice(1)];
  it('amount-text-kept: the amount as the number 15.00 is not the caller\'s text', async () => {
    expect(await judgedBy('client.collect.amount-text-kept', observation([sent(amount('15.00'))], amount('"15.00"')))).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/^the caller passed the amount "15\.00"; the SDK sent 15\.00: /) });
  });
  it('amount-string and amount-text-kept: "15.00" as given PASSes both', async () => {
    const o = observation([sent(amount('"15.00"'))], amount('"15.00"'));
    expect((await judgedBy('client.collect.amount-string', o)).verdict).toBe('PASS');
    expect((await judgedBy('client.collect.amount-text-kept', o)).verdict).toBe('PASS');
  });
  it('fields: network_code given, each field once: PASS; sent twice: FAIL (WARN at SHOULD), counted', async () => {
    expect((await judgedBy('client.collect.fields', observation([sent(PLAIN)]))).verdict).toBe('PASS');
    const twice = await judgedBy('client.collect.fields', observation([sent([...PLAIN, ['network_code', '"MTN"']])]));
    expect(twice).toMatchObject({ verdict: 'FAIL', reason: 'the body does not carry the fields as given: network_code sent 2 times' });
    expect(twice.causes).toBeUndefined();
  });
  it('transaction-id-kept: sent twice is not "as given, once" (no missing field); not sent at all states fields-missing', async () => {
    const twice = await judgedBy('client.collect.transaction-id-kept', observation([sent([...PLAIN, ['transaction_id', '"cc-t-1"']])]));
    expect(twice).toMatchObject({ verdict: 'FAIL', reason: expect.stringContaining('the SDK sent "cc-t-1" and "cc-t-1"') });
    expect(twice.causes).toBeUndefined();
    const renamed = PLAIN.map(([k, v]): [string, string] => [k === 'transaction_id' ? 'transactionId' : k, v]);
    expect(await judgedBy('client.collect.transaction-id-kept', observation([sent(renamed)]))).toMatchObject({ verdict: 'FAIL', reason: expect.stringContaining('the SDK sent none'), causes: ['fields-missing'] });
  });
  it('a field under another name: each case that reads it states fields-missing (the preflight names it once)', async () => {
    const renamed = PLAIN.map(([k, v]): [string, string] => [k === 'amount' ? 'Amount' : k, v]);
    const o = observation([sent(renamed)]);
    for (const id of ['client.collect.fields', 'client.collect.amount-string', 'client.collect.amount-text-kept']) {
      expect((await judgedBy(id, o)).causes, id).toEqual(['fields-missing']);
    }
  });
  it('a body neither JSON nor a form: the rules that read its pairs FAIL in the shared words', async () => {
    const outcome = await judgedBy('client.collect.fields', observation([sent(PLAIN, { body: 'garbage {', headers: { 'content-type': ['text/plain'] } })]));
    expect(outcome).toMatchObject({ verdict: 'FAIL', causes: ['body-not-json'], reason: expect.stringMatching(/^the body sent is not JSON: unexpected character at offset 0/) });
  });
  it('signature: a PASS names the pairs sent', async () => {
    const outcome = await judgedBy('client.collect.signature', observation([sent(PLAIN)]));
    expect(outcome.verdict).toBe('PASS');
    expect(outcome.evidence?.['notes']).toEqual(['a plain call (string amount, six fields): sent amount="1.00", callback_url="http://127.0.0.1:1/callbacks/t1", client_id=2, customer_number="0244000001", network_code="MTN", transaction_id="cc-t-1"; the signature is the one over the bytes sent']);
  });
  it('client-id-integer: 2 PASSes, "2" and 2.0 FAIL with the text sent', async () => {
    const client = (raw: string): Fields => PLAIN.map(([k, v]) => [k, k === 'client_id' ? raw : v]);
    expect((await judgedBy('client.collect.client-id-integer', observation([sent(PLAIN)]))).verdict).toBe('PASS');
    expect((await judgedBy('client.collect.client-id-integer', observation([sent(client('"2"'))]))).reason).toBe('client_id was sent as "2"; §2.1 types it as an integer (2)');
    expect((await judgedBy('client.collect.client-id-integer', observation([sent(client('2.0'))]))).reason).toBe('client_id was sent as 2.0; §2.1 types it as an integer (2)');
  });
});

describe('an SDK that kept its caller waiting after the service answered (withSilence)', () => {
  const waited: SdkCall['answer'] = { kind: 'nothing', waitedMs: 700, line: '' };
  const silent = 'the SDK reported nothing after the service accepted in 2 ms (HTTP 200 {"success":true}): nothing within 700 ms, so its caller would wait for ever';
  it('a request that held the rule: FAIL, said so, the rule\'s evidence kept, no cause added', async () => {
    const outcome = await judgedBy('client.collect.signature', observation([sent(PLAIN)], PLAIN, waited));
    expect(outcome).toMatchObject({ verdict: 'FAIL', reason: `${silent} (the request itself held this rule)`, causes: [] });
    expect(outcome.evidence?.['notes']).toEqual([expect.stringMatching(/^a plain call \(string amount, six fields\): sent amount="1\.00"/)]);
  });
  it('a rule the request did not exercise: FAIL, with why', async () => {
    const fields: Fields = [...PLAIN, ['note', '"x"']];
    expect(await judgedBy('client.collect.extra-fields', observation([sent(PLAIN)], fields, waited))).toMatchObject({
      verdict: 'FAIL', reason: `${silent} (the request itself did not exercise this rule: not exercised: the SDK sent no extra field (it reported nothing within 700 ms); whether it would sign them is unknown)`,
    });
  });
  it('a request that broke the rule: both findings', async () => {
    expect(await judgedBy('client.collect.method-path', observation([sent(PLAIN, { method: 'PUT' })], PLAIN, waited))).toMatchObject({
      verdict: 'FAIL', reason: `the SDK sent PUT "/api/v1.0/collect/"; the collect operation is POST /api/v1.0/collect/ under the base URL; and ${silent}`,
    });
  });
});

describe('client.answers: the report judged, a silent SDK once (judgesReport)', () => {
  const refused = (status: number, body: string) => {
    const request = sent(PLAIN);
    return { ...request, answer: { ...request.answer!, status, body } } as ReceivedRequest;
  };
  const silentAfter401 = 'the SDK reported nothing after the service refused in 2 ms (HTTP 401 {"message":"Unauthenticated."}): nothing within 700 ms, so its caller would wait for ever';
  it.each([
    'client.answers.client-error', 'client.answers.success-false', 'client.answers.error-code', 'client.answers.server-error', 'client.answers.no-answer',
  ])('%s: an SDK silent after a refusal FAILs once, in the words of the silence', async (id) => {
    const outcome = await judgedBy(id, observation([refused(401, '{"message":"Unauthenticated."}')], PLAIN, { kind: 'nothing', waitedMs: 700, line: '' }));
    expect(outcome).toMatchObject({ verdict: 'FAIL', reason: silentAfter401, causes: ['refusals-unreported'] });
  });
  it('client.answers.accepted: an SDK silent after the acceptance FAILs once, in the words of the silence', async () => {
    expect(await judgedBy('client.answers.accepted', observation([sent(PLAIN)], PLAIN, { kind: 'nothing', waitedMs: 700, line: '' }))).toMatchObject({
      verdict: 'FAIL', reason: 'the SDK reported nothing after the service accepted in 2 ms (HTTP 200 {"success":true}): nothing within 700 ms, so its caller would wait for ever',
    });
  });
  it('client.answers.accepted: reported accepted PASSes, reported rejected FAILs naming the report', async () => {
    expect((await judgedBy('client.answers.accepted', observation([sent(PLAIN)]))).verdict).toBe('PASS');
    expect(await judgedBy('client.answers.accepted', observation([sent(PLAIN)], PLAIN, { kind: 'outcome', outcome: 'rejected', line: '' }))).toMatchObject({
      verdict: 'FAIL', reason: 'the service answered 200 {"success": true, "status": "PENDING"}; the SDK reported rejected',
    });
  });
});
