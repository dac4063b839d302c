// DESIGN.md: the cases that measure time or load run alone. Their measurement has the wire to
// itself: a readers–writer gate (harness/wire) that every exchange of ours holds shared and a
// measurement (ctx.wire.alone) holds exclusively. The gate's rules, then a recording target
// that shows no other request of the run is open while a measured request is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CaseSlots, RECEIVER_CASES, runCases, type ConformanceCase } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { runChecked } from '../../harness/preflight/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { CaseWire, WireGate } from '../../harness/wire/index.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

/** Whether `p` has settled after a few turns of the event loop. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(() => { done = true; }, () => { done = true; });
  await tick();
  return done;
}

describe('the wire gate: exchanges shared, a measurement exclusive', () => {
  it('a measurement waits for the exchanges already in flight, then starts', async () => {
    const gate = new WireGate();
    const releaseA = await gate.shared();
    const releaseB = await gate.shared();
    const measure = gate.exclusive('receiver.latency.burst');
    expect(await settled(measure)).toBe(false);
    releaseA();
    expect(await settled(measure)).toBe(false);
    releaseB();
    expect(await settled(measure)).toBe(true);
    (await measure)();
  });

  it('exchanges asked for while a measurement holds or waits for the wire wait until it is done', async () => {
    const gate = new WireGate();
    const inFlight = await gate.shared();
    const measure = gate.exclusive('m');
    // Queued behind the measurement, though only an exchange is in flight: the measurement is not starved.
    const queued = gate.shared();
    expect(await settled(queued)).toBe(false);
    inFlight();
    const releaseMeasure = await measure;
    const duringHold = gate.shared();
    expect(await settled(queued)).toBe(false);
    expect(await settled(duringHold)).toBe(false);
    expect(gate.measuring).toBe('m');
    releaseMeasure();
    expect(await settled(queued)).toBe(true);
    expect(await settled(duringHold)).toBe(true);
    (await queued)();
    (await duringHold)();
    expect(gate.measuring).toBeUndefined();
  });

  it('one measurement at a time, first come first served; an exchange asked for between two goes between them', async () => {
    const gate = new WireGate();
    const order: string[] = [];
    const first = gate.exclusive('first').then((r) => { order.push('first'); return r; });
    const second = gate.exclusive('second').then((r) => { order.push('second'); return r; });
    const exchange = gate.shared().then((r) => { order.push('exchange'); return r; });
    const third = gate.exclusive('third').then((r) => { order.push('third'); return r; });
    await tick();
    expect(order).toEqual(['first']);
    (await first)();
    await tick();
    expect(order).toEqual(['first', 'second']);
    (await second)();
    await tick();
    // The third waits for the exchange that was asked for before it.
    expect(order).toEqual(['first', 'second', 'exchange']);
    (await exchange)();
    await tick();
    expect(order).toEqual(['first', 'second', 'exchange', 'third']);
    (await third)();
  });

  it("a case's own exchanges inside its measurement pass; another case's wait (no self-deadlock)", async () => {
    const gate = new WireGate();
    const measuring = new CaseWire(gate, 'receiver.latency.burst');
    const other = new CaseWire(gate, 'receiver.token.missing');
    const log: string[] = [];
    let otherDone: Promise<void> | undefined;
    await measuring.alone(async () => {
      otherDone = other.exchange(async () => { log.push('other'); });
      await Promise.all([1, 2, 3].map((i) => measuring.exchange(async () => { await tick(); log.push(`own ${i}`); })));
      // Nested: still the same measurement.
      await measuring.alone(async () => { log.push('nested'); });
      log.push('measured');
    });
    await otherDone;
    expect(log).toEqual(['own 1', 'own 2', 'own 3', 'nested', 'measured', 'other']);
  });

  it('released when the exchange or the measurement fails', async () => {
    const gate = new WireGate();
    const wire = new CaseWire(gate, 'c');
    await expect(wire.exchange(async () => { throw new Error('reset'); })).rejects.toThrow('reset');
    await expect(wire.alone(async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(gate.wouldWait(true)).toBe(false);
    expect(await settled(gate.exclusive('next'))).toBe(true);
  });

  it('a wait given up (the case stopped) leaves the queue and lets the others go', async () => {
    const gate = new WireGate();
    const inFlight = await gate.shared();
    const stop = new AbortController();
    const measure = gate.exclusive('given-up', stop.signal);
    const exchange = gate.shared();
    expect(await settled(exchange)).toBe(false);
    stop.abort(new Error('case time limit reached'));
    await expect(measure).rejects.toThrow('case time limit reached');
    // The measurement no longer holds the exchange back.
    expect(await settled(exchange)).toBe(true);
    (await exchange)();
    inFlight();
    expect(gate.wouldWait(true)).toBe(false);
  });

  it('a case knows how long it waited, and says for whom', async () => {
    const gate = new WireGate();
    const said: Array<string | undefined> = [];
    const measuring = new CaseWire(gate, 'receiver.latency.single');
    const waiting = new CaseWire(gate, 'receiver.token.missing', { onWait: (line) => said.push(line) });
    let waited = 0;
    let exchange: Promise<void> | undefined;
    await measuring.alone(async () => {
      exchange = waiting.exchange(async () => { waited = waiting.waitedMs(); });
      await new Promise((r) => setTimeout(r, 60));
    });
    await exchange;
    await tick();
    expect(waited).toBeGreaterThanOrEqual(50);
    expect(said).toEqual(['waiting for the wire: receiver.latency.single measures', undefined]);
  });
});

describe('the runner: time spent waiting for another case\'s measurement is not the case\'s own', () => {
  const target: ResolvedReceiverTarget = { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 300 } };
  const synthetic = (id: string, run: ConformanceCase<ResolvedReceiverTarget>['run']): ConformanceCase<ResolvedReceiverTarget> =>
    ({ id, title: 'synthetic', specRef: '§0', level: 'MUST', side: 'receiver', needs: [], run });

  it('a case with a 200 ms limit waiting 280 ms for two measurements is not cut off; it is told why it waits', async () => {
    const progress: string[] = [];
    const measures = (n: number) => synthetic(`receiver.synthetic.measures-${n}`, async (ctx) => {
      // Within its own limit: 150 ms measuring (the second also waits for the first, not counted).
      await ctx.wire.alone(() => new Promise((r) => setTimeout(r, 150)));
      return { verdict: 'PASS' };
    });
    const results = await runCases({
      target, seed: 1, caseTimeoutMs: 200, concurrency: 3,
      onProgress: (id, line) => progress.push(`${id}: ${line}`),
      cases: [
        measures(1),
        measures(2),
        // Asks for the wire at 20 ms, behind both measurements: it ends after ~310 ms, 40 ms of them its own.
        synthetic('receiver.synthetic.waits', async (ctx) => {
          await new Promise((r) => setTimeout(r, 20));
          await ctx.wire.exchange(() => new Promise((r) => setTimeout(r, 10)));
          await ctx.wire.exchange(() => new Promise((r) => setTimeout(r, 10)));
          return { verdict: 'PASS' };
        }),
      ],
    });
    expect(results.map((r) => `${r.id} ${r.verdict} ${r.reason ?? ''}`.trim())).toEqual([
      'receiver.synthetic.measures-1 PASS', 'receiver.synthetic.measures-2 PASS', 'receiver.synthetic.waits PASS',
    ]);
    expect(results[2]!.durationMs).toBeGreaterThan(250);
    // Said when it starts waiting (one wait, through both measurements), then taken back.
    expect(progress.filter((l) => l.startsWith('receiver.synthetic.waits:'))).toEqual([
      'receiver.synthetic.waits: waiting for the wire: receiver.synthetic.measures-1 measures', 'receiver.synthetic.waits: ',
    ]);
  });

  it('a case that overruns its own time still ends ERROR at its limit', async () => {
    const [result] = await runCases({
      target, seed: 1, caseTimeoutMs: 100,
      cases: [synthetic('receiver.synthetic.hangs', () => new Promise(() => {}))],
    });
    expect(result?.verdict).toBe('ERROR');
    expect(result?.reason).toBe('the case did not finish within 100 ms');
    expect(result?.durationMs).toBeLessThan(1000);
  });
});

/** One request as the target saw it: open from its arrival to the end of its answer. */
interface Opened {
  owner: string;
  callback: boolean;
  start: number;
  end: number;
}

/**
 * A loopback proxy in front of the reference receiver that records when each request was open
 * and whose it was (the case that drew its transaction id; unknown for the preflight and for
 * ids the proxy cannot read).
 */
async function recordingProxy(
  upstream: string,
  ownerOf: (id: string) => string | undefined,
  /** Holds a request this long before forwarding it (a target slow to answer it). */
  delayMs: (owner: string, callback: boolean) => number = () => 0,
): Promise<{ origin: string; opened: Opened[]; server: Server }> {
  const opened: Opened[] = [];
  const to = new URL(upstream);
  const server = createServer((req, res) => {
    const start = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://x');
      let id = url.searchParams.get('transaction_id') ?? pathId(url.pathname);
      if (id === undefined && body.length > 0) {
        try {
          id = (JSON.parse(body.toString()) as { transaction_id?: string }).transaction_id;
        } catch {
          // Not JSON: no id.
        }
      }
      const owner = (id !== undefined ? ownerOf(id) : undefined) ?? 'unknown';
      const callback = !url.pathname.includes('/transactions');
      const forward = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      res.on('close', () => opened.push({ owner, callback, start, end: performance.now() }));
      setTimeout(() => forward.end(body), delayMs(owner, callback));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, opened, server };
}

/** The id of a hook path `/transactions/{id}`, when it decodes. */
function pathId(path: string): string | undefined {
  const raw = /\/transactions\/([^/]+)$/.exec(path)?.[1];
  try {
    return raw === undefined ? undefined : decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

const MEASURING = ['receiver.latency.single', 'receiver.latency.burst', 'receiver.idempotence.concurrent-duplicates'];
/** How late the slow proxy answers the measured callbacks, and the case limit their three measurements outlast. */
const SLOW_PROXY_MS = 1250;
const CASE_LIMIT_MS = 3500;

describe('receiver.latency.* and receiver.idempotence.concurrent-duplicates measure with nothing else on the wire', () => {
  let embedded: EmbeddedReceiver;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let slowProxy: Awaited<ReturnType<typeof recordingProxy>>;
  const owners = new Map<string, string>();
  beforeAll(async () => {
    embedded = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 1000 });
    const upstream = new URL(embedded.target.callbackUrl).origin;
    proxy = await recordingProxy(upstream, (id) => owners.get(id));
    // Answers the measured callbacks a quarter deadline (of 1000 ms) late, well within the 2000 ms
    // request limit (1.8 deadlines left 160 ms to it, 1.5 left 400: a loaded machine used both up,
    // and a case went ERROR).
    slowProxy = await recordingProxy(upstream, (id) => owners.get(id), (owner, callback) => (callback && MEASURING.includes(owner) ? SLOW_PROXY_MS : 0));
  });
  afterAll(async () => {
    await new Promise((r) => proxy.server.close(r));
    await new Promise((r) => slowProxy.server.close(r));
    await embedded.close();
  });

  /**
   * The receiver behind `through`, and every receiver case (but the confirm ones: this receiver
   * does not confirm), its transaction ids remembered as its own.
   */
  function behind(through: { origin: string }, replyDeadlineMs = embedded.target.timing.replyDeadlineMs) {
    const origin = new URL(embedded.target.callbackUrl).origin;
    const target: ResolvedReceiverTarget = {
      ...embedded.target,
      callbackUrl: embedded.target.callbackUrl.replace(origin, through.origin),
      observe: { kind: 'hooks', url: embedded.receiver.hooksUrl.replace(origin, through.origin) },
      timing: { replyDeadlineMs },
    };
    const cases = RECEIVER_CASES.filter((c) => !c.needs.includes('confirms')).map((c): ConformanceCase<ResolvedReceiverTarget> => ({
      ...c,
      run: (ctx) => c.run({ ...ctx, newTransactionId: () => { const id = ctx.newTransactionId(); owners.set(id, c.id); return id; } }),
    }));
    return { target, cases };
  }

  it('every case at once: no other request is open while a measured callback is', async () => {
    const { target, cases } = behind(proxy);
    const { results, preflight } = await runChecked({ cases, target, seed: 7, slots: new CaseSlots(32) });
    expect(preflight.result.verdict).toBe('PASS');
    for (const id of MEASURING) expect(results.find((r) => r.id === id)?.verdict, id).toBe('PASS');

    const measured = proxy.opened.filter((o) => o.callback && MEASURING.includes(o.owner));
    // 1 + 20 + 10 callbacks.
    expect(measured.length).toBe(31);
    // The others did run side by side with the measuring cases (not after them).
    const othersBefore = proxy.opened.filter((o) => !MEASURING.includes(o.owner) && o.start < Math.max(...measured.map((m) => m.start)));
    expect(othersBefore.length).toBeGreaterThan(0);
    const overlaps = measured.flatMap((m) => proxy.opened
      .filter((o) => o.owner !== m.owner && o.start < m.end && o.end > m.start)
      .map((o) => `${m.owner} [${m.start.toFixed(1)}, ${m.end.toFixed(1)}] overlaps ${o.owner} ${o.callback ? 'callback' : 'hook'} [${o.start.toFixed(1)}, ${o.end.toFixed(1)}]`));
    expect(overlaps).toEqual([]);
  }, 30_000);

  it('a target that answers the measured callbacks late turns no waiting case into ERROR', async () => {
    // Three measurements hold the wire ~3.75 s in all, longer than the 3.5 s case limit given
    // here: the cases waiting for them would end ERROR if the wait counted against their limit.
    // 3.5 s of a case's own time leaves a loaded machine room (3 s did not, once).
    const { target, cases } = behind(slowProxy, 1000);
    const { results, preflight } = await runChecked({ cases, target, seed: 8, slots: new CaseSlots(32), caseTimeoutMs: CASE_LIMIT_MS });
    expect(preflight.result.verdict).toBe('PASS');
    const shown = results.map((r) => `${r.id} ${r.verdict}`);
    // Late, not cut off: measured and judged.
    expect(shown).toContain('receiver.latency.single FAIL');
    expect(shown).toContain('receiver.latency.burst FAIL');
    expect(shown).toContain('receiver.idempotence.concurrent-duplicates PASS');
    const others = results.filter((r) => !MEASURING.includes(r.id));
    expect(others.filter((r) => r.verdict !== 'PASS').map((r) => `${r.id} ${r.verdict}: ${r.reason}`)).toEqual([]);
    // Some of them did wait for the measurements: the limit was moved on, not merely not reached.
    expect(Math.max(...others.map((r) => r.durationMs))).toBeGreaterThan(CASE_LIMIT_MS);
  }, 30_000);
});
