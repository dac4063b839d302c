// The reference receiver's confirming mode (§6 rule 5, config `confirms`): it asks the service's
// status endpoint about a pending record before applying a SUCCESS (a FAILED too, when told),
// signed as collect, within a time limit of its own, and applies only what the answer confirms.
// Here the service's endpoint is the harness's own (harness/status), so the queries are checked
// as the service checks them.
import { afterAll, describe, expect, it } from 'vitest';
import { ReceiverConfigError, resolveReceiverConfig, type ReceiverConfig } from '../../harness/receiver/index.ts';
import { startStatusEndpoint, type RunningStatusEndpoint, type StatusEndpoint } from '../../harness/status/index.ts';
import { runHereWithoutKitEnv } from '../support/cli-here.ts';
import { startBin, stopAll } from '../support/cli-process.ts';
import { TOKEN, callback, newId, receiverPool, recordOf, seed, stateOf } from './helpers.ts';

const start = receiverPool();
const CREDENTIALS = { clientId: 2, clientKey: 'test_ck_confirm-mode', secretKey: 'test_sk_confirm-mode-secret' };
const endpoints: RunningStatusEndpoint[] = [];
afterAll(async () => {
  stopAll();
  await Promise.all(endpoints.map((e) => e.close()));
});

async function confirmingPair(options: { failed?: boolean; status?: StatusEndpoint; timeoutMs?: number } = {}) {
  const endpoint = await startStatusEndpoint({ host: '127.0.0.1', port: 0, ...CREDENTIALS, ...(options.status ? { endpoint: options.status } : {}) });
  endpoints.push(endpoint);
  const receiver = await start({
    confirms: {
      baseUrl: endpoint.url, ...CREDENTIALS, timeoutMs: options.timeoutMs ?? 500,
      ...(options.failed !== undefined ? { failed: options.failed } : {}), ...(options.status ? { status: options.status } : {}),
    },
  });
  return { endpoint, receiver };
}

describe('§6 rule 5: a SUCCESS is applied only once the status endpoint confirms it', () => {
  it('asks with a query the service accepts, then applies; a contradicting answer gets 409 and no action', async () => {
    const { endpoint, receiver } = await confirmingPair();
    const [yes, no] = [newId('conf'), newId('conf')];
    for (const id of [yes, no]) {
      await seed(receiver, id);
      endpoint.told(id, 'SUCCESS');
    }
    endpoint.script(no, { kind: 'status', status: 'FAILED' });
    expect((await callback(receiver, { transaction_id: yes })).status).toBe(200);
    expect(await recordOf(receiver, yes)).toMatchObject({ state: 'SUCCESS', actions: 1 });
    expect(endpoint.queriesFor(yes).map((q) => q.problem)).toEqual([undefined]);
    expect((await callback(receiver, { transaction_id: no })).status).toBe(409);
    expect(await recordOf(receiver, no)).toMatchObject({ state: 'pending', actions: 0 });
    expect(receiver.lines.some((l) => l.includes('-> 409 ERR_NOT_CONFIRMED'))).toBe(true);
  });
  it('a duplicate or an unknown id is answered as before, without a query', async () => {
    const { endpoint, receiver } = await confirmingPair();
    const id = newId('conf');
    await seed(receiver, id);
    endpoint.told(id, 'SUCCESS');
    await callback(receiver, { transaction_id: id });
    expect((await callback(receiver, { transaction_id: id })).status).toBe(200);
    expect(endpoint.queriesFor(id)).toHaveLength(1);
    const unknown = newId('conf');
    expect((await callback(receiver, { transaction_id: unknown })).status).toBe(404);
    expect(endpoint.strayQueries(0)).toEqual([]);
  });
  it('concurrent duplicates, each confirmed, still apply once (the pending check is made again when applying)', async () => {
    const { endpoint, receiver } = await confirmingPair();
    const id = newId('conf');
    await seed(receiver, id);
    endpoint.told(id, 'SUCCESS');
    const answers = await Promise.all(Array.from({ length: 10 }, () => callback(receiver, { transaction_id: id })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(await recordOf(receiver, id)).toMatchObject({ state: 'SUCCESS', actions: 1 });
  });
  it('an endpoint that fails or is slower than its own limit: 503, nothing applied, the reply within the limit', async () => {
    const { endpoint, receiver } = await confirmingPair({ timeoutMs: 200 });
    const [down, slow] = [newId('conf'), newId('conf')];
    for (const id of [down, slow]) await seed(receiver, id);
    endpoint.script(down, { kind: 'server-error', httpStatus: 500 });
    endpoint.script(slow, { kind: 'late', holdMs: 3000, status: 'SUCCESS' });
    expect((await callback(receiver, { transaction_id: down })).status).toBe(503);
    const t0 = performance.now();
    expect((await callback(receiver, { transaction_id: slow })).status).toBe(503);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect([await stateOf(receiver, down), await stateOf(receiver, slow)]).toEqual(['pending', 'pending']);
  });
});

describe('FAILED outcomes: applied unasked by default, confirmed too with failed: true (a correct choice either way)', () => {
  it.each([[false, 0], [true, 1]] as const)('failed: %s → %i status quer(ies), applied FAILED', async (failed, asked) => {
    const { endpoint, receiver } = await confirmingPair({ failed });
    const id = newId('conf');
    await seed(receiver, id);
    endpoint.told(id, 'FAILED');
    expect((await callback(receiver, { transaction_id: id, status: 'FAILED' })).status).toBe(200);
    expect(await stateOf(receiver, id)).toBe('FAILED');
    expect(endpoint.queriesFor(id)).toHaveLength(asked);
  });
});

describe('a service whose endpoint differs from the position: "status" says what to call', () => {
  it('GET with the pairs in the query, the status read at the pointer', async () => {
    const status: StatusEndpoint = { method: 'GET', path: '/v2/status', pointer: '/data/state' };
    const { endpoint, receiver } = await confirmingPair({ status });
    const id = newId('conf & co');
    await seed(receiver, id);
    endpoint.told(id, 'SUCCESS');
    expect((await callback(receiver, { transaction_id: id })).status).toBe(200);
    expect(await stateOf(receiver, id)).toBe('SUCCESS');
    expect(endpoint.queriesFor(id)[0]).toMatchObject({ method: 'GET' });
  });
});

describe('the confirming config: a bad value names its field', () => {
  const good = { baseUrl: 'http://127.0.0.1:8082', ...CREDENTIALS };
  it.each([
    [{ ...good, baseUrl: 'ftp://x' }, 'confirms.baseUrl'],
    [{ ...good, clientId: 1.5 }, 'confirms.clientId'],
    [{ ...good, secretKey: '' }, 'confirms.secretKey'],
    [{ ...good, timeoutMs: 0 }, 'confirms.timeoutMs'],
    [{ ...good, status: { method: 'PUT', path: '/s', pointer: '/status' } }, 'confirms.status.method'],
    [{ ...good, status: { method: 'GET', path: 's', pointer: '/status' } }, 'confirms.status.path'],
  ])('%o → %s', (confirms, field) => {
    expect(() => resolveReceiverConfig({ callbackToken: TOKEN, confirms } as Partial<ReceiverConfig>)).toThrow(ReceiverConfigError);
    expect(() => resolveReceiverConfig({ callbackToken: TOKEN, confirms } as Partial<ReceiverConfig>)).toThrow(field);
  });
});

describe('collect-conformance receiver --confirms URL', () => {
  it('without the client\'s keys: exit 2 naming the variables (they must be the service\'s, none is generated)', async () => {
    // Refused before it serves: the command's code in this process (cli-here.ts), the kit's variables as a child sees them.
    const ran = await runHereWithoutKitEnv(['receiver', '--confirms', 'http://127.0.0.1:9'], { COLLECT_CALLBACK_TOKEN: TOKEN });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('COLLECT_CLIENT_KEY and COLLECT_SECRET_KEY');
  });
  it('with them: says what it calls, and confirms with it', async () => {
    const endpoint = await startStatusEndpoint({ host: '127.0.0.1', port: 0, ...CREDENTIALS });
    endpoints.push(endpoint);
    const run = startBin(['receiver', '--port', '0', '--time-scale', '0.01', '--confirms', endpoint.url], {
      env: { COLLECT_CALLBACK_TOKEN: TOKEN, COLLECT_CLIENT_KEY: CREDENTIALS.clientKey, COLLECT_SECRET_KEY: CREDENTIALS.secretKey },
    });
    const base = await run.url;
    const r = { url: base, callbackUrl: `${base}/callback`, hooksUrl: `${base}/_conformance` };
    const id = newId('cli-conf');
    await seed(r as Parameters<typeof seed>[0], id);
    endpoint.told(id, 'SUCCESS');
    expect((await callback(r as Parameters<typeof callback>[0], { transaction_id: id })).status).toBe(200);
    expect(endpoint.queriesFor(id).map((q) => q.problem)).toEqual([undefined]);
    expect(run.stderr()).toContain(`confirming outcomes (§6 rule 5) with POST ${endpoint.url}/api/v1.0/transaction_status/ as client 2`);
    expect(run.stdout() + run.stderr()).not.toContain(CREDENTIALS.secretKey);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });
});
