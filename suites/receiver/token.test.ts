// §6 rule 1 (and §7): X-Callback-Token absent or different → 403 Forbidden, no action.
import { describe, expect, it } from 'vitest';
import { tokensEqual } from '../../harness/receiver/index.ts';
import { TOKEN, callback, newId, rawGet, rawRequest, receiverPool, recordOf, seed, targetOf, type TokenHeader } from './helpers.ts';
import { composeCallbackUrl } from '../../harness/callback/index.ts';

const start = receiverPool();

async function refusedWithoutAction(token: TokenHeader, status = 'SUCCESS'): Promise<void> {
  const r = await start();
  const id = newId('tok');
  await seed(r, id);
  const answer = await callback(r, { transaction_id: id, status }, { token });
  expect(answer.status, 'answer').toBe(403);
  expect(await recordOf(r, id), 'record').toEqual({ status: 200, state: 'pending', actions: 0 });
}

describe('§6 rule 1: a missing or different token gets 403 and no action', () => {
  it('accepts the configured token (200, applied)', async () => {
    const r = await start();
    const id = newId('tok');
    await seed(r, id);
    expect((await callback(r, { transaction_id: id })).status).toBe(200);
    expect(await recordOf(r, id)).toEqual({ status: 200, state: 'SUCCESS', actions: 1 });
  });
  it('refuses an absent header', () => refusedWithoutAction(null));
  it('refuses an empty header', () => refusedWithoutAction(''));
  it('refuses a different token', () => refusedWithoutAction('something-else'));
  it('refuses the token one character short', () => refusedWithoutAction(TOKEN.slice(0, -1)));
  it('refuses the token with one character more', () => refusedWithoutAction(`${TOKEN}7`));
  it('refuses the token in another letter case', () => refusedWithoutAction(TOKEN.toUpperCase()));
  it('refuses a FAILED callback with a wrong token too', () => refusedWithoutAction('wrong', 'FAILED'));
  it('refuses the header sent twice, even with the right value twice', () => refusedWithoutAction([TOKEN, TOKEN]));
  it('refuses the header sent twice with the right value first', () => refusedWithoutAction([TOKEN, 'x']));
  it('refuses the right value joined with another in one header line', () => refusedWithoutAction(`${TOKEN}, x`));
  it('refuses the token with a trailing NBSP byte (0xA0)', async () => {
    const r = await start();
    const id = newId('tok');
    await seed(r, id);
    const url = composeCallbackUrl(r.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'ok' });
    const header = Buffer.concat([Buffer.from(`X-Callback-Token: ${TOKEN}`), Buffer.from([0xa0])]);
    expect((await rawRequest(r.url, rawGet(targetOf(url), [header]))).status).toBe(403);
    expect((await recordOf(r, id)).state).toBe('pending');
  });
  it('checks the token before the transaction: unknown id with no token is 403, not 404', async () => {
    const r = await start();
    expect((await callback(r, { transaction_id: newId('unknown') }, { token: null })).status).toBe(403);
  });
  it('matches the header name case-insensitively (HTTP field names)', async () => {
    const r = await start();
    const id = newId('tok');
    await seed(r, id);
    const url = composeCallbackUrl(r.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'ok' });
    expect((await rawRequest(r.url, rawGet(targetOf(url), [`x-CALLBACK-token: ${TOKEN}`]))).status).toBe(200);
  });
});

describe('§6 rule 1: the comparison is constant-time and length-safe', () => {
  it('tokensEqual is true only for identical strings', () => {
    expect(tokensEqual(TOKEN, TOKEN)).toBe(true);
    expect(tokensEqual(TOKEN, `${TOKEN}x`)).toBe(false);
    expect(tokensEqual(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokensEqual('', TOKEN)).toBe(false);
    expect(tokensEqual(TOKEN.toLowerCase(), TOKEN)).toBe(false);
  });
  it('does not throw for inputs of different lengths (timingSafeEqual would)', () => {
    expect(() => tokensEqual('a', 'a much longer configured token')).not.toThrow();
  });
});
