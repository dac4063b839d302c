// §6 URL composition and Parameters, receiver side: the query is parsed by the shared parser
// (harness/callback): `+` is a space, %XX is UTF-8, the service's parameters come after any
// the callback URL already had, and unknown parameters are ignored.
import { describe, expect, it } from 'vitest';
import { TOKEN, callback, newId, receiverPool, recordOf, seed, send, stateOf, tokenHeaders } from './helpers.ts';

const start = receiverPool();

describe('§6 URL composition: the callback URL may carry a query of its own', () => {
  it.each([
    ['?tenant=7', 'a parameter before ours'],
    ['?', 'a trailing ?'],
    ['?a=1&b=2&', 'a trailing &'],
    ['?status=PENDING&transaction_id=nope', 'our own names, which the appended values override'],
  ])('applies the outcome with %j (%s)', async (suffix) => {
    const r = await start();
    const id = newId('par');
    await seed(r, id);
    const answer = await callback(r, { transaction_id: id, status: 'FAILED' }, { callbackUrl: r.callbackUrl + suffix });
    expect(answer.status).toBe(200);
    expect(await recordOf(r, id)).toEqual({ status: 200, state: 'FAILED', actions: 1 });
  });
  it('ignores parameters after the three', async () => {
    const r = await start();
    const id = newId('par');
    await seed(r, id);
    const answer = await send(`${r.callbackUrl}?transaction_id=${encodeURIComponent(id)}&status=SUCCESS&message=ok&utm=x&flag`, {
      headers: tokenHeaders(TOKEN),
    });
    expect(answer.status).toBe(200);
    expect(await stateOf(r, id)).toBe('SUCCESS');
  });
});

describe('§6 Parameters: transaction_id with reserved characters is matched exactly', () => {
  it.each([
    'A&B=C', 'a+b', 'a b', '100%', 'x?y#z', 'path/to/id', 'é-ü-€', '😀', "quote'\"", 'semi;colon,comma', '%41', '+',
  ])('matches %j', async (raw) => {
    const r = await start();
    const id = `${raw}-${newId()}`;
    await seed(r, id);
    expect((await callback(r, { transaction_id: id })).status).toBe(200);
    expect(await recordOf(r, id)).toEqual({ status: 200, state: 'SUCCESS', actions: 1 });
  });
  it('does not match an id that only differs by decoding (%2B is +, + is space)', async () => {
    const r = await start();
    const id = newId('a+b');
    await seed(r, id);
    // Sent with a literal + : that is a space, so another id.
    const answer = await send(`${r.callbackUrl}?transaction_id=${id}&status=SUCCESS&message=x`, { headers: tokenHeaders(TOKEN) });
    expect(answer.status).toBe(404);
    expect(await stateOf(r, id)).toBe('pending');
  });
});

describe('§6 Parameters: message is form-encoded (spaces as +)', () => {
  it.each(['Payment received', 'a+b=c&d', '100% done', 'Paiement reçu ✓', ''])('accepts message %j', async (message) => {
    const r = await start();
    const id = newId('msg');
    await seed(r, id);
    expect((await callback(r, { transaction_id: id, message })).status).toBe(200);
    expect(await stateOf(r, id)).toBe('SUCCESS');
  });
  it('accepts a callback without message', async () => {
    const r = await start();
    const id = newId('msg');
    await seed(r, id);
    const answer = await send(`${r.callbackUrl}?transaction_id=${encodeURIComponent(id)}&status=SUCCESS`, { headers: tokenHeaders(TOKEN) });
    expect(answer.status).toBe(200);
  });
  it('accepts malformed percent-encoding in message (kept literal)', async () => {
    const r = await start();
    const id = newId('msg');
    await seed(r, id);
    const answer = await send(`${r.callbackUrl}?transaction_id=${encodeURIComponent(id)}&status=SUCCESS&message=%ZZ%E2%82`, {
      headers: tokenHeaders(TOKEN),
    });
    expect(answer.status).toBe(200);
  });
});
