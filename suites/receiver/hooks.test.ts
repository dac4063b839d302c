// The test hooks of DESIGN.md: POST {hooks}/transactions seeds a pending record,
// GET {hooks}/transactions/{percent-encoded id} shows state and actions.
import { describe, expect, it } from 'vitest';
import { MAX_RECORDS, ReceiverStore as TransactionStore } from '../../harness/receiver/index.ts';
import { callback, newId, rawGet, rawRequest, receiverPool, recordOf, seed, send } from './helpers.ts';

const start = receiverPool();

function post(url: string, body: string, contentType = 'application/json') {
  return send(url, { method: 'POST', headers: { 'content-type': contentType }, body });
}

describe('DESIGN.md hooks: POST {hooks}/transactions', () => {
  it('answers 201 with the pending record', async () => {
    const r = await start();
    const answer = await post(`${r.hooksUrl}/transactions`, JSON.stringify({ transaction_id: 'H-1', amount: '10.00' }));
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ transaction_id: 'H-1', amount: '10.00', state: 'pending', actions: 0 });
  });
  it('answers 409 when the id is already held, and keeps the record', async () => {
    const r = await start();
    await seed(r, 'H-2');
    await callback(r, { transaction_id: 'H-2' });
    expect((await post(`${r.hooksUrl}/transactions`, JSON.stringify({ transaction_id: 'H-2', amount: '1.00' }))).status).toBe(409);
    expect(await recordOf(r, 'H-2')).toEqual({ status: 200, state: 'SUCCESS', actions: 1 });
  });
  it.each([
    ['not JSON', '{"transaction_id":'],
    ['an array', '[]'],
    ['null', 'null'],
    ['no transaction_id', '{"amount":"1.00"}'],
    ['an empty transaction_id', '{"transaction_id":"","amount":"1.00"}'],
    ['a numeric transaction_id', '{"transaction_id":7,"amount":"1.00"}'],
    ['no amount', '{"transaction_id":"H-x"}'],
    ['a numeric amount', '{"transaction_id":"H-x","amount":10}'],
    ['a transaction_id over 1024 characters', JSON.stringify({ transaction_id: `H-x${'y'.repeat(1022)}`, amount: '1.00' })],
  ])('answers 400 for %s', async (_label, body) => {
    const r = await start();
    const answer = await post(`${r.hooksUrl}/transactions`, body);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.code).toBe('ERR_BAD_BODY');
    expect((await recordOf(r, 'H-x')).status).toBe(404);
  });
  it('answers 413 for a body over 64 KiB', async () => {
    const r = await start();
    const answer = await post(`${r.hooksUrl}/transactions`, JSON.stringify({ transaction_id: 'big', amount: 'x'.repeat(70_000) }));
    expect(answer.status).toBe(413);
  });
  it('answers 405 to GET on the collection', async () => {
    const r = await start();
    const answer = await send(`${r.hooksUrl}/transactions`);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
  });
});

describe('DESIGN.md hooks: GET {hooks}/transactions/{percent-encoded id}', () => {
  it('answers 404 for an id it does not hold', async () => {
    const r = await start();
    expect((await send(`${r.hooksUrl}/transactions/${newId('none')}`)).status).toBe(404);
  });
  it('answers 200 with exactly transaction_id, state and actions', async () => {
    const r = await start();
    const id = newId('get');
    await seed(r, id);
    const answer = await send(`${r.hooksUrl}/transactions/${encodeURIComponent(id)}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ transaction_id: id, state: 'pending', actions: 0 });
  });
  it.each(['a/b', 'a%2Fb', '?q=1', '#frag', 'space here', '+plus', 'é😀', '%', 'a;b=c', '...'])('finds id %j', async (raw) => {
    const r = await start();
    await seed(r, raw);
    const answer = await send(`${r.hooksUrl}/transactions/${encodeURIComponent(raw)}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).transaction_id).toBe(raw);
  });
  // WHATWG URL clients resolve `.`, `..`, `%2E%2E` as dot segments, so only a raw request
  // can ask for these ids; the receiver itself decodes them like any other.
  it.each(['.', '..'])('finds id %j when asked with %2E (raw request)', async (raw) => {
    const r = await start();
    await seed(r, raw);
    const target = `/_conformance/transactions/${raw.replace(/\./g, '%2E')}`;
    const answer = await rawRequest(r.url, rawGet(target, []));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).transaction_id).toBe(raw);
  });
  it('answers 400 for malformed percent-encoding', async () => {
    const r = await start();
    expect((await send(`${r.hooksUrl}/transactions/%E2%82`)).status).toBe(400);
  });
  it('answers 405 to DELETE', async () => {
    const r = await start();
    const answer = await send(`${r.hooksUrl}/transactions/x`, { method: 'DELETE' });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET');
  });
});

describe('hooks off (a black-box receiver)', () => {
  it('serves no hooks and reports an empty hooksUrl', async () => {
    const r = await start({ hooks: false });
    expect(r.hooksUrl).toBe('');
    const answer = await post(`${r.url}/_conformance/transactions`, JSON.stringify({ transaction_id: 'x', amount: '1' }));
    expect(answer.status).toBe(404);
  });
  it('serves them at another hooksPath when configured', async () => {
    const r = await start({ hooksPath: '/test-hooks' });
    expect(r.hooksUrl).toBe(`${r.url}/test-hooks`);
    await seed(r, 'moved');
    expect((await recordOf(r, 'moved')).status).toBe(200);
  });
});

describe('the hook store is bounded (README "Limits")', () => {
  it('an id of exactly 1024 characters is seeded', async () => {
    const r = await start();
    const id = 'L'.repeat(1024);
    expect((await post(`${r.hooksUrl}/transactions`, JSON.stringify({ transaction_id: id, amount: '1.00' }))).status).toBe(201);
  });
  it('beyond its record limit the oldest record is forgotten, the newest kept', () => {
    const store = new TransactionStore(3);
    for (const id of ['a', 'b', 'c', 'd']) store.seed(id, '1.00');
    expect(store.size).toBe(3);
    expect(store.get('a')).toBeUndefined();
    expect(store.get('d')?.state).toBe('pending');
    store.createApplied('e', 'SUCCESS');
    expect([store.size, store.get('b'), store.get('e')?.actions]).toEqual([3, undefined, 1]);
    expect(MAX_RECORDS).toBe(100_000);
  });
});
