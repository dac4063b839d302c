// The preflight's public face (harness/preflight/index.ts): runChecked runs the side's preflight
// and the selected cases at once, every negative case guarded by its control; the preflight is
// told before the first case's result; a client's cases wait for its plain call; a status query
// is made only when a selected case rests on one; the cases whose PASS was taken back, and those
// a run that gave up on its target stopped, are named in case order; what the run holds is closed
// unless the caller holds it; a receiver's records are checked before any case.
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { RunResources, type ConformanceCase } from '../../harness/cases/index.ts';
import { startEmbeddedClient, startEmbeddedReceiver, startEmbeddedService } from '../../harness/embedded/index.ts';
import { runChecked, type PreflightRun } from '../../harness/preflight/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import type { ResolvedTarget } from '../../harness/targets/index.ts';
import { listenOn, originOf } from '../../harness/tool/index.ts';
import { freePort } from '../support/free-port.ts';
import { startFront } from './front.ts';
import { givenUpTarget } from './given-up.ts';

const TIMING = { timeScale: 0.02, replyDeadlineMs: 300 };

function synthetic<T extends ResolvedTarget>(side: T['side'], id: string, run: ConformanceCase<T>['run'], negative?: ConformanceCase['negative']): ConformanceCase<T> {
  return { id, title: id, specRef: '§0', level: 'MUST', side, needs: [], ...(negative ? { negative } : {}), run } as ConformanceCase<T>;
}

describe('the preflight and the cases go at once; the preflight is told first', () => {
  it('a receiver case ends before the preflight, yet its result is told after onPreflight; it started beside the preflight', async () => {
    const receiver = await startEmbeddedReceiver(TIMING);
    try {
      const told: string[] = [];
      let preflightDone = false;
      let startedBeforePreflight: boolean | undefined;
      const checked = await runChecked({
        target: receiver.target, seed: 26,
        cases: [synthetic('receiver', 'receiver.synthetic.quick', async () => { startedBeforePreflight = !preflightDone; return { verdict: 'PASS' }; })],
        onPreflight: (run: PreflightRun) => { preflightDone = true; told.push(`preflight ${run.result.verdict}`); },
        onResult: (r: CaseResult) => { told.push(`${r.id} ${r.verdict}`); },
      });
      expect(told).toEqual(['preflight PASS', 'receiver.synthetic.quick PASS']);
      expect(startedBeforePreflight).toBe(true);
      expect(checked.preflight.result.verdict).toBe('PASS');
      expect(checked.results.map((r) => r.id)).toEqual(['receiver.synthetic.quick']);
      expect(checked).not.toHaveProperty('stopped');
    } finally {
      await receiver.close();
    }
  });
  it('a client\'s cases start once its plain call is done (the adapter takes one call at a time)', async () => {
    const client = await startEmbeddedClient();
    let preflightDone = false;
    let startedAfterPreflight: boolean | undefined;
    const checked = await runChecked({
      target: client.target, seed: 26,
      cases: [synthetic('client', 'client.synthetic.after', async () => { startedAfterPreflight = preflightDone; return { verdict: 'PASS' }; })],
      onPreflight: () => { preflightDone = true; },
    });
    expect(checked.preflight.result.verdict).toBe('PASS');
    expect(startedAfterPreflight).toBe(true);
  });
});

describe('a status query only when a selected case rests on one', () => {
  const statusControl = async (cases: ConformanceCase[], only?: string) => {
    const service = await startEmbeddedService();
    try {
      const checked = await runChecked({ target: service.target, seed: 26, cases, ...(only ? { only } : {}) });
      return checked.preflight.controls['status-refusal'];
    } finally {
      await service.close();
    }
  };
  const plain = synthetic('service', 'service.synthetic.plain', async () => ({ verdict: 'PASS' }));
  it('no such case selected: not run', async () => {
    expect(await statusControl([plain])).toMatchObject({ state: 'not-run', observed: 'no case of this run queries the status endpoint' });
    const statusCase = synthetic('service', 'service.status.synthetic', async () => ({ verdict: 'PASS' }));
    expect(await statusControl([plain, statusCase], 'service.synthetic.plain')).toMatchObject({ state: 'not-run' });
  });
  it('a case of the side\'s status group, or a negative case resting on the status control: queried', async () => {
    expect(await statusControl([plain, synthetic('service', 'service.status.synthetic', async () => ({ verdict: 'PASS' }))])).toMatchObject({ state: 'held' });
    expect(await statusControl([plain, synthetic('service', 'service.auth.synthetic', async () => ({ verdict: 'PASS' }), 'status-refusal')])).toMatchObject({ state: 'held' });
  });
});

describe('the run\'s options reach its cases', () => {
  it('--only and waivers: only the cases selected run, a waived FAIL is marked excused', async () => {
    const receiver = await startEmbeddedReceiver(TIMING);
    try {
      const checked = await runChecked({
        target: receiver.target, seed: 26, only: 'receiver.synthetic.failing',
        waivers: [{ id: 'receiver.synthetic.failing', reason: 'known, ticket 26' }],
        cases: [
          synthetic('receiver', 'receiver.synthetic.failing', async () => ({ verdict: 'FAIL', reason: 'r' })),
          synthetic('receiver', 'receiver.synthetic.left-out', async () => ({ verdict: 'PASS' })),
        ],
      });
      expect(checked.results).toMatchObject([{ id: 'receiver.synthetic.failing', verdict: 'FAIL', waiver: { reason: 'known, ticket 26', applied: true } }]);
    } finally {
      await receiver.close();
    }
  });
  it('--concurrency 1: the preflight takes the first slot, so a case starts once its callback was sent', async () => {
    const receiver = await startEmbeddedReceiver(TIMING);
    const front = await startFront(receiver, (_req, res, pass) => void pass().then((a) => res.writeHead(a.status).end(a.body)));
    try {
      let seenAtStart = -1;
      await runChecked({
        target: front.target, seed: 26, concurrency: 1,
        cases: [synthetic('receiver', 'receiver.synthetic.second', async () => { seenAtStart = front.callbacks; return { verdict: 'PASS' }; })],
      });
      expect(seenAtStart).toBe(1);
    } finally {
      await front.close();
      await receiver.close();
    }
  });
});

describe('the cases taken back, and the cases a run that gave up stopped: in case order', () => {
  it('two negative PASSes beside a control that failed (a token not the receiver\'s): both unproven, in case order, whichever ended first', async () => {
    const receiver = await startEmbeddedReceiver(TIMING);
    try {
      let secondDone!: () => void;
      const second = new Promise<void>((resolve) => { secondDone = resolve; });
      const checked = await runChecked({
        target: { ...receiver.target, callbackToken: 'not-the-receivers-token-26' }, seed: 26,
        cases: [
          synthetic('receiver', 'receiver.synthetic.first', async () => { await second; return { verdict: 'PASS' }; }, 'refusal'),
          synthetic('receiver', 'receiver.synthetic.second', async () => { secondDone(); return { verdict: 'PASS' }; }, 'refusal'),
          synthetic('receiver', 'receiver.synthetic.positive', async () => ({ verdict: 'PASS' })),
        ],
      });
      expect(checked.unproven).toEqual(['receiver.synthetic.first', 'receiver.synthetic.second']);
      expect(checked.results.map((r) => `${r.id} ${r.verdict}`)).toEqual(['receiver.synthetic.first ERROR', 'receiver.synthetic.second ERROR', 'receiver.synthetic.positive PASS']);
    } finally {
      await receiver.close();
    }
  });
  it('a target given up on: stopped names its cause and the run\'s cases it stopped, in case order (not the silent ones of before)', async () => {
    const receiver = await startEmbeddedReceiver(TIMING);
    const gaveUp = await givenUpTarget(['before.a', 'before.b', 'before.c']);
    try {
      const checked = await runChecked({
        target: { ...receiver.target, callbackUrl: `${gaveUp.origin}/callback` }, seed: 26, watch: gaveUp.watch,
        cases: [synthetic('receiver', 'receiver.synthetic.one', async () => ({ verdict: 'PASS' })), synthetic('receiver', 'receiver.synthetic.two', async () => ({ verdict: 'PASS' }))],
      });
      expect(checked.stopped).toEqual({ cause: gaveUp.watch.stopped!.cause, cases: ['preflight.receiver', 'receiver.synthetic.one', 'receiver.synthetic.two'] });
    } finally {
      await gaveUp.close();
      await receiver.close();
    }
  });
});

describe('what the run holds: closed at its end, unless the caller holds it', () => {
  /** A confirming receiver whose status endpoint each run serves itself, on `port`. */
  const bound = async (port: number) => {
    const probe = createServer();
    try {
      await listenOn(probe, port, '127.0.0.1');
      return false;
    } catch {
      return true;
    } finally {
      probe.close();
    }
  };
  it('the run\'s own resources are closed (the status endpoint\'s port is free again); the caller\'s stay open until it closes them', async () => {
    const port = await freePort();
    // Its own limit on a status query is half its reply deadline: 1 s, room on a loaded machine.
    const receiver = await startEmbeddedReceiver({ ...TIMING, replyDeadlineMs: 2000, confirms: { port } });
    receiver.target.timing = { replyDeadlineMs: TIMING.replyDeadlineMs };
    try {
      const own = await runChecked({ target: receiver.target, seed: 26, cases: [] });
      expect(own.preflight.controls.confirmation?.state).toBe('held');
      expect(await bound(port)).toBe(false);
      const resources = new RunResources();
      try {
        await runChecked({ target: receiver.target, seed: 27, cases: [], resources });
        expect(await bound(port)).toBe(true);
      } finally {
        await resources.close();
      }
      expect(await bound(port)).toBe(false);
    } finally {
      await receiver.close();
    }
  });
});

describe('a receiver\'s records are checked before any case', () => {
  /** runChecked against the embedded receiver observed through `command` (its floor for an answer scaled when given); the callbacks that reached it. */
  async function observedBy(command: (token: string) => string, minObserverAnswerMs?: number) {
    const receiver = await startEmbeddedReceiver(TIMING);
    let callbacks = 0;
    const front = createServer((_req, res) => { callbacks += 1; res.writeHead(200).end(); });
    const origin = originOf(await listenOn(front, 0, '127.0.0.1'));
    try {
      const { observe: _hooks, ...rest } = receiver.target;
      const target = { ...rest, callbackUrl: `${origin}/callback`, observe: { kind: 'command' as const, command: command(rest.callbackToken!) } };
      const error = await runChecked({ target, seed: 26, cases: [], ...(minObserverAnswerMs !== undefined ? { minObserverAnswerMs } : {}) }).then(() => undefined, (e: unknown) => e as Error);
      return { error, callbacks, token: rest.callbackToken! };
    } finally {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await receiver.close();
    }
  }
  it('a black-box receiver: nothing to check, the preflight runs', async () => {
    const receiver = await startEmbeddedReceiver(TIMING);
    try {
      const { observe: _hooks, ...blackBox } = receiver.target;
      expect((await runChecked({ target: blackBox, seed: 26, cases: [] })).preflight.result.verdict).toBe('PASS');
    } finally {
      await receiver.close();
    }
  });
  it('records seen through an observer command that works (a bridge to the test hooks): checked, then the control holds', async () => {
    const receiver = await startEmbeddedReceiver(TIMING);
    try {
      const { observe: _hooks, ...rest } = receiver.target;
      const target = { ...rest, observe: { kind: 'command' as const, command: `node suites/observe/fixtures/hooks-observer.mjs ${receiver.receiver.hooksUrl}` } };
      const checked = await runChecked({ target, seed: 26, cases: [] });
      expect(checked.preflight.result.verdict, checked.preflight.result.reason).toBe('PASS');
      expect(checked.preflight.controls.refusal?.halves).toEqual({ answer: 'held', effect: 'held' });
    } finally {
      await receiver.close();
    }
  });
  it('an observer command that exits at once: runChecked throws naming it, with the target\'s secrets redacted, and no callback is sent', async () => {
    // The command writes the callback token to its stderr, which the error quotes.
    const { error, callbacks, token } = await observedBy((t) => `node -e "console.error('${t}')"`);
    // First, so that a failure never prints the token.
    expect(error?.message.includes(token)).toBe(false);
    expect(error?.message).toMatch(/^\/observe: the observer command gave no usable answer to read "cc-[^"]+" \(start\)/);
    expect(error?.message).toContain('[REDACTED]');
    expect(callbacks).toBe(0);
  });
  it('an observer command that never answers: the check gives up on it after the per-request limit (a command\'s floor at least), never waits for ever', async () => {
    // A command's floor (MIN_COMMAND_ANSWER_MS, 5 s: a JVM takes a second to start; the run's, scaled to 1.5 s here), above this run's 1000 ms limit.
    const { error, callbacks } = await observedBy(() => 'node -e "setInterval(() => {}, 1000)"', 1500);
    expect(error?.message).toMatch(/^\/observe: the observer command gave no usable answer to read "cc-[^"]+" \(timeout\): no answer within 1500 ms/);
    expect(callbacks).toBe(0);
  }, 15_000);
});
