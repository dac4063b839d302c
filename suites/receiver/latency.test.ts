// §6 rule 3 and §8: reply 200 within a few seconds and do heavy work afterwards. Scaled time:
// workMs 100000 x timeScale 0.01 = 1 s of work per applied outcome.
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../../harness/receiver/index.ts';
import { TIME_SCALE, TOKEN, callback, newId, receiverPool, seed } from './helpers.ts';

const start = receiverPool();
const WORK_MS = 100_000;
const WORK_REAL_MS = WORK_MS * TIME_SCALE;

describe('§6 rule 3: the reply comes before the work', () => {
  it('answers 200 well before the fulfilment work ends', async () => {
    const r = await start({ workMs: WORK_MS });
    const id = newId('lat');
    await seed(r, id);
    const t0 = performance.now();
    const answer = await callback(r, { transaction_id: id });
    expect(answer.status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(WORK_REAL_MS / 2);
  });
  it('keeps answering fast while work for other callbacks is in flight', async () => {
    const r = await start({ workMs: WORK_MS });
    const ids = Array.from({ length: 20 }, () => newId('lat'));
    for (const id of ids) await seed(r, id);
    const t0 = performance.now();
    const answers = await Promise.all(ids.map((id) => callback(r, { transaction_id: id })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(performance.now() - t0).toBeLessThan(WORK_REAL_MS / 2);
  });
});

describe('clean stop: close() finishes in-flight work', () => {
  it('resolves only after the work of an applied callback is done', async () => {
    const r = await startReceiver({ callbackToken: TOKEN, timeScale: TIME_SCALE, workMs: 40_000, log: () => {} });
    const id = newId('lat');
    await seed(r, id);
    await callback(r, { transaction_id: id });
    const t0 = performance.now();
    await r.close();
    // 400 ms of work started just before; allow timer slack.
    expect(performance.now() - t0).toBeGreaterThan(300);
  });
  it('closes at once when no work is in flight, and twice is harmless', async () => {
    const r = await startReceiver({ callbackToken: TOKEN, timeScale: TIME_SCALE, log: () => {} });
    const t0 = performance.now();
    await Promise.all([r.close(), r.close()]);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
