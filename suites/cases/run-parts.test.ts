// The runner's own parts, with synthetic cases: what an outcome states reaches the result (and
// nothing when it states nothing), a case's progress while it waits at the wire, the case limit
// not counting that wait, the case's signal once it ended, the side's cases only, the clock for
// waivers, the cases still running when the caller's onResult throws; and RunResources (opened
// once, closed once, every close tried).
import { describe, expect, it } from 'vitest';
import { CaseError, RunResources, type ConformanceCase } from '../../harness/cases/index.ts';
import type { Observation } from '../../harness/observe/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { Pace } from '../../harness/wire/index.ts';
import { runCases } from '../../harness/runner/index.ts';

const target: ResolvedReceiverTarget = { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 300 } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `side` other than the target's: a case list holding another side's case, as allCases() does. */
function caseOf(id: string, run: ConformanceCase<ResolvedReceiverTarget>['run'], side: ConformanceCase['side'] = 'receiver'): ConformanceCase<ResolvedReceiverTarget> {
  return { id, title: 'synthetic', specRef: '§0', level: 'MUST', side: side as 'receiver', needs: [], run };
}
const run = (cases: ConformanceCase<ResolvedReceiverTarget>[], more: Partial<Parameters<typeof runCases<ResolvedReceiverTarget>>[0]> = {}) =>
  runCases({ cases, target, seed: 1, ...more });

describe('what an outcome states reaches the result (CaseResult.stated), and nothing when it states nothing', () => {
  it('causes, a failure, both, neither', async () => {
    const failure = { code: 'refused', message: 'the connection was refused (ECONNREFUSED)' } as const;
    const results = await run([
      caseOf('a.causes', async () => ({ verdict: 'FAIL', reason: 'x', causes: ['no-callback'] })),
      caseOf('a.failure', async () => ({ verdict: 'ERROR', reason: 'y', failure })),
      caseOf('a.none', async () => ({ verdict: 'FAIL', reason: 'z', causes: [] })),
    ]);
    expect(results.map((r) => r.stated)).toEqual([{ causes: ['no-callback'] }, { failure }, undefined]);
    expect(results[2]).not.toHaveProperty('stated');
  });
  it('a CaseError thrown: ERROR with its evidence, its causes and its failure', async () => {
    const failure = { code: 'timeout', message: 'no answer within 5 ms', limitMs: 5 } as const;
    const [r] = await run([caseOf('a.thrown', async () => { throw new CaseError('went wrong', { notes: ['seen'] }, { causes: ['no-callback'], failure }); })]);
    expect(r).toMatchObject({ verdict: 'ERROR', reason: 'went wrong', evidence: { notes: ['seen'] }, stated: { causes: ['no-callback'], failure } });
  });
});

describe('progress while a case waits at the wire', () => {
  it('its own line until the wait, the wait while it lasts, then what it said meanwhile', async () => {
    const lines: string[] = [];
    await run([caseOf('a.paced', async (ctx) => {
      ctx.progress('first');
      await ctx.wire.exchange(async () => undefined);
      // Its turn comes 250 ms after the first's: the wait begins as the exchange is asked for.
      const second = ctx.wire.exchange(async () => undefined);
      ctx.progress('said while waiting');
      await second;
      ctx.progress('after');
      return { verdict: 'PASS' };
    })], { pace: new Pace({ perSecond: 4, text: '4/s' }), onProgress: (_id, line) => lines.push(line) });
    expect(lines).toEqual(['first', 'waiting for its turn to send (requests to the target paced at 4/s)', 'said while waiting', 'after']);
  });
  it('a case that never waits: each line as said', async () => {
    const lines: string[] = [];
    await run([caseOf('a.open', async (ctx) => { ctx.progress('one'); ctx.progress('two'); return { verdict: 'PASS' }; })], { onProgress: (_id, line) => lines.push(line) });
    expect(lines).toEqual(['one', 'two']);
  });
});

describe('the case limit', () => {
  it('time waiting at the wire is not counted, and the ERROR says how much was waited', async () => {
    const [r] = await run([caseOf('a.slow', async (ctx) => {
      await ctx.wire.exchange(async () => undefined);
      await ctx.wire.exchange(async () => undefined); // waits its turn, 500 ms
      await new Promise(() => undefined);
      return { verdict: 'PASS' };
    })], { pace: new Pace({ perSecond: 2, text: '2/s' }), caseTimeoutMs: 300 });
    expect(r!.reason).toMatch(/^the case did not finish within 300 ms \(not counting \d+ ms it waited at the wire: for another case's measurement, or for its turn to send\)$/);
    expect(r!.durationMs).toBeGreaterThanOrEqual(700);
  });
  it('a case that ended has its signal aborted (what it left running stops)', async () => {
    let signal: AbortSignal | undefined;
    await run([caseOf('a.ends', async (ctx) => { signal = ctx.signal; return { verdict: 'PASS' }; })]);
    expect(signal?.aborted).toBe(true);
  });
});

describe('which cases run', () => {
  it("only the target's side: a service case given with a receiver target is not run", async () => {
    let ran = false;
    const results = await run([caseOf('r.one', async () => ({ verdict: 'PASS' })), caseOf('s.one', async () => { ran = true; return { verdict: 'PASS' }; }, 'service')]);
    expect([results.map((r) => r.id), ran]).toEqual([['r.one'], false]);
  });
  it('waivers are judged by the clock when no `now` is given: one expiring tomorrow applies, one that expired yesterday not', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const failing = [caseOf('w.one', async () => ({ verdict: 'FAIL', reason: 'known' }))];
    const [current] = await run(failing, { waivers: [{ id: 'w.one', reason: 'tracked in ABC-1', expires: day(1) }] });
    const [expired] = await run(failing, { waivers: [{ id: 'w.one', reason: 'tracked in ABC-1', expires: day(-1) }] });
    expect([current!.waiver?.applied, expired!.waiver?.applied]).toEqual([true, false]);
  });
  it('`now` given: the waivers are judged by it', async () => {
    const [r] = await run([caseOf('w.one', async () => ({ verdict: 'FAIL', reason: 'known' }))], {
      waivers: [{ id: 'w.one', reason: 'tracked in ABC-1', expires: '2030-01-01' }], now: () => new Date('2030-01-02T00:00:00Z'),
    });
    expect(r!.waiver?.applied).toBe(false);
  });
  it('onResult throwing: runCases rejects only once the cases under way have ended', async () => {
    let laterEnded = false;
    const later = caseOf('b.later', async () => { await sleep(200); laterEnded = true; return { verdict: 'PASS' }; });
    const first = caseOf('a.first', async () => ({ verdict: 'PASS' }));
    await expect(run([first, later], { concurrency: 2, onResult: () => { throw new Error('the caller failed'); } })).rejects.toThrow('the caller failed');
    expect(laterEnded).toBe(true);
  });
});

describe('RunResources', () => {
  const observation = (closed: string[], name: string, fails = false) => ({
    describe: name,
    close: async () => { closed.push(name); if (fails) throw new Error(`${name} could not close`); },
  }) as unknown as Observation;

  it('an observation is opened once per target and shared; one that could not open is tried again', async () => {
    const resources = new RunResources();
    let opened = 0;
    const open = async () => { opened++; return observation([], 'db'); };
    const [a, b] = await Promise.all([resources.observation(target, open), resources.observation(target, open)]);
    expect([a === b, opened]).toEqual([true, 1]);
    const other: ResolvedReceiverTarget = { ...target };
    await expect(resources.observation(other, async () => { throw new Error('refused'); })).rejects.toThrow('refused');
    await sleep(0);
    expect((await resources.observation(other, open)).describe).toBe('db');
    await resources.close();
  });
  it('close: every observation closed once (one that never opened skipped), the first failure thrown after all were tried', async () => {
    const resources = new RunResources();
    const closed: string[] = [];
    const targets = [{ ...target }, { ...target }, { ...target }];
    await resources.observation(targets[0]!, async () => observation(closed, 'first', true));
    await resources.observation(targets[1]!, async () => observation(closed, 'second'));
    const never = resources.observation(targets[2]!, () => new Promise<Observation>((_, reject) => setTimeout(() => reject(new Error('late refusal')), 20)));
    never.catch(() => undefined);
    await expect(resources.close()).rejects.toThrow('first could not close');
    expect(closed.sort()).toEqual(['first', 'second']);
    await resources.close();
    expect(closed).toHaveLength(2);
  });
  it('close with only an observation that never opened: nothing to close, no failure', async () => {
    const resources = new RunResources();
    resources.observation(target, () => new Promise<Observation>((_, reject) => setTimeout(() => reject(new Error('late refusal')), 20))).catch(() => undefined);
    await expect(resources.close()).resolves.toBeUndefined();
  });
});
