// The receiver's shedding mode (a correct mode, config `shedding`): callbacks hold one of a small
// pool of connections before their reply, and one that finds `volume.shedAbove` already waiting
// is answered 503 with Retry-After, changing nothing; sent again later, it is applied once.
import { describe, expect, it } from 'vitest';
import { callback, newId, receiverPool, recordOf, seed } from './helpers.ts';

const start = receiverPool();

describe('shedding: 503 + Retry-After when too many wait for a connection, nothing changed; applied once when sent again', () => {
  it('of four at once with one connection and one waiter allowed: two 200, two 503 with Retry-After, their records pending', async () => {
    const r = await start({ shedding: true, volume: { poolSize: 1, holdMs: 100, shedAbove: 1, retryAfterS: 2 } });
    const ids = [newId('shed'), newId('shed'), newId('shed'), newId('shed')];
    for (const id of ids) await seed(r, id);
    const answers = await Promise.all(ids.map((id) => callback(r, { transaction_id: id })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 503, 503]);
    for (const [i, answer] of answers.entries()) {
      const view = await recordOf(r, ids[i]!);
      if (answer.status === 503) {
        expect(answer.headers['retry-after']).toBe('2');
        expect([view.state, view.actions]).toEqual(['pending', 0]);
      } else {
        expect([view.state, view.actions]).toEqual(['SUCCESS', 1]);
      }
    }
    // Sent again once the crowd has gone: applied, once.
    for (const [i, answer] of answers.entries()) {
      if (answer.status !== 503) continue;
      expect((await callback(r, { transaction_id: ids[i]! })).status).toBe(200);
      expect((await recordOf(r, ids[i]!)).actions).toBe(1);
    }
  });
  it('without shedding the same four all wait and all get 200 (the control)', async () => {
    const r = await start({ faults: ['pool-held-before-reply'], volume: { poolSize: 1, holdMs: 100, shedAbove: 1 } });
    const ids = [newId('shed'), newId('shed'), newId('shed'), newId('shed')];
    for (const id of ids) await seed(r, id);
    const answers = await Promise.all(ids.map((id) => callback(r, { transaction_id: id })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });
  it('refuses a volume size that is not a positive integer, naming the field', async () => {
    await expect(start({ volume: { poolSize: 0 } })).rejects.toThrow('receiver config: volume.poolSize: must be an integer >= 1 (got 0)');
  });
});
