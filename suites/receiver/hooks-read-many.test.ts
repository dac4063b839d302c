// POST {hooks}/transactions/read: many records in one request (a storm reads back thousands), in
// the order asked, null for an id not held; a bad body 400; GET /transactions/read still reads the id "read".
import { describe, expect, it } from 'vitest';
import { newId, receiverPool, seed, send } from './helpers.ts';

const start = receiverPool();
const post = (url: string, body: string) => send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('hooks: read many at once', () => {
  it('the records in the order asked, null for an id not held', async () => {
    const r = await start();
    const [a, b] = [newId('many'), newId('many')];
    await seed(r, a);
    await seed(r, b);
    const answer = await post(`${r.hooksUrl}/transactions/read`, JSON.stringify({ transaction_ids: [b, 'never-seeded', a] }));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ records: [{ transaction_id: b, state: 'pending', actions: 0 }, null, { transaction_id: a, state: 'pending', actions: 0 }] });
  });
  it.each([
    ['not JSON', '{', 'body is not JSON'],
    ['no ids', '{"transaction_ids": []}', 'transaction_ids must be an array of 1 to 1000 strings'],
    ['too many', JSON.stringify({ transaction_ids: Array.from({ length: 1001 }, (_, i) => `x${i}`) }), 'transaction_ids must be an array of 1 to 1000 strings'],
    ['a number among them', '{"transaction_ids": ["a", 7]}', 'transaction_ids must be an array of 1 to 1000 strings'],
  ])('%s: 400 naming it', async (_what, body, message) => {
    const r = await start();
    const answer = await post(`${r.hooksUrl}/transactions/read`, body);
    expect([answer.status, JSON.parse(answer.body).error.message]).toEqual([400, message]);
  });
  it('GET /transactions/read is still the record of the id "read"', async () => {
    const r = await start();
    expect((await send(`${r.hooksUrl}/transactions/read`)).status).toBe(404);
    await seed(r, 'read');
    expect(JSON.parse((await send(`${r.hooksUrl}/transactions/read`)).body)).toMatchObject({ transaction_id: 'read', state: 'pending' });
  });
});
