// §6 rule 2: act only while the record is pending; duplicates (sequential or concurrent)
// have no further effect. §6 Guarantee: the same callback may arrive more than once.
import { describe, expect, it } from 'vitest';
import { callback, newId, receiverPool, recordOf, seed } from './helpers.ts';

const start = receiverPool();

describe('§6 rule 2: sequential duplicates apply once', () => {
  it('answers 200 to each of five duplicates and counts one action', async () => {
    const r = await start();
    const id = newId('idem');
    await seed(r, id);
    for (let i = 0; i < 5; i++) expect((await callback(r, { transaction_id: id })).status, `delivery ${i + 1}`).toBe(200);
    expect(await recordOf(r, id)).toEqual({ status: 200, state: 'SUCCESS', actions: 1 });
  });
  it('keeps the first terminal state when a later callback says otherwise', async () => {
    const r = await start();
    const id = newId('idem');
    await seed(r, id);
    expect((await callback(r, { transaction_id: id, status: 'FAILED' })).status).toBe(200);
    expect((await callback(r, { transaction_id: id, status: 'SUCCESS' })).status).toBe(200);
    expect(await recordOf(r, id)).toEqual({ status: 200, state: 'FAILED', actions: 1 });
  });
  it('tells a duplicate from a first delivery in the answer body', async () => {
    const r = await start();
    const id = newId('idem');
    await seed(r, id);
    expect(JSON.parse((await callback(r, { transaction_id: id })).body)).toEqual({ result: 'applied', state: 'SUCCESS' });
    expect(JSON.parse((await callback(r, { transaction_id: id })).body)).toEqual({ result: 'duplicate', state: 'SUCCESS' });
  });
});

describe('§6 rule 2: concurrent duplicates apply once (synchronous check-and-set)', () => {
  it('applies 20 concurrent duplicates exactly once, answering 200 to all', async () => {
    const r = await start();
    const id = newId('idem');
    await seed(r, id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => callback(r, { transaction_id: id })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await recordOf(r, id)).toEqual({ status: 200, state: 'SUCCESS', actions: 1 });
  });
  it('applies one of two concurrent conflicting outcomes, never both', async () => {
    const r = await start();
    const id = newId('idem');
    await seed(r, id);
    await Promise.all([callback(r, { transaction_id: id, status: 'SUCCESS' }), callback(r, { transaction_id: id, status: 'FAILED' })]);
    const view = await recordOf(r, id);
    expect(view.actions).toBe(1);
    expect(['SUCCESS', 'FAILED']).toContain(view.state);
  });
  it('keeps records apart: concurrent callbacks for different ids each apply once', async () => {
    const r = await start();
    const ids = Array.from({ length: 10 }, () => newId('idem'));
    for (const id of ids) await seed(r, id);
    await Promise.all(ids.flatMap((id) => [callback(r, { transaction_id: id }), callback(r, { transaction_id: id })]));
    for (const id of ids) expect(await recordOf(r, id), id).toEqual({ status: 200, state: 'SUCCESS', actions: 1 });
  });
});
