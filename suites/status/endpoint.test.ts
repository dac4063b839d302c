// The harness's own status endpoint (receiver.confirm): it checks each query as the service
// would (§5 applied to §4.2 as the suite takes it) and refuses a bad one as the service would,
// answers a good one as the case scripted, or truthfully, and records what it received.
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { leastMeasured } from '../support/timing.ts';
import { findAlternative, profileOf, signBody } from '../../harness/signing/index.ts';
import {
  queryExchange, signedStatusQuery, startStatusEndpoint, statusQueryBody, type ReceivedQuery, type RunningStatusEndpoint, type StatusEndpoint, type StatusForm, type StatusQuery,
} from '../../harness/status/index.ts';

const CREDENTIALS = { clientId: 2, clientKey: 'test_ck_endpoint', secretKey: 'test_sk_endpoint-secret' };
const started: RunningStatusEndpoint[] = [];
afterAll(() => Promise.all(started.map((e) => e.close())));

async function endpointWith(endpoint?: StatusEndpoint, form?: StatusForm): Promise<RunningStatusEndpoint> {
  const e = await startStatusEndpoint({ host: '127.0.0.1', port: 0, ...CREDENTIALS, ...(endpoint ? { endpoint } : {}), ...(form ? { form } : {}) });
  started.push(e);
  return e;
}

function query(e: RunningStatusEndpoint, transactionId: string, overrides: Partial<typeof CREDENTIALS> = {}): StatusQuery {
  return signedStatusQuery({ baseUrl: e.url, endpoint: e.endpoint, transactionId, ...CREDENTIALS, ...overrides });
}

async function ask(q: StatusQuery): Promise<{ status: number; body: string }> {
  const res = await request(q.url, { method: q.method, headers: q.headers, body: q.body ?? null });
  return { status: res.statusCode, body: await res.body.text() };
}

let n = 0;
const newId = () => `ep-${process.pid}-${++n}`;

const UPPER_404: StatusForm = { letterCase: 'upper', unknownId: 404 };

/**
 * Sends the query for `id` and closes its connection once the endpoint holds its answer (a
 * client's own time limit): never before the endpoint read it, which a fixed client time-out of
 * 50 or 100 ms could not promise on a loaded machine.
 */
async function askAndGiveUp(e: RunningStatusEndpoint, id: string): Promise<ReceivedQuery> {
  const q = query(e, id);
  const giveUp = new AbortController();
  const sent = request(q.url, { method: q.method, headers: q.headers, body: q.body ?? null, signal: giveUp.signal });
  const until = performance.now() + 5000;
  while (e.queriesFor(id)[0]?.answer.kind !== 'held') {
    if (performance.now() > until) throw new Error(`the endpoint held no answer for ${id} within 5 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
  giveUp.abort();
  await expect(sent).rejects.toThrow();
  return e.queriesFor(id)[0]!;
}

describe('truthful answers: what the harness sent for the id, in the form the best evidence gives the service', () => {
  it('success for a SUCCESS callback, failed for a FAILED one, pending for any other, error_code 421 for an id never sent (lower case, 421: harness/positions)', async () => {
    const e = await endpointWith();
    expect(e.form).toEqual({ letterCase: 'lower', unknownId: 421 });
    const [ok, failed, odd, never] = [newId(), newId(), newId(), newId()];
    e.told(ok, 'SUCCESS');
    e.told(failed, 'FAILED');
    e.told(odd, 'success');
    expect(await ask(query(e, ok))).toEqual({ status: 200, body: JSON.stringify({ success: true, transaction_id: ok, status: 'success' }) });
    expect(JSON.parse((await ask(query(e, failed))).body)).toMatchObject({ status: 'failed' });
    expect(JSON.parse((await ask(query(e, odd))).body)).toMatchObject({ status: 'pending' });
    const unknown = await ask(query(e, never));
    expect(unknown.status).toBe(200);
    expect(JSON.parse(unknown.body)).toMatchObject({ success: false, error_code: 421 });
    expect(e.queriesFor(ok)).toHaveLength(1);
    expect(e.strayQueries(0).map((q) => q.askedId)).toContain(never);
  });
  it('the other form where the target states it (confirms.statusForm): SUCCESS, FAILED, 404 for an id never sent', async () => {
    const e = await endpointWith(undefined, UPPER_404);
    const [ok, failed, never] = [newId(), newId(), newId()];
    e.told(ok, 'SUCCESS');
    e.told(failed, 'FAILED');
    expect(await ask(query(e, ok))).toEqual({ status: 200, body: JSON.stringify({ success: true, transaction_id: ok, status: 'SUCCESS' }) });
    expect(JSON.parse((await ask(query(e, failed))).body)).toMatchObject({ status: 'FAILED' });
    const unknown = await ask(query(e, never));
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ success: false, error_code: 404 });
  });
  it('echoes the id as asked, reserved characters and all', async () => {
    const e = await endpointWith();
    const id = `${newId()} &/?=+%é`;
    e.told(id, 'SUCCESS');
    expect(JSON.parse((await ask(query(e, id))).body)).toMatchObject({ transaction_id: id, status: 'success' });
  });
});

describe('scripted answers, per transaction', () => {
  it('a status, an unknown id, a 5xx', async () => {
    const e = await endpointWith();
    const [a, b, c] = [newId(), newId(), newId()];
    e.script(a, { kind: 'status', status: 'PENDING' });
    e.script(b, { kind: 'unknown-id' });
    e.script(c, { kind: 'server-error', httpStatus: 503 });
    expect(JSON.parse((await ask(query(e, a))).body)).toMatchObject({ status: 'pending' });
    expect(JSON.parse((await ask(query(e, b))).body)).toMatchObject({ success: false, error_code: 421 });
    expect((await ask(query(e, c))).status).toBe(503);
    expect(e.queriesFor(b)[0]!.answer).toMatchObject({ kind: 'answered', httpStatus: 200 });
  });
  it('dropped: the connection closes with no answer', async () => {
    const e = await endpointWith();
    const id = newId();
    e.script(id, { kind: 'dropped' });
    await expect(ask(query(e, id))).rejects.toThrow();
    expect(e.queriesFor(id)[0]!.answer.kind).toBe('dropped');
  });
  it('late: the answer is held, then given; a client that gives up first is recorded as having abandoned it', async () => {
    const e = await endpointWith();
    const [patient, hasty] = [newId(), newId()];
    e.script(patient, { kind: 'late', holdMs: 200, status: 'SUCCESS' });
    e.script(hasty, { kind: 'late', holdMs: 5000, status: 'SUCCESS' });
    const t0 = performance.now();
    expect(JSON.parse((await ask(query(e, patient))).body)).toMatchObject({ status: 'success' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
    const gaveUp = await askAndGiveUp(e, hasty);
    await gaveUp.done;
    expect(gaveUp.answer.kind).toBe('abandoned');
  });
  it('the kit\'s own delay (delayFor, a loaded machine): an answer ready only after the receiver closed is recorded abandoned, with both times, and marked no hold of a case', async () => {
    const slow = newId();
    // 600 ms: room for the client's close to reach the endpoint before the answer is ready.
    const e = await startStatusEndpoint({ host: '127.0.0.1', port: 0, ...CREDENTIALS, delayFor: (id) => (id === slow ? 600 : 0) });
    started.push(e);
    const prompt = newId();
    e.told(slow, 'SUCCESS');
    e.told(prompt, 'SUCCESS');
    const asked = await askAndGiveUp(e, slow);
    await asked.done;
    expect(asked.answer).toEqual({ kind: 'abandoned', afterMs: expect.any(Number), answerAfterMs: expect.any(Number) });
    const a = asked.answer as { afterMs: number; answerAfterMs: number };
    expect(a.afterMs).toBeLessThan(a.answerAfterMs);
    expect(a.answerAfterMs).toBeGreaterThanOrEqual(leastMeasured(600));
    expect(asked.heldMs).toBeUndefined();
    expect(queryExchange(asked, asked.at).error).toMatch(/^the receiver closed the connection after \d+ ms; the harness had its answer ready only after \d+ ms, so it was never given$/);
    // Another id is answered at once, and a receiver still waiting gets the delayed answer.
    expect(JSON.parse((await ask(query(e, prompt))).body)).toMatchObject({ status: 'success' });
    const t0 = performance.now();
    expect(JSON.parse((await ask(query(e, slow))).body)).toMatchObject({ status: 'success' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(leastMeasured(600));
    expect(e.queriesFor(slow)[1]!.answer).toMatchObject({ kind: 'answered', httpStatus: 200 });
  });
  it('close() ends a held answer at once', async () => {
    const e = await endpointWith();
    const id = newId();
    e.script(id, { kind: 'late', holdMs: 60_000, status: 'SUCCESS' });
    const pending = ask(query(e, id)).catch(() => 'closed');
    while (e.queriesFor(id).length === 0) await new Promise((r) => setTimeout(r, 5));
    const t0 = performance.now();
    await e.close();
    expect(await pending).toBe('closed');
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

describe('queries the service would refuse are refused, and say why', () => {
  it('a signature over the pairs in body order: 401, diagnosed as the labelled alternative body-order', async () => {
    const e = await endpointWith();
    const id = newId();
    e.told(id, 'SUCCESS');
    const q = query(e, id);
    q.headers.authorization = signBody(statusQueryBody(id, 2), CREDENTIALS.secretKey, { clientKey: CREDENTIALS.clientKey, profile: profileOf(findAlternative('body-order')!) }).authorization!;
    const answer = await ask(q);
    expect(answer.status).toBe(401);
    const problem = e.queriesFor(id)[0]!.problem!;
    expect(problem.kind).toBe('signature');
    expect(problem.detail).toContain('`body-order`');
    // The refusal names no key or signature; the evidence shows the query as it came.
    expect(answer.body).not.toContain(CREDENTIALS.secretKey);
    const evidence = queryExchange(e.queriesFor(id)[0]!, 0);
    expect(evidence).toMatchObject({ label: 'status query received', response: { status: 401 }, problem: expect.stringContaining('signature') });
  });
  it.each([
    ['another client key', { clientKey: 'test_ck_someone-else' }, 'client-key', 401],
    ['another secret', { secretKey: 'test_sk_not-the-secret' }, 'signature', 401],
    ['another client_id, correctly signed', { clientId: 3 }, 'client-id', 403],
  ] as const)('%s: refused (%s)', async (_what, overrides, kind, status) => {
    const e = await endpointWith();
    const id = newId();
    e.told(id, 'SUCCESS');
    expect((await ask(query(e, id, overrides))).status).toBe(status);
    expect(e.queriesFor(id)[0]!.problem?.kind).toBe(kind);
  });
  it('no Authorization, a body that is not JSON, another route', async () => {
    const e = await endpointWith();
    const id = newId();
    e.told(id, 'SUCCESS');
    const q = query(e, id);
    const { authorization: _dropped, ...unsigned } = q.headers;
    expect((await ask({ ...q, headers: unsigned })).status).toBe(401);
    expect((await ask({ ...q, body: 'transaction_id=x' })).status).toBe(400);
    expect((await ask({ ...q, url: `${e.url}/api/v1.0/status/` })).status).toBe(404);
    expect(e.queriesFor(id).map((x) => x.problem?.kind)).toEqual(['authorization']);
    expect(e.strayQueries(0).map((x) => x.problem?.kind)).toEqual(['body', 'route']);
  });
});

describe('a target\'s own endpoint: another method, path and pointer', () => {
  it('GET with the pairs in the query, signed over the body they would make; the status written at the pointer', async () => {
    const e = await endpointWith({ method: 'GET', path: '/v2/status', pointer: '/data/state' });
    const id = `${newId()} &x`;
    e.told(id, 'FAILED');
    const answer = await ask(query(e, id));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ success: true, transaction_id: id, data: { state: 'failed' } });
    expect(e.queriesFor(id)[0]!.problem).toBeUndefined();
    // POST to that path is not the endpoint.
    const post = signedStatusQuery({ baseUrl: e.url, endpoint: { method: 'POST', path: '/v2/status', pointer: '/status' }, transactionId: id, ...CREDENTIALS });
    expect((await ask(post)).status).toBe(404);
  });
});
