// The storm's driver and plan (issue 38, "Benchmarks"). A benchmark, not a test: it prints.
// 1. The open-loop driver's sustained rate against a trivial loopback receiver (a bare node:http
//    server answering 200): 20,000 deliveries all due at once, 256 connections; divided by a
//    closed-loop baseline in the same run (undici's request() at concurrency 256, the same
//    requests). The issue names autocannon as the baseline; it is not a dependency of the kit,
//    so the baseline here is the bare client the driver is built on. Target: ratio ≥ 0.8.
// 2. Memory per planned delivery for a 200,000-delivery plan: the plan streamed and every
//    delivery's row written in the attempt log, as a storm holds them (heap + array buffers,
//    after a GC). Target: ≤ 300 bytes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { AttemptLog, drive, StormPlan } from '../../harness/storm/index.ts';
import { findGc } from './gc.ts';

const DELIVERIES = 20_000;
const CONNECTIONS = 256;
const PLANNED = 200_000;
export const RATE_RATIO_TARGET = 0.8;
export const BYTES_PER_DELIVERY_TARGET = 300;

async function startTrivial(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '20' });
    res.end('{"result":"applied"}');
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

async function baseline(url: string, count: number): Promise<number> {
  const agent = new Agent({ connections: CONNECTIONS });
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (next < count) {
      next += 1;
      const r = await request(`${url}?transaction_id=b-${next}&status=SUCCESS&message=ok`, { dispatcher: agent, headers: { 'x-callback-token': 'bench-token' } });
      await r.body.text();
    }
  }));
  const perSecond = count / ((performance.now() - started) / 1000);
  await agent.close();
  return perSecond;
}

async function driverRate(url: string, count: number): Promise<number> {
  const plan = new StormPlan({ callbacks: count, ratePerS: 1_000_000, duplicates: 1, badTokensPct: 0, seed: 1, tag: 'bench' });
  const driven = await drive({ plan, callbackUrl: url, token: 'bench-token', replyDeadlineMs: 60_000, connections: CONNECTIONS, maxAttempts: 1 });
  let answered = 0;
  for (let r = 0; r < driven.log.length; r++) if (driven.log.statusAt(r) === 200) answered += 1;
  if (answered !== count) process.stdout.write(`  (the driver got ${answered} answers 200 of ${count})\n`);
  return answered / (driven.durationMs / 1000);
}

async function rate(): Promise<void> {
  const server = await startTrivial();
  try {
    await baseline(server.url, 2000);
    await driverRate(server.url, 2000);
    const rounds: Array<{ base: number; driver: number }> = [];
    for (let round = 0; round < 3; round++) rounds.push({ base: await baseline(server.url, DELIVERIES), driver: await driverRate(server.url, DELIVERIES) });
    const best = (k: 'base' | 'driver') => Math.max(...rounds.map((r) => r[k]));
    const ratio = best('driver') / best('base');
    process.stdout.write(
      `storm driver: ${best('driver').toFixed(0)}/s sustained vs ${best('base').toFixed(0)}/s (closed-loop undici request(), concurrency ${CONNECTIONS}), ` +
      `${DELIVERIES} deliveries, best of 3 alternating rounds\nratio ${ratio.toFixed(2)} (target ≥ ${RATE_RATIO_TARGET}) ${ratio >= RATE_RATIO_TARGET ? 'met' : 'NOT MET'}; ` +
      `per round ${rounds.map((r) => (r.driver / r.base).toFixed(2)).join(' ')}\n`,
    );
  } finally {
    await server.close();
  }
}

async function memory(): Promise<void> {
  const gc = findGc();
  const used = async () => {
    for (let i = 0; i < 3; i++) {
      gc?.();
      await new Promise((r) => setImmediate(r));
    }
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = await used();
  const plan = new StormPlan({ callbacks: PLANNED / 2, ratePerS: 1000, duplicates: 2, badTokensPct: 5, seed: 1, tag: 'mem' });
  let log: AttemptLog | undefined = new AttemptLog(Math.ceil(plan.deliveries * 1.1) + 16);
  for (const d of plan.stream()) {
    const row = log.start(d.index, d.copy, 1, d.token, d.atMs, d.atMs + 1);
    log.onWire(row, d.atMs + 2);
    log.answered(row, d.atMs + 10, 200, Number.NaN);
  }
  const after = await used();
  const perDelivery = (after - before) / log.length;
  process.stdout.write(
    `storm plan of ${log.length} deliveries, streamed, each with its attempt row: ${perDelivery.toFixed(0)} B per planned delivery ` +
    `(the log's row ${AttemptLog.BYTES_PER_ROW} B, room for 10 % retries) (target ≤ ${BYTES_PER_DELIVERY_TARGET}) ${perDelivery <= BYTES_PER_DELIVERY_TARGET ? 'met' : 'NOT MET'}` +
    `${gc ? '' : ' (no gc available: an upper bound)'}\n`,
  );
  log = undefined;
}

export async function benchStorm(): Promise<void> {
  await memory();
  await rate();
}
