// Throughput and memory of the reference service (issue 3, "Quality"). A benchmark, not a
// test: it prints, it does not assert.
// 1. Accepted collects per second on loopback (3,000 signed requests at concurrency 32 over
//    undici) against a bare node:http server answering the same JSON in the same run.
//    Target: ratio ≥ 0.6.
// 2. Heap held per stored transaction with 100,000 transactions inserted directly into the
//    store and completed. Target: < 2 KB each.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { signBody } from '../../harness/signing/index.ts';
import { startSimulator, TransactionStore, decideOutcome, DEFAULT_CONFIG } from '../../harness/simulator/index.ts';
import { findGc } from './gc.ts';

const CLIENT = { clientId: 2, clientKey: 'bench_client_key', secretKey: 'bench_secret_key_0123456789' };
const REQUESTS = 3000;
const WARMUP = 300;
const CONCURRENCY = 32;
const ROUNDS = 3;
const STORED = 100_000;
export const RATIO_TARGET = 0.6;
export const BYTES_PER_TX_TARGET = 2048;

interface Prepared {
  body: string;
  headers: Record<string, string>;
}

function prepare(count: number, tag: string): Prepared[] {
  const out: Prepared[] = [];
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({
      transaction_id: `BENCH-${tag}-${i}`, amount: '10.00', client_id: CLIENT.clientId, customer_number: '0244000001',
      network_code: 'MTN', callback_url: `https://merchant.example/payments/callback?order=${i}`,
    });
    const { authorization } = signBody(body, CLIENT.secretKey, { clientKey: CLIENT.clientKey });
    out.push({ body, headers: { 'content-type': 'application/json', authorization: authorization! } });
  }
  return out;
}

/** Sends every prepared request at the given concurrency; returns requests per second. */
async function drive(url: string, prepared: Prepared[]): Promise<{ perSecond: number; non200: number }> {
  const agent = new Agent({ connections: CONCURRENCY, pipelining: 1 });
  let next = 0;
  let non200 = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < prepared.length) {
      const p = prepared[next++]!;
      const response = await request(url, { method: 'POST', body: p.body, headers: p.headers, dispatcher: agent });
      if (response.statusCode !== 200) non200++;
      await response.body.text();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - start) / 1000;
  await agent.close();
  return { perSecond: prepared.length / seconds, non200 };
}

async function startBare(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = JSON.stringify({ success: true, transaction_id: 'BENCH', status: 'PENDING', message: 'Transaction accepted for processing' });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1.0/collect/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function throughput(): Promise<void> {
  const bare = await startBare();
  // Callbacks are scheduled an hour out so they never run during the measurement.
  const sim = await startSimulator({
    clients: [CLIENT], callbackToken: 'bench_callback_token', processingDelayMs: 3_600_000,
    whitelist: { sources: ['127.0.0.1'], customerNumbers: ['0244000001'] },
  });
  const simUrl = `${sim.url}/api/v1.0/collect/`;
  try {
    await drive(bare.url, prepare(WARMUP, 'wb'));
    await drive(simUrl, prepare(WARMUP, 'ws'));
    const rounds: Array<{ bare: number; sim: number; non200: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const b = await drive(bare.url, prepare(REQUESTS, `b${round}`));
      const s = await drive(simUrl, prepare(REQUESTS, `s${round}`));
      rounds.push({ bare: b.perSecond, sim: s.perSecond, non200: s.non200 });
    }
    const best = (k: 'bare' | 'sim') => Math.max(...rounds.map((r) => r[k]));
    const ratio = best('sim') / best('bare');
    const refused = rounds.reduce((n, r) => n + r.non200, 0);
    process.stdout.write(
      `accepted collects: ${best('sim').toFixed(0)}/s (simulator) vs ${best('bare').toFixed(0)}/s (bare node:http), ` +
      `${REQUESTS} requests at concurrency ${CONCURRENCY}, best of ${ROUNDS} alternating rounds\n` +
      `ratio ${ratio.toFixed(2)} (target ≥ ${RATIO_TARGET}) ${ratio >= RATIO_TARGET ? 'met' : 'NOT MET'}; ` +
      `per round ${rounds.map((r) => (r.sim / r.bare).toFixed(2)).join(' ')}` +
      `${refused ? `; ${refused} requests were not 200 (the rate is then not of accepted collects)` : ''}\n`,
    );
  } finally {
    await sim.close();
    await bare.close();
  }
}

async function memory(): Promise<void> {
  const gc = findGc();
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc?.();
      await new Promise((r) => setImmediate(r));
    }
    return process.memoryUsage().heapUsed;
  };
  let store: TransactionStore | undefined = new TransactionStore();
  const before = await settle();
  for (let i = 0; i < STORED; i++) {
    const amount = `${(i % 500) + 1}.00`;
    const customerNumber = `0244${String(i % 1_000_000).padStart(6, '0')}`;
    const tx = {
      internalId: store.nextInternalId(), clientId: 2, transactionId: `ORD-2026-${String(i).padStart(8, '0')}`,
      amount, customerNumber, callbackUrl: `https://merchant.example/payments/callback?order=${i}&src=app`,
      status: 'PENDING' as const, message: '', createdAt: Date.now(),
    };
    store.insert(tx);
    const outcome = decideOutcome(customerNumber, amount, DEFAULT_CONFIG.outcome);
    store.finish(tx, outcome.status, outcome.message);
  }
  const after = await settle();
  const perTx = (after - before) / STORED;
  process.stdout.write(
    `memory per stored transaction: ${perTx.toFixed(0)} bytes with ${store.size.toLocaleString('en')} completed transactions ` +
    `(target < ${BYTES_PER_TX_TARGET}) ${perTx < BYTES_PER_TX_TARGET ? 'met' : 'NOT MET'}` +
    `${gc ? '' : ' — gc was unavailable, so the figure includes garbage and is an upper bound'}\n`,
  );
  store = undefined;
}

export async function benchSimulator(): Promise<void> {
  await throughput();
  await memory();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchSimulator();
