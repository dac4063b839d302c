// §4.3 / §6 Parameters and Semantics: status is SUCCESS or FAILED and is applied as sent;
// anything else, and an unknown transaction_id, changes nothing (DESIGN.md accepts any 2xx or
// 4xx there; this receiver answers 400 for a bad status and 404 for an unknown id).
import { describe, expect, it } from 'vitest';
import { TOKEN, callback, newId, receiverPool, recordOf, seed, send, stateOf, tokenHeaders } from './helpers.ts';

const start = receiverPool();

describe('§6 Semantics: SUCCESS and FAILED are applied as sent', () => {
  it.each(['SUCCESS', 'FAILED'])('applies %s', async (status) => {
    const r = await start();
    const id = newId('out');
    await seed(r, id);
    expect((await callback(r, { transaction_id: id, status })).status).toBe(200);
    expect(await recordOf(r, id)).toEqual({ status: 200, state: status, actions: 1 });
  });
});

describe('§4.3: a status other than exactly SUCCESS or FAILED changes nothing (400)', () => {
  it.each(['PENDING', 'success', 'Failed', 'SUCCESS ', ' SUCCESS', 'SUCCES', '', 'SUCCESS,FAILED', 'ＳＵＣＣＥＳＳ'])('status %j', async (status) => {
    const r = await start();
    const id = newId('out');
    await seed(r, id);
    const answer = await callback(r, { transaction_id: id, status });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.code).toBe('ERR_UNKNOWN_STATUS');
    expect(await recordOf(r, id)).toEqual({ status: 200, state: 'pending', actions: 0 });
  });
  it('answers 400 when status is missing', async () => {
    const r = await start();
    const id = newId('out');
    await seed(r, id);
    const answer = await send(`${r.callbackUrl}?transaction_id=${encodeURIComponent(id)}&message=x`, { headers: tokenHeaders(TOKEN) });
    expect(answer.status).toBe(400);
    expect(await stateOf(r, id)).toBe('pending');
  });
});

describe('§6 rule 2: an unknown transaction_id changes nothing (404)', () => {
  it('answers 404 and creates no record', async () => {
    const r = await start();
    const id = newId('unknown');
    const answer = await callback(r, { transaction_id: id });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).error.code).toBe('ERR_UNKNOWN_TRANSACTION');
    expect(await stateOf(r, id)).toBe('absent');
  });
  it('leaves other records alone', async () => {
    const r = await start();
    const id = newId('out');
    await seed(r, id);
    await callback(r, { transaction_id: `${id}-other` });
    expect(await stateOf(r, id)).toBe('pending');
  });
  it('answers 400 when transaction_id is missing', async () => {
    const r = await start();
    const answer = await send(`${r.callbackUrl}?status=SUCCESS&message=x`, { headers: tokenHeaders(TOKEN) });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.code).toBe('ERR_MISSING_TRANSACTION_ID');
  });
});
