// Every fault switch, shown against the same request that the fault-free receiver handles
// correctly. Each row: a scenario that returns an observation; the fault-free receiver must
// give `correct`, the receiver with only that fault on must give something else (`faulty`,
// or failing `deviates`). This is what proves each receiver case can fail.
import { afterAll, describe, expect, it } from 'vitest';
import { composeCallbackUrl } from '../../harness/callback/index.ts';
import { RECEIVER_FAULTS, type ReceiverConfig, type ReceiverConfigInput, type ReceiverFault } from '../../harness/receiver/index.ts';
import { startStatusEndpoint, type ScriptedAnswer } from '../../harness/status/index.ts';
import {
  TOKEN, callback, newId, rawGet, rawRequest, receiverPool, recordOf, seed, send, stateOf, targetOf, tokenHeaders,
  type TestReceiver,
} from './helpers.ts';

const start = receiverPool();

// The confirmation faults (§6 rule 5): a receiver confirming with the harness's own status endpoint.
const CREDENTIALS = { clientId: 2, clientKey: 'test_ck_faults-confirm', secretKey: 'test_sk_faults-confirm-secret' };
const statusEndpoint = await startStatusEndpoint({ host: '127.0.0.1', port: 0, ...CREDENTIALS });
afterAll(() => statusEndpoint.close());
/** The receiver's own limit on a status query; the late answer is held well past it. */
const CONFIRM_LIMIT_MS = 300;
const CONFIRMING: Partial<ReceiverConfig> = { confirms: { baseUrl: statusEndpoint.url, ...CREDENTIALS, timeoutMs: CONFIRM_LIMIT_MS } };

/**
 * A SUCCESS callback to a confirming receiver, the status endpoint answering as `script` says
 * (truthfully without one): the reply, the record, and how the receiver's queries for it fared.
 */
async function confirmedCallback(r: TestReceiver, script?: ScriptedAnswer, idText = 'fault'): Promise<string> {
  const id = newId(idText);
  await seed(r, id);
  statusEndpoint.told(id, 'SUCCESS');
  if (script) statusEndpoint.script(id, script);
  const answer = await callback(r, { transaction_id: id });
  const queries = statusEndpoint.queriesFor(id);
  const asked = queries.length === 0 ? 'not asked' : queries[0]!.problem ? `refused (${queries[0]!.problem.kind})` : 'asked';
  return `${answer.status} ${await stateOf(r, id)} ${asked}`;
}

interface FaultRow {
  fault: ReceiverFault;
  config?: ReceiverConfigInput;
  /** What is done and observed, identical for both receivers. */
  scenario(r: TestReceiver): Promise<unknown>;
  correct: unknown;
  /** The exact deviation, when it is deterministic. */
  faulty?: unknown;
  /** Otherwise: a check of the faulty observation. */
  deviates?(observation: unknown): void;
}

/** Seeds a pending record, sends one callback, observes the answer and the state after it. */
async function oneCallback(r: TestReceiver, token: string | string[] | null, status = 'SUCCESS'): Promise<string> {
  const id = newId('fault');
  await seed(r, id);
  const answer = await callback(r, { transaction_id: id, status }, { token });
  return `${answer.status} ${await stateOf(r, id)}`;
}

/** Callbacks with these statuses for one seeded record, in turn: their answers, then the record. */
async function outcomesInTurn(r: Parameters<typeof seed>[0], outcomes: readonly string[]): Promise<string> {
  const id = newId('fault');
  await seed(r, id);
  const statuses = [];
  for (const status of outcomes) statuses.push((await callback(r, { transaction_id: id, status })).status);
  const view = await recordOf(r, id);
  return `${statuses.join(',')} ${view.state} actions=${view.actions}`;
}

/** Seeds `count` records and sends one SUCCESS callback to each, all at once: the answers, and the slowest reply's time. */
async function atOnce(r: TestReceiver, count: number): Promise<{ ids: string[]; statuses: string; slowestMs: number }> {
  const ids = Array.from({ length: count }, () => newId('volume'));
  for (const id of ids) await seed(r, id);
  const started = performance.now();
  const answers = await Promise.all(ids.map((id) => callback(r, { transaction_id: id })));
  return { ids, statuses: answers.map((a) => a.status).join(','), slowestMs: performance.now() - started };
}

const ROWS: FaultRow[] = [
  { fault: 'no-token-check', scenario: (r) => oneCallback(r, null), correct: '403 pending', faulty: '200 SUCCESS' },
  { fault: 'presence-only-token', scenario: (r) => oneCallback(r, 'not-the-token'), correct: '403 pending', faulty: '200 SUCCESS' },
  { fault: 'prefix-token-match', scenario: (r) => oneCallback(r, `${TOKEN}x`), correct: '403 pending', faulty: '200 SUCCESS' },
  { fault: 'case-insensitive-token', scenario: (r) => oneCallback(r, TOKEN.toUpperCase()), correct: '403 pending', faulty: '200 SUCCESS' },
  {
    fault: 'trimmed-token',
    // Node strips spaces and tabs itself; a trailing 0xA0 byte (latin1 NBSP) reaches the
    // handler, and String.prototype.trim removes it.
    scenario: async (r) => {
      const id = newId('fault');
      await seed(r, id);
      const url = composeCallbackUrl(r.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'ok' });
      const header = Buffer.concat([Buffer.from(`X-Callback-Token: ${TOKEN}`, 'latin1'), Buffer.from([0xa0])]);
      const answer = await rawRequest(r.url, rawGet(targetOf(url), [header]));
      return `${answer.status} ${await stateOf(r, id)}`;
    },
    correct: '403 pending',
    faulty: '200 SUCCESS',
  },
  { fault: 'first-token-header', scenario: (r) => oneCallback(r, [TOKEN, 'second-value']), correct: '403 pending', faulty: '200 SUCCESS' },
  // The helpers send the header as x-callback-token (lower case), as HTTP/2 clients do.
  { fault: 'exact-name-value-check', scenario: (r) => oneCallback(r, 'not-the-token'), correct: '403 pending', faulty: '200 SUCCESS' },
  { fault: 'case-sensitive-token-name', scenario: (r) => oneCallback(r, TOKEN), correct: '200 SUCCESS', faulty: '403 pending' },
  { fault: 'status-401', scenario: (r) => oneCallback(r, null), correct: '403 pending', faulty: '401 pending' },
  { fault: 'act-then-403', scenario: (r) => oneCallback(r, 'not-the-token'), correct: '403 pending', faulty: '403 SUCCESS' },
  {
    fault: 'not-idempotent',
    scenario: (r) => outcomesInTurn(r, ['SUCCESS', 'SUCCESS', 'FAILED']),
    correct: '200,200,200 SUCCESS actions=1',
    faulty: '200,200,200 FAILED actions=3',
  },
  {
    fault: 'racy-idempotence',
    scenario: async (r) => {
      const id = newId('fault');
      await seed(r, id);
      const answers = await Promise.all(Array.from({ length: 10 }, () => callback(r, { transaction_id: id })));
      const view = await recordOf(r, id);
      return { statuses: [...new Set(answers.map((a) => a.status))], actions: view.actions };
    },
    correct: { statuses: [200], actions: 1 },
    deviates: (observation) => {
      expect((observation as { actions: number }).actions).toBeGreaterThan(1);
    },
  },
  {
    fault: 'slow-reply',
    // 30000 ms x 0.01 = 300 ms of work; the deadline is 150 ms.
    config: { workMs: 30_000 },
    scenario: async (r) => {
      const id = newId('fault');
      await seed(r, id);
      const t0 = performance.now();
      const answer = await callback(r, { transaction_id: id });
      const elapsed = performance.now() - t0;
      return `${answer.status} ${elapsed < 150 ? 'within 150 ms' : elapsed >= 290 ? 'after the work' : `at ${elapsed.toFixed(0)} ms`}`;
    },
    correct: '200 within 150 ms',
    faulty: '200 after the work',
  },
  {
    fault: '500-on-duplicate',
    scenario: async (r) => {
      const id = newId('fault');
      await seed(r, id);
      const first = await callback(r, { transaction_id: id });
      const second = await callback(r, { transaction_id: id });
      return `${first.status},${second.status} ${await stateOf(r, id)}`;
    },
    correct: '200,200 SUCCESS',
    faulty: '200,500 SUCCESS',
  },
  {
    fault: '409-on-conflict',
    scenario: (r) => outcomesInTurn(r, ['SUCCESS', 'SUCCESS', 'FAILED']),
    // An exact duplicate is still 200; only the other outcome gets 409.
    correct: '200,200,200 SUCCESS actions=1',
    faulty: '200,200,409 SUCCESS actions=1',
  },
  { fault: 'status-ignored', scenario: (r) => oneCallback(r, TOKEN, 'FAILED'), correct: '200 FAILED', faulty: '200 SUCCESS' },
  { fault: 'unknown-status-applied', scenario: (r) => oneCallback(r, TOKEN, 'PENDING'), correct: '400 pending', faulty: '200 PENDING' },
  {
    fault: 'unknown-id-created',
    scenario: async (r) => {
      const id = newId('never-seeded');
      const answer = await callback(r, { transaction_id: id });
      return `${answer.status} ${await stateOf(r, id)}`;
    },
    correct: '404 absent',
    faulty: '200 SUCCESS',
  },
  {
    fault: 'no-percent-decoding',
    scenario: async (r) => {
      const id = newId('pay/ref#1');   // sent as pay%2Fref%231-…
      await seed(r, id);
      const answer = await callback(r, { transaction_id: id });
      return `${answer.status} ${await stateOf(r, id)}`;
    },
    correct: '200 SUCCESS',
    faulty: '404 pending',
  },
  {
    fault: 'plus-not-space',
    scenario: async (r) => {
      const id = newId('order 17');    // sent as order+17-…
      await seed(r, id);
      const answer = await callback(r, { transaction_id: id });
      return `${answer.status} ${await stateOf(r, id)}`;
    },
    correct: '200 SUCCESS',
    faulty: '404 pending',
  },
  {
    fault: 'rejects-extra-params',
    scenario: async (r) => {
      const id = newId('fault');
      await seed(r, id);
      const url = `${composeCallbackUrl(r.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'ok' })}&channel=web`;
      const answer = await send(url, { headers: tokenHeaders(TOKEN) });
      return `${answer.status} ${await stateOf(r, id)}`;
    },
    correct: '200 SUCCESS',
    faulty: '400 pending',
  },
  {
    fault: 'rejects-existing-query',
    scenario: async (r) => {
      const id = newId('fault');
      await seed(r, id);
      const answer = await callback(r, { transaction_id: id }, { callbackUrl: `${r.callbackUrl}?tenant=7` });
      return `${answer.status} ${await stateOf(r, id)}`;
    },
    correct: '200 SUCCESS',
    faulty: '400 pending',
  },
  { fault: 'stale-token', scenario: (r) => oneCallback(r, TOKEN), correct: '200 SUCCESS', faulty: '403 pending' },
  {
    fault: 'inverted-status',
    scenario: async (r) => `${await oneCallback(r, TOKEN, 'SUCCESS')}, ${await oneCallback(r, TOKEN, 'FAILED')}`,
    correct: '200 SUCCESS, 200 FAILED',
    faulty: '200 FAILED, 200 SUCCESS',
  },
  {
    fault: 'strict-message-charset',
    scenario: async (r) => {
      const seen = [];
      for (const message of ['Paid 5 + 3 items', 'Tom & Jerry', 'code %2B', 'Paiement reçu €']) {
        const id = newId('fault');
        await seed(r, id);
        const answer = await callback(r, { transaction_id: id, message });
        seen.push(`${answer.status} ${await stateOf(r, id)}`);
      }
      return seen;
    },
    correct: ['200 SUCCESS', '200 SUCCESS', '200 SUCCESS', '200 SUCCESS'],
    faulty: ['400 pending', '400 pending', '400 pending', '400 pending'],
  },
  {
    fault: 'decode-before-split',
    scenario: async (r) => {
      const id = newId('fault');
      await seed(r, id);
      // Sent as message=Paid+%26+done+%26status%3DFAILED: one parameter, until decoded whole.
      const answer = await callback(r, { transaction_id: id, status: 'SUCCESS', message: 'Paid & done &status=FAILED' });
      return `${answer.status} ${await stateOf(r, id)}`;
    },
    correct: '200 SUCCESS',
    faulty: '200 FAILED',
  },
  {
    fault: 'failed-not-final',
    scenario: (r) => outcomesInTurn(r, ['FAILED', 'SUCCESS']),
    correct: '200,200 FAILED actions=1',
    faulty: '200,200 SUCCESS actions=2',
  },
  {
    fault: 'refuses-get',
    scenario: async (r) => {
      const answer = await callback(r, { transaction_id: newId('fault') });
      return `${answer.status} ${String(answer.headers['allow'] ?? '')}`;
    },
    correct: '404 ',
    faulty: '405 POST',
  },
  {
    fault: 'error-after-applying',
    scenario: (r) => oneCallback(r, TOKEN),
    correct: '200 SUCCESS',
    faulty: '500 SUCCESS',
  },
  {
    fault: 'not-success-as-failed',
    scenario: async (r) => [await oneCallback(r, TOKEN, 'PENDING'), await oneCallback(r, TOKEN, 'FAILED')],
    correct: ['400 pending', '200 FAILED'],
    faulty: ['200 FAILED', '200 FAILED'],
  },
  {
    fault: 'crash-on-missing-id',
    scenario: async (r) => (await send(`${r.callbackUrl}?status=SUCCESS&message=ok`, { headers: tokenHeaders(TOKEN) })).status,
    correct: 400,
    faulty: 500,
  },
  {
    fault: 'confirms-ignores-status', config: CONFIRMING,
    scenario: (r) => confirmedCallback(r, { kind: 'status', status: 'FAILED' }),
    correct: '409 pending asked',
    faulty: '200 SUCCESS asked',
  },
  { fault: 'never-confirms', config: CONFIRMING, scenario: (r) => confirmedCallback(r), correct: '200 SUCCESS asked', faulty: '200 SUCCESS not asked' },
  {
    // The service refuses the query (401): nothing confirmed, the service asked to retry.
    fault: 'status-query-body-order', config: CONFIRMING, scenario: (r) => confirmedCallback(r),
    correct: '200 SUCCESS asked', faulty: '503 pending refused (signature)',
  },
  {
    // Asked as `fault%20%26%2F…`, an id the service does not know (404): not confirmed.
    fault: 'status-query-id-encoded', config: CONFIRMING, scenario: (r) => confirmedCallback(r, undefined, 'fault &/'),
    correct: '200 SUCCESS asked', faulty: '409 pending not asked',
  },
  {
    fault: 'applies-when-status-unavailable', config: CONFIRMING,
    scenario: async (r) => [await confirmedCallback(r, { kind: 'server-error', httpStatus: 503 }), await confirmedCallback(r, { kind: 'dropped' })],
    correct: ['503 pending asked', '503 pending asked'],
    faulty: ['200 SUCCESS asked', '200 SUCCESS asked'],
  },
  {
    fault: 'no-status-time-limit', config: CONFIRMING,
    scenario: async (r) => {
      const started = performance.now();
      const seen = await confirmedCallback(r, { kind: 'late', holdMs: 4 * CONFIRM_LIMIT_MS, status: 'SUCCESS' });
      return `${seen} ${performance.now() - started < 3 * CONFIRM_LIMIT_MS ? 'gave up in time' : 'waited for the late answer'}`;
    },
    correct: '503 pending asked gave up in time',
    faulty: '200 SUCCESS asked waited for the late answer',
  },
  {
    // A cache of 2 recent ids: the first id's copy after two others is applied again.
    fault: 'recent-ids-dedupe', config: { volume: { recentIds: 2 } },
    scenario: async (r) => {
      const [a, b, c] = [newId('volume'), newId('volume'), newId('volume')];
      for (const id of [a, b, c]) await seed(r, id);
      const statuses = [];
      for (const id of [a, a, b, c, a]) statuses.push((await callback(r, { transaction_id: id })).status);
      return `${statuses.join(',')} actions=${(await recordOf(r, a)).actions}`;
    },
    correct: '200,200,200,200,200 actions=1',
    faulty: '200,200,200,200,200 actions=2',
  },
  {
    // One connection held 150 ms before each reply: four at once, the last replies after 600 ms.
    fault: 'pool-held-before-reply', config: { volume: { poolSize: 1, holdMs: 150 } },
    scenario: async (r) => {
      const { statuses, slowestMs } = await atOnce(r, 4);
      return `${statuses} ${slowestMs < 400 ? 'replied at once' : 'replies queued behind the pool'}`;
    },
    correct: '200,200,200,200 replied at once',
    faulty: '200,200,200,200 replies queued behind the pool',
  },
  {
    // A queue of one, 150 ms per outcome: of three at once, one is worked on, one queued, one dropped.
    fault: 'dropping-work-queue', config: { volume: { queueSize: 1, itemMs: 150 } },
    scenario: async (r) => {
      const { ids, statuses } = await atOnce(r, 3);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const states = [];
      for (const id of ids) states.push(await stateOf(r, id));
      return `${statuses} ${states.join(',')}`;
    },
    correct: '200,200,200 SUCCESS,SUCCESS,SUCCESS',
    faulty: '200,200,200 SUCCESS,SUCCESS,pending',
  },
  {
    fault: 'unconfirmed-acknowledged', config: CONFIRMING,
    scenario: (r) => confirmedCallback(r, { kind: 'server-error', httpStatus: 503 }),
    correct: '503 pending asked',
    faulty: '200 pending asked',
  },
];

describe('fault switches: each is covered by a row below', () => {
  it('lists every fault of RECEIVER_FAULTS exactly once', () => {
    expect(ROWS.map((row) => row.fault).sort()).toEqual(RECEIVER_FAULTS.map((f) => f.name).sort());
  });
  it('describes every fault with a spec reference', () => {
    for (const fault of RECEIVER_FAULTS) {
      expect(fault.description.length, fault.name).toBeGreaterThan(10);
      expect(fault.specRef, fault.name).toMatch(/§\d/);
    }
  });
});

describe.each(ROWS)('fault $fault', (row) => {
  it('fault-free receiver handles the scenario as the spec says', async () => {
    const r = await start(row.config ?? {});
    expect(await row.scenario(r)).toEqual(row.correct);
  });
  it('receiver with only this fault deviates', async () => {
    const r = await start({ ...row.config, faults: [row.fault] });
    const observation = await row.scenario(r);
    expect(observation).not.toEqual(row.correct);
    if (row.faulty !== undefined) expect(observation).toEqual(row.faulty);
    row.deviates?.(observation);
  });
});

describe('rejects-existing-query and rejects-extra-params are different deviations', () => {
  it('rejects-existing-query still accepts parameters after the three', async () => {
    const r = await start({ faults: ['rejects-existing-query'] });
    const id = newId('fault');
    await seed(r, id);
    const url = `${composeCallbackUrl(r.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'ok' })}&channel=web`;
    expect((await send(url, { headers: tokenHeaders(TOKEN) })).status).toBe(200);
  });
});

describe('the new faults are single deviations: the rest of the receiver stays correct', () => {
  it('stale-token still refuses a wrong and an absent token with 403, no action', async () => {
    const r = await start({ faults: ['stale-token'] });
    expect(await oneCallback(r, 'not-the-token')).toBe('403 pending');
    expect(await oneCallback(r, null)).toBe('403 pending');
  });
  it('inverted-status still refuses an unknown status (400, no action)', async () => {
    const r = await start({ faults: ['inverted-status'] });
    expect(await oneCallback(r, TOKEN, 'PENDING')).toBe('400 pending');
  });
  it('strict-message-charset still applies a plain message, and an absent one', async () => {
    const r = await start({ faults: ['strict-message-charset'] });
    expect(await oneCallback(r, TOKEN, 'FAILED')).toBe('200 FAILED');   // "Payment received"
    const id = newId('fault');
    await seed(r, id);
    const answer = await send(`${r.callbackUrl}?transaction_id=${encodeURIComponent(id)}&status=SUCCESS`, { headers: tokenHeaders(TOKEN) });
    expect(`${answer.status} ${await stateOf(r, id)}`).toBe('200 SUCCESS');
  });
  it('decode-before-split still decodes + and %XX in an id without & or =', async () => {
    const r = await start({ faults: ['decode-before-split'] });
    const id = newId('pay/ref order 7');   // sent as pay%2Fref+order+7-…
    await seed(r, id);
    expect((await callback(r, { transaction_id: id, message: 'Paid & done' })).status).toBe(200);
    expect(await stateOf(r, id)).toBe('SUCCESS');
  });
});

describe('the header-name faults deviate only for a name spelled other than X-Callback-Token', () => {
  /** One callback with the header line written byte for byte, name as given. */
  async function exactLine(r: TestReceiver, line: string): Promise<string> {
    const id = newId('fault');
    await seed(r, id);
    const url = composeCallbackUrl(r.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'ok' });
    const answer = await rawRequest(r.url, rawGet(targetOf(url), [line]));
    return `${answer.status} ${await stateOf(r, id)}`;
  }
  it('exact-name-value-check still compares the value sent as X-Callback-Token', async () => {
    const r = await start({ faults: ['exact-name-value-check'] });
    expect(await exactLine(r, 'X-Callback-Token: not-the-token')).toBe('403 pending');
    expect(await exactLine(r, `X-Callback-Token: ${TOKEN}`)).toBe('200 SUCCESS');
  });
  it('case-sensitive-token-name still accepts the token sent as X-Callback-Token', async () => {
    const r = await start({ faults: ['case-sensitive-token-name'] });
    expect(await exactLine(r, `X-Callback-Token: ${TOKEN}`)).toBe('200 SUCCESS');
    expect(await exactLine(r, 'X-Callback-Token: not-the-token')).toBe('403 pending');
  });
});
