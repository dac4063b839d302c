// `run --rate`: the requests to a target are paced, apart from how many cases wait side by side
// (harness/wire/pace.ts). The rate as written, Retry-After as sent, the pace and the gate with a
// measurement's burst, and the runner: time spent waiting for the pace is not a case's own.
import { describe, expect, it } from 'vitest';
import type { ConformanceCase } from '../../harness/cases/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { CaseWire, Pace, parseRate, RateError, retryAfterMs, WireGate } from '../../harness/wire/index.ts';
import { runCases } from '../../harness/runner/index.ts';

describe('--rate: N/s or N/min, or off', () => {
  it('reads requests per second as written', () => {
    expect(parseRate('5/s')).toEqual({ perSecond: 5, text: '5/s' });
    expect(parseRate('60/min')).toEqual({ perSecond: 1, text: '60/min' });
    expect(parseRate('0.5/s')?.perSecond).toBe(0.5);
    expect(parseRate('off')).toBeUndefined();
  });
  it.each(['5', '0/s', '-1/s', 'fast', '5/h', '2000/s', '1e3/s', '', '5/s/s'])('refuses %j, naming it', (bad) => {
    expect(() => parseRate(bad)).toThrow(RateError);
    expect(() => parseRate(bad)).toThrow(`(got ${JSON.stringify(bad)})`);
  });
});

describe('Retry-After: seconds or an HTTP date, never less than a second', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  it('delay-seconds', () => {
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs(['7'], now)).toBe(7000);
    // Whole seconds: "0" is "within the second", not "now".
    expect(retryAfterMs('0', now)).toBe(1000);
  });
  it('an HTTP date', () => {
    expect(retryAfterMs('Mon, 01 Jun 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 01 Jun 2026 11:00:00 GMT', now)).toBe(1000);
  });
  it('absent or unreadable: undefined', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('2026-06-01', now)).toBeUndefined();
  });
});

describe('the pace: one request every 1/rate seconds; a burst charged; a 429 pauses it', () => {
  function clocked(rate: string) {
    let t = 1000;
    const pace = new Pace(parseRate(rate), () => t);
    return { pace, advance: (ms: number) => { t += ms; } };
  }
  it('a turn every interval, no burst after an idle spell', () => {
    const { pace, advance } = clocked('10/s');
    expect(pace.tryTake()).toBe(true);
    expect(pace.tryTake()).toBe(false);
    expect(pace.dueInMs()).toBe(100);
    advance(100);
    expect(pace.tryTake()).toBe(true);
    // Idle for a second: one turn is due, not ten.
    advance(1000);
    expect(pace.tryTake()).toBe(true);
    expect(pace.tryTake()).toBe(false);
  });
  it("a measurement's burst of 5 goes at once and is paid back before the next turn", () => {
    const { pace } = clocked('10/s');
    for (let i = 0; i < 5; i++) pace.charge();
    expect(pace.sent).toBe(5);
    expect(pace.dueInMs()).toBe(500);
  });
  it('a measurement of N at once starts once the N - 1 turns before it went unused', () => {
    const { pace, advance } = clocked('10/s');
    expect(pace.tryTake()).toBe(true);
    advance(100);
    expect([pace.tryStart(), pace.tryStart(2), pace.dueInMs(2)]).toEqual([true, false, 100]);
    advance(100);
    expect(pace.tryStart(2)).toBe(true);
  });
  it('paced turns and bursts of two, as the pending status case sends them: no 500 ms window holds more than 10/s allows (5)', () => {
    const { pace, advance } = clocked('10/s');
    const sent: number[] = [];
    let bursts = 0;
    // Exchanges take every turn; every 300 ms a measurement asks, and (as the gate holds exchanges behind it) waits for its start.
    let wants = false;
    for (let t = 1000; t < 7000; t += 10, advance(10)) {
      if (t % 300 === 0) wants = true;
      if (wants) {
        if (!pace.tryStart(2)) continue;
        pace.charge();
        pace.charge();
        sent.push(t, t);
        bursts++;
        wants = false;
      } else if (pace.tryTake()) sent.push(t);
    }
    expect(bursts).toBeGreaterThan(10);
    const most = Math.max(...sent.map((start) => sent.filter((x) => x >= start && x < start + 500).length));
    expect(most).toBeLessThanOrEqual(5);
  });
  it("a 429's Retry-After holds every request, even unpaced", () => {
    let t = 0;
    const unpaced = new Pace(undefined, () => t);
    expect(unpaced.tryTake()).toBe(true);
    unpaced.pauseFor(2000);
    expect(unpaced.tryTake()).toBe(false);
    expect(unpaced.waitingFor()).toMatch(/Retry-After/);
    t = 2000;
    expect(unpaced.tryTake()).toBe(true);
    expect(unpaced.throttled).toBe(1);
  });
});

/** A pace that keeps the moment of every turn it gave (or request it was charged). */
class RecordingPace extends Pace {
  readonly turns: number[] = [];
  override charge(): void {
    this.turns.push(performance.now());
    super.charge();
  }
}

/** Arrival times of `count` exchanges of `wire`s asked for at once. */
async function sendTimes(wires: readonly CaseWire[]): Promise<number[]> {
  const at: number[] = [];
  await Promise.all(wires.map((w) => w.exchange(async () => { at.push(performance.now()); })));
  return at;
}

describe("a 429's Retry-After, told to a case's wire", () => {
  it('pauses every request to the target and allows the one retry; inside a measurement it pauses but allows none', async () => {
    const pace = new Pace(parseRate('100/s'));
    const gate = new WireGate();
    const wire = new CaseWire(gate, 'c', { pace });
    expect(wire.throttled(200)).toBeUndefined();
    expect(pace.dueInMs()).toBeGreaterThan(150);
    expect(pace.throttled).toBe(1);
    // The measurement itself starts once the pause is over.
    await wire.alone(async () => { expect(wire.throttled(100)).toBe('measuring'); });
    expect(pace.throttled).toBe(2);
  });
  it('longer than 60 s (a spent quota): neither waited out nor a pause for the others', () => {
    const pace = new Pace(parseRate('100/s'));
    expect(new CaseWire(new WireGate(), 'c', { pace }).throttled(3_600_000)).toBe('too-long');
    expect(pace.dueInMs()).toBe(0);
  });
});

describe('the gate lets paced exchanges on the wire at their target\'s turn', () => {
  it('six exchanges of six cases asked for at once go 50 ms apart (20/s)', async () => {
    const gate = new WireGate();
    const pace = new RecordingPace(parseRate('20/s'));
    await sendTimes(Array.from({ length: 6 }, (_, i) => new CaseWire(gate, `c${i}`, { pace })));
    // Each turn at least an interval after the one before (a timer that fires a millisecond
    // early finds the turn not yet due and waits again).
    const gaps = pace.turns.slice(1).map((t, i) => t - pace.turns[i]!);
    expect(gaps).toHaveLength(5);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(50);
  });

  it("another target's exchange does not wait for this target's turn, but none passes a measurement asked for before it", async () => {
    const gate = new WireGate();
    const slow = new Pace(parseRate('2/s'));
    const order: string[] = [];
    await new CaseWire(gate, 'paced0', { pace: slow }).exchange(async () => { order.push('paced0'); });
    // Its target's next turn is 500 ms away.
    const paced1 = new CaseWire(gate, 'paced1', { pace: slow }).exchange(async () => { order.push('paced1'); });
    await new CaseWire(gate, 'unpaced').exchange(async () => { order.push('unpaced'); });
    expect(order).toEqual(['paced0', 'unpaced']);
    const measuring = new CaseWire(gate, 'measures').alone(async () => { order.push('measures'); });
    const after = new CaseWire(gate, 'after').exchange(async () => { order.push('after'); });
    await Promise.all([paced1, measuring, after]);
    expect(order).toEqual(['paced0', 'unpaced', 'paced1', 'measures', 'after']);
  });

  it("a measurement's own burst goes at once; the next exchange waits until the burst is paid back", async () => {
    const gate = new WireGate();
    const pace = new Pace(parseRate('20/s'));
    const measuring = new CaseWire(gate, 'receiver.latency.burst', { pace });
    const other = new CaseWire(gate, 'receiver.token.missing', { pace });
    let burst: number[] = [];
    await measuring.alone(async () => { burst = await sendTimes(Array.from({ length: 5 }, () => measuring)); });
    expect(burst.at(-1)! - burst[0]!).toBeLessThan(20);
    const [next] = await sendTimes([other]);
    // Five turns of 50 ms charged at once.
    expect(next! - burst[0]!).toBeGreaterThanOrEqual(5 * 50 - 1);
    expect(pace.sent).toBe(6);
  });

  it("at its target's turn, the case furthest along goes first: a case's next step does not queue behind every other case's first", async () => {
    const gate = new WireGate();
    // Turns 200 ms apart: the three must all be waiting when the next turn comes. At 20/s this
    // failed at load 23 with b1 before a2: likely a stall of 50 ms after a1 left the turn already
    // due when b asked, before a2 was asked for.
    const pace = new Pace(parseRate('5/s'));
    const order: string[] = [];
    const a = new CaseWire(gate, 'a', { pace });
    await a.exchange(async () => { order.push('a1'); });
    const firsts = ['b', 'c'].map((id) => new CaseWire(gate, id, { pace }).exchange(async () => { order.push(`${id}1`); }));
    const next = a.exchange(async () => { order.push('a2'); });
    await Promise.all([...firsts, next]);
    expect(order).toEqual(['a1', 'a2', 'b1', 'c1']);
  });

  it('the case is told it waits for its turn, and the wait is counted as waited', async () => {
    const gate = new WireGate();
    const pace = new Pace(parseRate('10/s'));
    const said: Array<string | undefined> = [];
    const first = new CaseWire(gate, 'first', { pace });
    const second = new CaseWire(gate, 'second', { pace, onWait: (line) => said.push(line) });
    await sendTimes([first, second]);
    expect(said).toEqual(['waiting for its turn to send (requests to the target paced at 10/s)', undefined]);
    expect(second.waitedMs()).toBeGreaterThanOrEqual(90);
  });
});

describe('the runner: pace turns and time limits', () => {
  const target: ResolvedReceiverTarget = { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 300 } };
  it('the cases that watch retries (the longest) start first, so their requests get the first turns; results stay in case order', async () => {
    const order: string[] = [];
    const cases = ['a', 'b', 'c', 'retries'].map((leaf): ConformanceCase<ResolvedReceiverTarget> => ({
      id: `receiver.synthetic.${leaf}`, title: 'synthetic', specRef: '§0', level: 'MUST', side: 'receiver', needs: [],
      ...(leaf === 'retries' ? { watchesRetries: true as const } : {}),
      run: async (ctx) => {
        await ctx.wire.exchange(async () => { order.push(leaf); });
        return { verdict: 'PASS' };
      },
    }));
    const results = await runCases({ cases, target, seed: 1, concurrency: 4, pace: new Pace(parseRate('50/s')) });
    expect(order).toEqual(['retries', 'a', 'b', 'c']);
    expect(results.map((r) => r.id)).toEqual(cases.map((c) => c.id));
  });
  it('twelve cases with a 150 ms limit, one exchange each at 20/s (the last waits 550 ms): all PASS', async () => {
    const pace = new RecordingPace(parseRate('20/s'));
    const cases = Array.from({ length: 12 }, (_, i): ConformanceCase<ResolvedReceiverTarget> => ({
      id: `receiver.synthetic.paced-${i}`, title: 'synthetic', specRef: '§0', level: 'MUST', side: 'receiver', needs: [],
      run: async (ctx) => {
        await ctx.wire.exchange(async () => {});
        // Some of the case's own time after its turn, well within its limit.
        await new Promise((r) => setTimeout(r, 30));
        return { verdict: 'PASS' };
      },
    }));
    const results = await runCases({ cases, target, seed: 1, caseTimeoutMs: 150, concurrency: 12, pace });
    expect(results.filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(Math.max(...results.map((r) => r.durationMs))).toBeGreaterThan(500);
    expect(pace.turns.at(-1)! - pace.turns[0]!).toBeGreaterThanOrEqual(11 * 50);
  });
});
