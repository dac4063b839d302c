// §3, §4.3, §6: the outcome callback. Scaled time (timeScale 0.05: 1 s → 50 ms); intervals
// are compared as ratios with tolerances, never as exact milliseconds.
import { describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { parseCallbackQuery } from '../../harness/callback/index.ts';
import {
  collect, collectFields, startListener, withSimulator, sleep, TOKEN, FAILING_NUMBER, type CallbackListener,
} from './helpers.ts';

async function withListener<T>(options: Parameters<typeof startListener>[0], work: (l: CallbackListener) => Promise<T>): Promise<T> {
  const listener = await startListener(options);
  try {
    return await work(listener);
  } finally {
    await listener.close();
  }
}

function gaps(at: number[]): number[] {
  return at.slice(1).map((t, i) => t - at[i]!);
}

describe('§4.3/§6 delivery: GET, composed URL, token header', () => {
  it('delivers SUCCESS once with GET, X-Callback-Token, the id echoed and the message form-encoded', async () => {
    await withListener({}, async (listener) => {
      await withSimulator({}, async (sim) => {
        const fields = collectFields(`${listener.url}/payments/cb?order=42&x=a%20b`, { transaction_id: 'T/1 ä&=?' });
        expect((await collect(sim, fields)).status).toBe(200);
        const [d] = await listener.waitFor(1);
        await sleep(60);
        expect(listener.deliveries).toHaveLength(1);
        expect(d!.method).toBe('GET');
        expect(d!.headers['x-callback-token']).toBe(TOKEN);
        expect(d!.url.startsWith('/payments/cb?order=42&x=a%20b&transaction_id=')).toBe(true);
        expect(d!.url).toContain('&message=Payment+of+GHS+10.00+received');
        const q = parseCallbackQuery(d!.url);
        expect(q).toMatchObject({ transaction_id: 'T/1 ä&=?', status: 'SUCCESS', message: 'Payment of GHS 10.00 received' });
      });
    });
  });
  it('delivers FAILED for a number ending in 2, with a message', async () => {
    await withListener({}, async (listener) => {
      await withSimulator({}, async (sim) => {
        await collect(sim, collectFields(`${listener.url}/cb`, { customer_number: FAILING_NUMBER }));
        const [d] = await listener.waitFor(1);
        expect(parseCallbackQuery(d!.url)).toMatchObject({ status: 'FAILED', message: 'Insufficient funds (GHS 10.00 requested)' });
      });
    });
  });
  it('follows a configured failing-suffix rule', async () => {
    await withListener({}, async (listener) => {
      await withSimulator({ outcome: { failingSuffixes: ['01'] } }, async (sim) => {
        await collect(sim, collectFields(`${listener.url}/cb`));
        const [d] = await listener.waitFor(1);
        expect(parseCallbackQuery(d!.url).status).toBe('FAILED');
      });
    });
  });
  it('sends no callback for a rejected request', async () => {
    await withListener({}, async (listener) => {
      await withSimulator({}, async (sim) => {
        await collect(sim, collectFields(`${listener.url}/cb`), { secret: 'wrong' });
        await sleep(120);
        expect(listener.deliveries).toHaveLength(0);
      });
    });
  });
});

describe('§6 Retry: non-2xx retried with exponential back-off', () => {
  it('retries 500s with intervals growing by the factor, then stops after `attempts`', async () => {
    await withListener({ answer: () => 500 }, async (listener) => {
      await withSimulator({ timeScale: 0.05, retry: { attempts: 4, initialDelayMs: 1000, factor: 3 } }, async (sim, lines) => {
        await collect(sim, collectFields(`${listener.url}/cb`));
        const ds = await listener.waitFor(4, 5000);
        await sleep(50);
        expect(lines.some((l) => l.includes('gave up after 4 attempt(s)'))).toBe(true);
        expect(listener.deliveries).toHaveLength(4);
        const g = gaps(ds.map((d) => d.at)); // scheduled 50, 150, 450 ms; timers never fire much early
        [50, 150, 450].forEach((expected, i) => expect(g[i]!).toBeGreaterThan(expected * 0.9));
        expect(g[1]! / g[0]!).toBeGreaterThan(1.8);
        expect(g[1]! / g[0]!).toBeLessThan(4.5);
        expect(g[2]! / g[1]!).toBeGreaterThan(2.2);
        expect(g[2]! / g[1]!).toBeLessThan(4.5);
      });
    });
  });
  it('stops retrying at the first 2xx', async () => {
    await withListener({ answer: (n) => (n < 3 ? 503 : 204) }, async (listener) => {
      await withSimulator({ retry: { attempts: 6, initialDelayMs: 1000, factor: 2 } }, async (sim) => {
        await collect(sim, collectFields(`${listener.url}/cb`));
        await listener.waitFor(3);
        await sleep(250);
        expect(listener.deliveries).toHaveLength(3);
      });
    });
  });
  it('retries a connection failure (nothing listening) and logs each attempt', async () => {
    const closed = await startListener();
    const url = `${closed.url}/cb`;
    await closed.close();
    await withSimulator({ retry: { attempts: 3, initialDelayMs: 1000, factor: 2 } }, async (sim, lines) => {
      await collect(sim, collectFields(url));
      await sleep(200);
      expect(lines.filter((l) => /callback GET .* attempt \d\/3 -> failed/.test(l))).toHaveLength(3);
      expect(lines.some((l) => l.includes('gave up after 3 attempt(s)'))).toBe(true);
    });
  });
});

describe('§6 Guarantee: at-least-once duplicates, terminal states final', () => {
  it('sends `duplicateDeliveries` extra deliveries after a 2xx, all with the same outcome', async () => {
    await withListener({}, async (listener) => {
      await withSimulator({ duplicateDeliveries: 2 }, async (sim) => {
        await collect(sim, collectFields(`${listener.url}/cb`, { customer_number: FAILING_NUMBER }));
        const ds = await listener.waitFor(3);
        await sleep(100);
        expect(listener.deliveries).toHaveLength(3);
        expect(new Set(ds.map((d) => d.url)).size).toBe(1);
        expect(parseCallbackQuery(ds[0]!.url).status).toBe('FAILED');
      });
    });
  });
});

describe('§6 Transport: https callbacks with the configured CA; production never calls http', () => {
  it('delivers over https to a listener whose certificate chains to callbackCa', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    });
    await withListener({ tls: { key: pems.private, cert: pems.cert } }, async (listener) => {
      await withSimulator({ mode: 'production', callbackCa: [pems.cert] }, async (sim) => {
        await collect(sim, collectFields(`${listener.url}/cb`));
        const [d] = await listener.waitFor(1);
        expect(parseCallbackQuery(d!.url).status).toBe('SUCCESS');
      });
      // Without the CA the delivery fails (and is retried), so trust is really checked.
      await withSimulator({ mode: 'production', retry: { attempts: 2, initialDelayMs: 1000, factor: 2 } }, async (sim, lines) => {
        const before = listener.deliveries.length;
        await collect(sim, collectFields(`${listener.url}/cb`));
        await sleep(150);
        expect(listener.deliveries.length).toBe(before);
        expect(lines.filter((l) => /attempt \d\/2 -> failed/.test(l))).toHaveLength(2);
      });
    });
  });
  it('refuses an http callback URL in production, so nothing is ever delivered over http', async () => {
    await withListener({}, async (listener) => {
      await withSimulator({ mode: 'production' }, async (sim) => {
        const answer = await collect(sim, collectFields(`${listener.url}/cb`));
        expect(answer.json['error_code']).toBe('CALLBACK_URL_NOT_HTTPS');
        await sleep(100);
        expect(listener.deliveries).toHaveLength(0);
      });
    });
  });
});

describe('shutdown: in-flight callbacks finished or reported', () => {
  it('reports scheduled deliveries it abandons at close', async () => {
    await withSimulator({ processingDelayMs: 60_000 }, async (sim, lines) => {
      await collect(sim, collectFields('https://127.0.0.1:9/cb'));
      await sim.close();
      expect(lines.some((x) => /shutdown: abandoned outcome of/.test(x))).toBe(true);
    });
  });
  it('waits for a delivery on the wire before close() resolves', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const { createServer } = await import('node:http');
    const slow = createServer((_req, res) => { void held.then(() => res.end('ok')); });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const port = (slow.address() as { port: number }).port;
    try {
      await withSimulator({}, async (sim, lines) => {
        await collect(sim, collectFields(`http://127.0.0.1:${port}/cb`));
        await sleep(60);
        let closed = false;
        const closing = sim.close().then(() => { closed = true; });
        await sleep(50);
        expect(closed).toBe(false);
        release();
        await closing;
        expect(lines.some((l) => /callback GET .* attempt 1\/4 -> 200/.test(l))).toBe(true);
      });
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });
});
