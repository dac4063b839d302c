// How each client.status request case judges the status query an SDK sent (its `judge`, without
// an adapter; the query's shape is the suite's position, docs/status.md): requests built by hand,
// the verdict and the words each case gives them.
import { describe, expect, it } from 'vitest';
import { successReported, type SdkCall } from '../../harness/cases/index.ts';
import type { ReceivedRequest } from '../../harness/sdk/index.ts';
import { hmacHex, signBody } from '../../harness/signing/index.ts';
import { statusAnswerBody } from '../../harness/status/index.ts';
import { judgedBy, observationOf, receivedRequest } from './observations.ts';

const secretKey = 'sk-status-judge-0001';
const clientKey = 'ck-status-judge-0001';
const ID = 'cc-s-1';
const BODY = `{"transaction_id":"${ID}","client_id":2}`;
const PATH = '/api/v1.0/transaction_status/';
const signedOver = (json: string, secret = secretKey) => `HMAC ${clientKey}:${signBody(json, secret).signature}`;

function query(change: { method?: string; target?: string; body?: string; headers?: Record<string, string[]> } = {}): ReceivedRequest {
  const body = change.body ?? BODY;
  const headers = { 'content-type': ['application/json'], authorization: [signedOver(body.startsWith('{') ? body : BODY)], ...change.headers };
  return receivedRequest({ method: change.method ?? 'POST', target: change.target ?? PATH, headers, body });
}
/** The outcome of case `id` for a status query that sent `requests`, the SDK having reported PENDING. */
function judged(id: string, ...requests: ReceivedRequest[]) {
  const fields: Array<[string, string]> = [['transaction_id', JSON.stringify(ID)], ['client_id', '2']];
  return judgedBy(id, observationOf({ secretKey, clientKey }, { fields, requests, answer: { kind: 'status', status: 'PENDING', line: '' }, line: '{"id":"s1","op":"status"}' }));
}

describe('the status query as the suite\'s position has it: every request case PASSes', () => {
  it.each(['client.status.method-path', 'client.status.headers', 'client.status.body', 'client.status.signature'])('%s', async (id) => {
    expect((await judged(id, query())).verdict).toBe('PASS');
  });
  it('no request: FAIL, saying so', async () => {
    expect(await judged('client.status.method-path')).toMatchObject({ verdict: 'FAIL', reason: 'no request reached the service; the SDK reported status PENDING' });
  });
});

describe('client.status.method-path', () => {
  it('GET with its parameters in the query: said', async () => {
    expect((await judged('client.status.method-path', query({ method: 'GET', target: `${PATH}?transaction_id=${ID}&client_id=2`, body: '' }))).reason)
      .toMatch(/^the SDK sent GET "\/api\/v1\.0\/transaction_status\/\?transaction_id=cc-s-1&client_id=2", its parameters in the query; the status query is POST /);
  });
  it('GET without a query, and POST with a query to another path: no word of query parameters', async () => {
    expect((await judged('client.status.method-path', query({ method: 'GET', body: '' }))).reason).toMatch(/^the SDK sent GET "\/api\/v1\.0\/transaction_status\/"; /);
    expect((await judged('client.status.method-path', query({ target: '/status?x=1' }))).reason).toMatch(/^the SDK sent POST "\/status\?x=1"; /);
  });
  it('POST to the path with a query string: PASS (the path is judged)', async () => {
    expect((await judged('client.status.method-path', query({ target: `${PATH}?trace=1` }))).verdict).toBe('PASS');
  });
});

describe('client.status.headers', () => {
  it.each([
    ['another scheme before HMAC', `Bearer ${signedOver(BODY)}`],
    ['a member after the signature', `${signedOver(BODY)}:1700000000`],
    ['a base64 signature', `HMAC ${clientKey}:${Buffer.from(signBody(BODY, secretKey).signature, 'hex').toString('base64')}`],
  ])('%s: FAIL, the header quoted (redacted later, by the report)', async (_, authorization) => {
    expect((await judged('client.status.headers', query({ headers: { authorization: [authorization] } }))).reason)
      .toBe(`the Authorization header ${JSON.stringify(authorization)} is not "HMAC {client_key}:{64 hex digits}"`);
  });
  it('application/JSON ; charset=utf-8: PASS; a GET with no body needs no Content-Type', async () => {
    expect((await judged('client.status.headers', query({ headers: { 'content-type': ['application/JSON ; charset=utf-8'] } }))).verdict).toBe('PASS');
    expect((await judged('client.status.headers', query({ method: 'GET', body: '', headers: { 'content-type': [] } }))).verdict).toBe('PASS');
  });
  it('a body with no Content-Type: FAIL', async () => {
    expect((await judged('client.status.headers', query({ headers: { 'content-type': [] } }))).reason).toBe('Content-Type was not sent; the body is JSON (§4)');
  });
});

describe('client.status.body', () => {
  it.each([
    ['the id as a number', '{"transaction_id":7,"client_id":2}', 'transaction_id sent as 7, given "cc-s-1"'],
    ['another id', '{"transaction_id":"cc-s-2","client_id":2}', 'transaction_id sent as "cc-s-2", given "cc-s-1"'],
    ['client_id as a string', `{"transaction_id":"${ID}","client_id":"2"}`, 'client_id sent as "2"; §2.1 types it as an integer (2)'],
    ['client_id as a float', `{"transaction_id":"${ID}","client_id":2.0}`, 'client_id sent as 2.0; §2.1 types it as an integer (2)'],
    ['client_id missing', `{"transaction_id":"${ID}"}`, 'client_id sent 0 times'],
  ])('%s: FAIL, %s', async (_, body, problem) => {
    expect((await judged('client.status.body', query({ body }))).reason).toBe(`the status query's body does not carry the fields as due: ${problem}`);
  });
  it('no body: FAIL, the request line named', async () => {
    expect((await judged('client.status.body', query({ method: 'GET', body: '' }))).reason).toMatch(/^the status query has no body \(GET "\/api\/v1\.0\/transaction_status\/"\); /);
  });
});

describe('client.status.signature', () => {
  it('a POST with a query string on its path: its body is what is signed', async () => {
    expect((await judged('client.status.signature', query({ target: `${PATH}?trace=1` }))).verdict).toBe('PASS');
  });
  it('signed over the id alone: said', async () => {
    const outcome = await judged('client.status.signature', query({ headers: { authorization: [signedOver(`{"transaction_id":"${ID}"}`)] } }));
    expect(outcome.reason).toContain('; it is the signature over transaction_id alone: every field of the body is signed (§5.1 step 1)');
  });
  it('signed with another secret: FAIL, and no claim of a field signed alone', async () => {
    const outcome = await judged('client.status.signature', query({ headers: { authorization: [signedOver(BODY, 'other-secret')] } }));
    expect(outcome.verdict).toBe('FAIL');
    expect(outcome.reason).not.toContain('alone');
  });
  it('a GET signed over its query\'s pairs: PASS; signed otherwise or not at all: FAIL with the expected signature', async () => {
    const target = `${PATH}?transaction_id=${ID}&client_id=2`;
    const expected = signBody(BODY, secretKey).signature;
    expect(await judged('client.status.signature', query({ method: 'GET', target, body: '', headers: { authorization: [signedOver(BODY)] } }))).toMatchObject({ verdict: 'PASS' });
    expect((await judged('client.status.signature', query({ method: 'GET', target, body: '', headers: { authorization: [`HMAC ${clientKey}:${hmacHex(secretKey, '')}`] } }))).reason)
      .toMatch(new RegExp(`^the status query \\(no body\\) is not signed over its query's pairs: expected ${expected}, got "HMAC `));
    expect((await judged('client.status.signature', query({ method: 'GET', target, body: '', headers: { authorization: [] } }))).reason).toBe(`the status query (no body) is not signed over its query's pairs: expected ${expected}, got null`);
  });
});

/** A status call answered 200 with `status` spelled in `letterCase` (the reference form: lower), the SDK having reported `answer`. */
function answeredCall(status: 'PENDING' | 'SUCCESS', letterCase: 'lower' | 'upper', answer: SdkCall['answer']): SdkCall {
  const body = statusAnswerBody(ID, status, letterCase);
  const o = observationOf({ secretKey, clientKey }, { requests: [query()], answer, line: '{"id":"s1","op":"status"}' });
  return { ...o, script: { kind: 'answer', status: 200, contentType: 'application/json', body } };
}
const statusReport = (status: 'PENDING' | 'SUCCESS'): SdkCall['answer'] => ({ kind: 'status', status, line: '' });
const errorReport = (error: string): SdkCall['answer'] => ({ kind: 'error', error, line: '' });

describe('client.status.reports-pending judged on one call answered in the reference form (its judge)', () => {
  it('reported PENDING: PASS', async () => {
    expect(await judgedBy('client.status.reports-pending', answeredCall('PENDING', 'lower', statusReport('PENDING')))).toMatchObject({ verdict: 'PASS' });
  });
  it('reported SUCCESS: FAIL quoting what the service answered, the cause stated', async () => {
    const o = answeredCall('PENDING', 'lower', statusReport('SUCCESS'));
    expect(await judgedBy('client.status.reports-pending', o)).toMatchObject({
      verdict: 'FAIL', causes: ['status-misreported'],
      reason: `the service answered ${JSON.stringify(statusAnswerBody(ID, 'PENDING', 'lower'))}; the SDK reported status SUCCESS: a transaction still pending is not paid (an SDK that reads only "success" calls it SUCCESS)`,
    });
  });
});

describe('the preflight\'s status control: the plain call answered 200 success is reported SUCCESS, in either letter case', () => {
  const FIRST = '200 {"success": true, "status": "success"}';
  const OTHER = '200 {"success": true, "status": "SUCCESS"}';
  it('reported SUCCESS to the reference form: PASS, no note', () => {
    const outcome = successReported(answeredCall('SUCCESS', 'lower', statusReport('SUCCESS')));
    expect(outcome.verdict).toBe('PASS');
    expect(outcome.evidence?.notes).toBeUndefined();
  });
  it('reported SUCCESS only to the upper-case form: PASS on that call, the note naming both forms', () => {
    const other = answeredCall('SUCCESS', 'upper', statusReport('SUCCESS'));
    const outcome = successReported(answeredCall('SUCCESS', 'lower', errorReport('unknown status success')), other);
    expect(outcome.verdict).toBe('PASS');
    expect(outcome.evidence?.serviceScript).toEqual(other.script);
    expect(outcome.evidence?.notes).toEqual([`the SDK reported SUCCESS to ${OTHER}, not to ${FIRST} (it reported an error (unknown status success))`]);
  });
  it('reported SUCCESS to neither: FAIL naming both reports', () => {
    const outcome = successReported(answeredCall('SUCCESS', 'lower', statusReport('PENDING')), answeredCall('SUCCESS', 'upper', statusReport('PENDING')));
    expect(outcome).toMatchObject({ verdict: 'FAIL', reason: `the service answered ${FIRST}; the SDK reported status PENDING; to ${OTHER} it reported status PENDING` });
  });
  it('the upper-case call got no usable answer (none to read): FAIL naming the first report alone', () => {
    const outcome = successReported(answeredCall('SUCCESS', 'lower', errorReport('unknown status success')));
    expect(outcome).toMatchObject({ verdict: 'FAIL', reason: `the service answered ${FIRST}; the SDK reported an error (unknown status success)` });
  });
});

describe('an answer that carries no status (a refusal, an unknown id, a 5xx, a 2xx without one) is never reported as one (their judges)', () => {
  it.each(['client.status.refusal', 'client.status.unknown-id', 'client.status.server-error', 'client.status.unreadable'])('%s: an error PASSes; a status FAILs, saying what the SDK reported', async (id) => {
    expect(await judgedBy(id, answeredCall('SUCCESS', 'lower', errorReport('refused')))).toMatchObject({ verdict: 'PASS' });
    expect((await judgedBy(id, answeredCall('SUCCESS', 'lower', statusReport('SUCCESS')))).reason).toMatch(/^the service answered .*; the SDK reported status SUCCESS: /);
  });
});
