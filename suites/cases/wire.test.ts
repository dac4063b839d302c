// DESIGN.md: the cases that measure time or load run alone. Their measurement has the wire to
// itself: a readers–writer gate (harness/wire) that every exchange of ours holds shared and a
// measurement (ctx.wire.alone) holds exclusively. The gate's rules here; whole runs through a
// recording target that shows no other request of the run is open while a measured request is:
// wire-whole-run.test.ts (end-to-end tier).
import { describe, expect, it } from 'vitest';
import type { ConformanceCase } from '../../harness/cases/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { CaseWire, WireGate } from '../../harness/wire/index.ts';
import { runCases } from '../../harness/runner/index.ts';

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
