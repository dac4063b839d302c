// The two references together (issue 3, "Quality"): a collect signed by the canonical signer
// goes through the simulator, and its callback reaches the reference receiver, whose test
// hooks show what it did. Scaled time; waits are polls with deadlines, not fixed sleeps.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startReceiver, type RunningReceiver } from '../../harness/receiver/index.ts';
import { collect, collectFields, withSimulator, sleep, FAILING_NUMBER, TOKEN, newId } from './helpers.ts';

async function seed(receiver: RunningReceiver, id: string): Promise<void> {
  const response = await request(`${receiver.hooksUrl}/transactions`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ transaction_id: id, amount: '10.00' }),
  });
  await response.body.dump();
  expect(response.statusCode).toBeLessThan(300);
}

async function stateOf(receiver: RunningReceiver, id: string): Promise<{ state: string; actions: number }> {
  const response = await request(`${receiver.hooksUrl}/transactions/${encodeURIComponent(id)}`);
  return (await response.body.json()) as { state: string; actions: number };
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(20);
  }
}

/** A port of its own: drops every connection until openTo(port), then pipes each one there. */
async function startGate(): Promise<{ port: number; openTo(port: number): void; close(): Promise<void> }> {
  let to: number | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (to === undefined) return void socket.destroy();
    const upstream = connect(to, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    openTo: (port) => { to = port; },
    close: () => new Promise<void>((r) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => r());
    }),
  };
}

async function withReceiver<T>(over: Parameters<typeof startReceiver>[0], work: (r: RunningReceiver) => Promise<T>): Promise<T> {
  const receiver = await startReceiver({ callbackToken: TOKEN, workMs: 0, timeScale: 0.01, log: () => {}, ...over }, { port: 0 });
  try {
    return await work(receiver);
  } finally {
    await receiver.close();
  }
}

describe('simulator → receiver: a collect reaches the receiver through its callback', () => {
  it('applies SUCCESS once', async () => {
    await withReceiver({}, async (receiver) => {
      await withSimulator({}, async (sim) => {
        const id = newId('INT');
        await seed(receiver, id);
        expect((await collect(sim, collectFields(receiver.callbackUrl, { transaction_id: id }))).status).toBe(200);
        expect(await until(() => stateOf(receiver, id), (s) => s.state !== 'pending')).toEqual(expect.objectContaining({ state: 'SUCCESS', actions: 1 }));
      });
    });
  });
  it('applies FAILED once, with duplicates delivered three more times (at-least-once, applied once)', async () => {
    await withReceiver({}, async (receiver) => {
      await withSimulator({ duplicateDeliveries: 3 }, async (sim, lines) => {
        const id = newId('INT');
        await seed(receiver, id);
        await collect(sim, collectFields(receiver.callbackUrl, { transaction_id: id, customer_number: FAILING_NUMBER }));
        await until(async () => lines.filter((l) => /callback GET .* duplicate \d -> 200/.test(l)).length, (n) => n === 3);
        expect(lines.filter((l) => /callback GET .* duplicate \d -> 200/.test(l))).toHaveLength(3);
        expect(await stateOf(receiver, id)).toEqual(expect.objectContaining({ state: 'FAILED', actions: 1 }));
      });
    });
  });
  it('retries while the receiver is down and applies the outcome once it is up', async () => {
    // The callback port is held for the whole test (another test file can never take it): while
    // the receiver is "down" the gate drops every connection, then it passes them to the receiver.
    const gate = await startGate();
    try {
      // First retry after 4000 × 0.05 = 200 ms: time enough to start the receiver and seed it.
      await withSimulator({ timeScale: 0.05, retry: { attempts: 5, initialDelayMs: 4000, factor: 2 } }, async (sim, lines) => {
        const id = newId('INT');
        await collect(sim, collectFields(`http://127.0.0.1:${gate.port}/callback`, { transaction_id: id }));
        await until(async () => lines.some((l) => /attempt 1\/5 -> failed/.test(l)), Boolean);
        expect(lines.some((l) => /attempt 1\/5 -> failed/.test(l))).toBe(true);
        await withReceiver({}, async (receiver) => {
          await seed(receiver, id);
          gate.openTo(Number(new URL(receiver.callbackUrl).port));
          const state = await until(() => stateOf(receiver, id), (s) => s.state !== 'pending');
          expect(state).toEqual(expect.objectContaining({ state: 'SUCCESS', actions: 1 }));
          expect(lines.some((l) => /attempt 2\/5 -> 200/.test(l))).toBe(true);
        });
      });
    } finally {
      await gate.close();
    }
  });
  it('a wrong token is refused with 403 on every retry and changes nothing (wrong-token fault)', async () => {
    await withReceiver({}, async (receiver) => {
      await withSimulator({ faults: ['wrong-token'], retry: { attempts: 3, initialDelayMs: 1000, factor: 2 } }, async (sim, lines) => {
        const id = newId('INT');
        await seed(receiver, id);
        await collect(sim, collectFields(receiver.callbackUrl, { transaction_id: id }));
        await until(async () => lines.some((l) => l.includes('gave up after 3 attempt(s)')), Boolean);
        expect(lines.filter((l) => /callback GET .* attempt \d\/3 -> 403/.test(l))).toHaveLength(3);
        expect(await stateOf(receiver, id)).toEqual(expect.objectContaining({ state: 'pending', actions: 0 }));
      });
    });
  });
});
