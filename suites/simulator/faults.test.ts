// Every fault switch is one deviation: the same scenario runs against the fault-free simulator
// (correct behaviour) and against the simulator with that one fault (the deviation).
import { describe, expect, it } from 'vitest';
import { signBody, SUITE_PROFILE } from '../../harness/signing/index.ts';
import { parseCallbackQuery } from '../../harness/callback/index.ts';
import { readStatusAnswer } from '../../harness/status/index.ts';
import { SIMULATOR_FAULTS, type RunningSimulator, type SimulatorConfig, type SimulatorFault } from '../../harness/simulator/index.ts';
import {
  CLIENT, TOKEN, FAILING_NUMBER, OK_NUMBER, collect, collectFields, post, startListener, withSimulator, sleep, type CallbackListener,
} from './helpers.ts';

interface Env {
  sim: RunningSimulator;
  listener: CallbackListener;
}

interface FaultCase {
  scenario: string;
  config?: Partial<SimulatorConfig>;
  answer?: (n: number) => number;
  observe(env: Env): Promise<unknown>;
  correct: unknown;
  faulty: unknown;
}

const COLLECT = '/api/v1.0/collect/';

/** The HTTP status of a collect signed some other way than the canonical signer. */
async function sendSigned(env: Env, fields: Record<string, unknown>, sign: (body: string) => string, send?: (body: string) => string): Promise<number> {
  const body = JSON.stringify(fields);
  const authorization = `HMAC ${CLIENT.clientKey}:${sign(body)}`;
  return (await post(env.sim.url, COLLECT, send ? send(body) : body, { authorization })).status;
}

const canonical = (body: string) => signBody(body, CLIENT.secretKey).signature;

/** Collects once and returns the deliveries seen after they have settled. */
async function deliveries(env: Env, over: Record<string, unknown> = {}, path = '/cb?order=42', settleMs = 250) {
  const answer = await collect(env.sim, collectFields(`${env.listener.url}${path}`, over));
  expect(answer.status).toBe(200);
  // Settled from the first delivery, not from the answer: on a loaded machine the first came late
  // enough that a retry due 10 ms after it fell outside a window counted from the answer.
  await env.listener.waitFor(1, settleMs).catch(() => undefined);
  await sleep(settleMs);
  return env.listener.deliveries;
}

async function first(env: Env, over: Record<string, unknown> = {}, path?: string) {
  const ds = await deliveries(env, over, path);
  expect(ds.length).toBeGreaterThan(0);
  return ds[0]!;
}

/** Growing or constant intervals between the deliveries of a failing receiver. */
async function backoffShape(env: Env): Promise<string> {
  await collect(env.sim, collectFields(`${env.listener.url}/cb`));
  const ds = await env.listener.waitFor(4, 5000);
  const at = ds.map((d) => d.at);
  // Base 100 ms and factor 3 (100, 300, 900 ms) keep the two shapes apart under ±30 ms of jitter.
  const ratios = [2, 3].map((i) => (at[i]! - at[i - 1]!) / (at[i - 1]! - at[i - 2]!));
  if (ratios.every((r) => r > 1.8 && r < 4.5)) return 'growing ×3';
  if (ratios.every((r) => r > 0.5 && r < 1.5)) return 'constant';
  return `unclear ${ratios.map((r) => r.toFixed(2)).join(', ')}`;
}

/** Processing 300 ms (scaled): the first status query comes well before the outcome, also on a loaded machine. */
const PENDING_A_WHILE: Partial<SimulatorConfig> = { processingDelayMs: 30_000 };

const CASES: Record<SimulatorFault, FaultCase> = {
  'no-signature-check': {
    scenario: 'a collect signed with the wrong secret',
    observe: (env) => collect(env.sim, collectFields('https://m.example/cb'), { secret: 'wrong-secret' }).then((a) => a.status),
    correct: 401, faulty: 200,
  },
  'enqueues-before-verifying': {
    scenario: 'a collect signed with the wrong secret: its answer, and the callbacks that follow',
    observe: async (env) => {
      const answer = await collect(env.sim, collectFields(`${env.listener.url}/cb`), { secret: 'wrong-secret' });
      await sleep(250);
      return [answer.status, env.listener.deliveries.length];
    },
    correct: [401, 0], faulty: [401, 1],
  },
  'authorization-optional': {
    scenario: 'a collect without an Authorization header',
    observe: (env) => collect(env.sim, collectFields('https://m.example/cb'), { authorization: null }).then((a) => a.status),
    correct: 401, faulty: 200,
  },
  'client-id-unsigned': {
    scenario: 'a canonically signed collect whose client_id was changed (2 → 7) after signing',
    observe: (env) => sendSigned(env, collectFields('https://m.example/cb'), canonical, (b) => b.replace('"client_id":2', '"client_id":7')),
    correct: 401, faulty: 200,
  },
  'client-key-ignored': {
    scenario: 'a correctly signed collect naming an unknown client_key',
    observe: (env) => collect(env.sim, collectFields('https://m.example/cb'), { clientKey: 'ck_nobody_has_this' }).then((a) => a.status),
    correct: 401, faulty: 200,
  },
  'partial-signature': {
    scenario: 'a signature over every pair but callback_url, then a canonical one',
    observe: async (env) => [
      await sendSigned(env, collectFields('https://evil.example/cb'), (b) => {
        const { callback_url: _dropped, ...rest } = JSON.parse(b) as Record<string, unknown>;
        return canonical(JSON.stringify(rest));
      }),
      await sendSigned(env, collectFields('https://m.example/cb'), canonical),
    ],
    correct: [401, 200], faulty: [200, 200],
  },
  'case-insensitive-signature': {
    scenario: 'the signature in upper-case hex',
    observe: (env) => sendSigned(env, collectFields('https://m.example/cb'), (b) => canonical(b).toUpperCase()),
    correct: 401, faulty: 200,
  },
  'prefix-signature-compare': {
    scenario: 'the first 16 hex digits of the signature only',
    observe: (env) => sendSigned(env, collectFields('https://m.example/cb'), (b) => canonical(b).slice(0, 16)),
    correct: 401, faulty: 200,
  },
  'unsorted-signature': {
    scenario: 'a signature over the pairs in body order (fields not sorted in the body)',
    observe: async (env) => [
      await sendSigned(env, collectFields('https://m.example/cb'), (b) => signBody(b, CLIENT.secretKey, { profile: { ...SUITE_PROFILE, keyOrder: 'body' } }).signature),
      await sendSigned(env, collectFields('https://m.example/cb'), canonical),
    ],
    correct: [401, 200], faulty: [200, 401],
  },
  'encoded-signature': {
    scenario: 'a signature over encodeURIComponent values, then a canonical one',
    observe: async (env) => [
      await sendSigned(env, collectFields('https://m.example/cb'), (b) => signBody(b, CLIENT.secretKey, { profile: { ...SUITE_PROFILE, valueEncoding: 'encodeURIComponent' } }).signature),
      await sendSigned(env, collectFields('https://m.example/cb'), canonical),
    ],
    correct: [401, 200], faulty: [200, 401],
  },
  'ip-whitelist-off': {
    scenario: 'a valid collect from 127.0.0.2 (not whitelisted)',
    observe: (env) => collect(env.sim, collectFields('https://m.example/cb'), { localAddress: '127.0.0.2' }).then((a) => a.status),
    correct: 403, faulty: 200,
  },
  'trusts-forwarded-for': {
    scenario: 'a valid collect from 127.0.0.2 claiming X-Forwarded-For: 127.0.0.1, then one without the header',
    observe: async (env) => [
      (await collect(env.sim, collectFields('https://m.example/cb'), { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '127.0.0.1' } })).status,
      (await collect(env.sim, collectFields('https://m.example/cb'), { localAddress: '127.0.0.2' })).status,
    ],
    correct: [403, 403], faulty: [200, 403],
  },
  'sandbox-numbers-off': {
    scenario: 'a sandbox collect for 0244999999 (not whitelisted)',
    observe: (env) => collect(env.sim, collectFields('https://m.example/cb', { customer_number: '0244999999' })).then((a) => a.status),
    correct: 403, faulty: 200,
  },
  'numbers-as-integers': {
    scenario: 'a sandbox collect for 244000001 (whitelisted: 0244000001)',
    observe: async (env) => [
      (await collect(env.sim, collectFields('https://m.example/cb', { customer_number: '244000001' }))).status,
      (await collect(env.sim, collectFields('https://m.example/cb', { customer_number: '00244000001' }))).status,
    ],
    correct: [403, 403], faulty: [200, 200],
  },
  'always-question-mark': {
    scenario: 'a callback URL with a query string of its own',
    observe: async (env) => (await first(env)).url.split('transaction_id=')[0],
    correct: '/cb?order=42&', faulty: '/cb?order=42?',
  },
  'always-ampersand': {
    scenario: 'a callback URL without a query string',
    observe: async (env) => (await first(env, {}, '/cb')).url.split('transaction_id=')[0],
    correct: '/cb?', faulty: '/cb&',
  },
  'drop-existing-query': {
    scenario: 'a callback URL with a query string of its own',
    observe: async (env) => (await first(env)).url.split('transaction_id=')[0],
    correct: '/cb?order=42&', faulty: '/cb?',
  },
  'message-percent20': {
    scenario: 'the message "Payment of GHS 10.00 received"',
    observe: async (env) => /message=([^&]*)/.exec((await first(env)).url)?.[1],
    correct: 'Payment+of+GHS+10.00+received', faulty: 'Payment%20of%20GHS%2010.00%20received',
  },
  'lowercase-status': {
    scenario: 'the status of a successful transaction',
    observe: async (env) => parseCallbackQuery((await first(env)).url).status,
    correct: 'SUCCESS', faulty: 'success',
  },
  'wrong-transaction-id': {
    scenario: 'the transaction_id echoed in the callback',
    observe: async (env) => {
      const d = await first(env, { transaction_id: 'ORDER-7781' });
      return parseCallbackQuery(d.url).transaction_id?.replace(/^SIM-\d+$/, 'SIM-internal');
    },
    correct: 'ORDER-7781', faulty: 'SIM-internal',
  },
  'raw-transaction-id': {
    scenario: 'a transaction_id holding & and = read back from the callback (the second status is another parameter)',
    observe: async (env) => {
      const q = parseCallbackQuery((await first(env, { transaction_id: 'T-2&status=FAILED' })).url);
      return `${q.transaction_id} ${q.status}`;
    },
    correct: 'T-2&status=FAILED SUCCESS', faulty: 'T-2 SUCCESS',
  },
  'transaction-id-twice': {
    scenario: 'the transaction_id parameters of the callback',
    observe: async (env) => parseCallbackQuery((await first(env, { transaction_id: 'ORDER-7782' })).url).all.filter(([n]) => n === 'transaction_id').map(([, v]) => v),
    correct: ['ORDER-7782'], faulty: ['ORDER-7782', 'ORDER-7782'],
  },
  'wrong-token': {
    scenario: 'the X-Callback-Token header',
    observe: async (env) => {
      const token = (await first(env)).headers['x-callback-token'];
      return typeof token !== 'string' ? 'absent' : token === TOKEN ? 'the configured token' : token.length === TOKEN.length ? 'another token of the same length' : 'other';
    },
    correct: 'the configured token', faulty: 'another token of the same length',
  },
  'no-token': {
    scenario: 'the X-Callback-Token header',
    observe: async (env) => ((await first(env)).headers['x-callback-token'] === TOKEN ? 'the configured token' : String((await first(env)).headers['x-callback-token'])),
    correct: 'the configured token', faulty: 'undefined',
  },
  'token-first-attempt-only': {
    scenario: 'the X-Callback-Token of each delivery to a receiver that answers 500 once',
    answer: (n) => (n === 1 ? 500 : 200),
    observe: async (env) => {
      await collect(env.sim, collectFields(`${env.listener.url}/cb`));
      return (await env.listener.waitFor(2, 5000)).slice(0, 2).map((d) => (d.headers['x-callback-token'] === TOKEN ? 'token' : 'none')).join(', ');
    },
    correct: 'token, token', faulty: 'token, none',
  },
  'post-callbacks': {
    scenario: 'the method of the callback',
    observe: async (env) => (await first(env)).method,
    correct: 'GET', faulty: 'POST',
  },
  'no-retry': {
    scenario: 'a receiver that always answers 500 (attempts 4)',
    answer: () => 500,
    observe: async (env) => (await deliveries(env, {}, '/cb', 400)).length,
    correct: 4, faulty: 1,
  },
  'constant-retry': {
    scenario: 'the intervals between deliveries to a receiver that always answers 500',
    config: { timeScale: 0.1, retry: { attempts: 4, initialDelayMs: 1000, factor: 3 } },
    answer: () => 500,
    observe: backoffShape,
    correct: 'growing ×3', faulty: 'constant',
  },
  'single-retry': {
    scenario: 'a receiver that always answers 500 (attempts 4)',
    answer: () => 500,
    observe: async (env) => (await deliveries(env, {}, '/cb', 400)).length,
    correct: 4, faulty: 2,
  },
  'retry-after-success': {
    scenario: 'a receiver that answers 200 at once',
    observe: async (env) => (await deliveries(env, {}, '/cb', 200)).map((d) => parseCallbackQuery(d.url).status),
    correct: ['SUCCESS'], faulty: ['SUCCESS', 'SUCCESS'],
  },
  'only-200-success': {
    scenario: 'a receiver that answers 500, then 204 No Content, then 200',
    answer: (n) => [500, 204][n - 1] ?? 200,
    observe: async (env) => (await deliveries(env, {}, '/cb', 400)).length,
    correct: 2, faulty: 3,
  },
  'conflicting-duplicates': {
    scenario: 'the statuses delivered for one successful transaction',
    observe: async (env) => (await deliveries(env, {}, '/cb', 200)).map((d) => parseCallbackQuery(d.url).status),
    correct: ['SUCCESS'], faulty: ['SUCCESS', 'FAILED'],
  },
  'failed-as-success': {
    scenario: 'the status of a transaction for a failing number',
    observe: async (env) => parseCallbackQuery((await first(env, { customer_number: FAILING_NUMBER })).url).status,
    correct: 'FAILED', faulty: 'SUCCESS',
  },
  'no-callback': {
    scenario: 'the deliveries of an accepted transaction',
    observe: async (env) => (await deliveries(env, {}, '/cb', 150)).length,
    correct: 1, faulty: 0,
  },
  'plain-http-in-production': {
    scenario: 'a production collect with an http:// callback URL',
    config: { mode: 'production' },
    observe: async (env) => {
      const answer = await collect(env.sim, collectFields(`${env.listener.url}/cb`));
      await sleep(150);
      return { status: answer.status, deliveries: env.listener.deliveries.length };
    },
    correct: { status: 400, deliveries: 0 }, faulty: { status: 200, deliveries: 1 },
  },
  'https-downgrade': {
    scenario: 'a production collect with an https:// callback URL whose port answers plain http',
    config: { mode: 'production' },
    observe: async (env) => {
      // A plain listener makes the downgrade visible: TLS to it fails, plain http arrives.
      const answer = await collect(env.sim, collectFields(`${env.listener.url.replace(/^http:/, 'https:')}/cb`));
      await sleep(250);
      return { status: answer.status, deliveries: env.listener.deliveries.map((d) => d.method) };
    },
    correct: { status: 200, deliveries: [] }, faulty: { status: 200, deliveries: ['GET'] },
  },
  'status-unsigned': {
    config: { processingDelayMs: 100_000 },
    scenario: 'status queries without Authorization, with a wrong secret and with an unknown client_key, for an accepted transaction',
    observe: async (env) => {
      const fields = collectFields('https://m.example/cb');
      await collect(env.sim, fields);
      const id = fields['transaction_id'];
      return [
        await askStatus(env, id, { authorization: null }), await askStatus(env, id, { secret: 'wrong-secret' }),
        await askStatus(env, id, { clientKey: 'ck_nobody_has_this' }),
      ];
    },
    correct: ['refused 401', 'refused 401', 'refused 401'], faulty: ['PENDING', 'PENDING', 'PENDING'],
  },
  'status-ip-unchecked': {
    config: { processingDelayMs: 100_000 },
    scenario: 'a valid status query and a valid collect from 127.0.0.2 (not whitelisted)',
    observe: async (env) => {
      const fields = collectFields('https://m.example/cb');
      await collect(env.sim, fields);
      return [await askStatus(env, fields['transaction_id'], { localAddress: '127.0.0.2' }), (await collect(env.sim, collectFields('https://m.example/cb'), { localAddress: '127.0.0.2' })).status];
    },
    correct: ['refused 403', 403], faulty: ['PENDING', 403],
  },
  'status-stays-pending': {
    config: PENDING_A_WHILE,
    scenario: 'the status of a transaction that ends SUCCESS, before and after its callback',
    observe: (env) => statusBeforeAndAfter(env, OK_NUMBER),
    correct: ['PENDING', 'SUCCESS'], faulty: ['PENDING', 'PENDING'],
  },
  'status-failed-as-success': {
    config: PENDING_A_WHILE,
    scenario: 'the status of a transaction that ends FAILED, before and after its callback',
    observe: (env) => statusBeforeAndAfter(env, FAILING_NUMBER),
    correct: ['PENDING', 'FAILED'], faulty: ['PENDING', 'SUCCESS'],
  },
  'status-pending-as-success': {
    config: PENDING_A_WHILE,
    scenario: 'the status of a transaction that ends FAILED, before and after its callback',
    observe: (env) => statusBeforeAndAfter(env, FAILING_NUMBER),
    correct: ['PENDING', 'FAILED'], faulty: ['SUCCESS', 'FAILED'],
  },
  'status-unknown-success': {
    scenario: 'the status of a transaction_id the service never saw',
    observe: (env) => askStatus(env, 'never-seen-7f3a'),
    // The reference form's unknown id: 200 {"success": false, "error_code": 421} (docs/positions.md).
    correct: 'unknown-id 200', faulty: 'SUCCESS',
  },
};

const STATUS = '/api/v1.0/transaction_status/';

/** A status query's answer read by the suite's position (harness/status): the kind, and the status when there is one. */
async function askStatus(env: Env, transactionId: unknown, options: Parameters<typeof post>[3] = {}): Promise<string> {
  const answer = await post(env.sim.url, STATUS, JSON.stringify({ transaction_id: transactionId, client_id: CLIENT.clientId }), options);
  const reading = readStatusAnswer(answer.status, answer.text);
  return reading.kind === 'status' ? reading.status : `${reading.kind} ${answer.status}`;
}

/** Collects (for `number`), then asks its status: right away, and after its callback. */
async function statusBeforeAndAfter(env: Env, number: string): Promise<string[]> {
  const fields = collectFields(`${env.listener.url}/cb`, { customer_number: number });
  expect((await collect(env.sim, fields)).status).toBe(200);
  const before = await askStatus(env, fields['transaction_id']);
  await env.listener.waitFor(1, 5000);
  return [before, await askStatus(env, fields['transaction_id'])];
}

async function run(fault: SimulatorFault | undefined, c: FaultCase): Promise<unknown> {
  const listener = await startListener(c.answer ? { answer: c.answer } : {});
  try {
    return await withSimulator({ ...c.config, faults: fault ? [fault] : [] }, (sim) => c.observe({ sim, listener }));
  } finally {
    await listener.close();
  }
}

describe('SIMULATOR_FAULTS: the list', () => {
  it('has a description and a spec reference for every fault, and a case here for each', () => {
    for (const f of SIMULATOR_FAULTS) {
      expect(f.description.length, f.name).toBeGreaterThan(20);
      expect(f.specRef, f.name).toMatch(/^§\d/);
    }
    expect(Object.keys(CASES).sort()).toEqual(SIMULATOR_FAULTS.map((f) => f.name).sort());
  });
  it('refuses an unknown fault name at start', async () => {
    const { startSimulator } = await import('../../harness/simulator/index.ts');
    await expect(startSimulator({ faults: ['no-such-fault' as SimulatorFault] })).rejects.toMatchObject({ code: 'ERR_SIMULATOR_CONFIG' });
  });
});

for (const info of SIMULATOR_FAULTS) {
  const c = CASES[info.name];
  describe.concurrent(`fault ${info.name} (${info.specRef})`, () => {
    it(`fault-free: ${c.scenario} → ${JSON.stringify(c.correct)}`, async () => {
      expect(await run(undefined, c)).toEqual(c.correct);
    });
    it(`with the fault: ${c.scenario} → ${JSON.stringify(c.faulty)}`, async () => {
      expect(await run(info.name, c)).toEqual(c.faulty);
    });
  });
}
