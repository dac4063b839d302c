// The receiver preflight's confirmation control (harness/preflight/confirm.ts, §6 rule 5): for a
// target that says it confirms, the preflight's valid SUCCESS callback is answered SUCCESS by the
// harness's status endpoint, and the control holds when the receiver asked about that
// transaction with a query the service accepts, applied the outcome and answered 2xx. When it
// does not hold, what the queries show is the one cause of the confirm cases: no query at all,
// queries refused as the service would refuse them, a query off the endpoint's route, one naming
// another id; a callback that met another cause leaves that cause named instead.
import { describe, expect, it } from 'vitest';
import { createServer, request } from 'node:http';
import { RunResources } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { runPreflight } from '../../harness/preflight/index.ts';
import { confirmationCheck } from '../../harness/preflight/confirm.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { listenOn } from '../../harness/tool/index.ts';
import { freePort } from '../support/free-port.ts';
import { startFront } from './front.ts';
import { startedForDescribe } from '../support/per-describe.ts';

const WHAT = 'the preflight\'s valid SUCCESS callback, which the harness\'s status endpoint confirms';
const NO_QUERY = 'no status query reached the harness\'s status endpoint';
const TIMING = { timeScale: 0.02, replyDeadlineMs: 300 };

const preflightOf = (target: ResolvedReceiverTarget) => runPreflight({ target, seed: 26 });

/**
 * A confirming embedded receiver (by default its status endpoint the harness's, port 0). Its own
 * limit on a status query is half its reply deadline: 2 s, so a query on a loaded machine stays
 * within it; the target's deadline stays 300 ms (a record left pending is polled that long).
 */
async function startConfirming(options: Parameters<typeof startEmbeddedReceiver>[0] = {}): Promise<EmbeddedReceiver> {
  const receiver = await startEmbeddedReceiver({ ...TIMING, replyDeadlineMs: 2000, confirms: true, ...options });
  receiver.target.timing = { replyDeadlineMs: TIMING.replyDeadlineMs };
  return receiver;
}

/** A confirming embedded receiver for the tests of one describe. */
function confirming(options: Parameters<typeof startEmbeddedReceiver>[0] = {}) {
  return startedForDescribe(() => startConfirming(options));
}

describe('a receiver that confirms with a query the service accepts, applies and answers 2xx: the control holds', () => {
  const receiver = confirming();
  it('PASS; the confirmation control beside the callback\'s', async () => {
    const { preflight, result } = await preflightOf(receiver().target);
    expect(result.verdict, result.reason).toBe('PASS');
    expect(preflight.findings).toEqual([]);
    expect(preflight.controls.refusal?.state).toBe('held');
    expect(preflight.controls.confirmation).toEqual({ state: 'held', what: WHAT, observed: 'the receiver asked the status endpoint, was answered SUCCESS, and applied it' });
  });
  it('2xx is 200 to 299: a confirmed, applied callback answered 299 holds; answered 300 it does not', async () => {
    const answered = async (status: number) => {
      const front = await startFront(receiver(), (_req, res, pass) => void pass().then(() => res.writeHead(status).end()));
      try {
        return (await preflightOf(front.target)).preflight.controls.confirmation;
      } finally {
        await front.close();
      }
    };
    expect((await answered(299))?.state).toBe('held');
    expect(await answered(300)).toEqual({ state: 'failed', what: WHAT, observed: 'the receiver asked the status endpoint and was answered SUCCESS, but answered 300 and the record reads SUCCESS, actions 1' });
  });
  it('confirmed, but the connection dropped before any answer: the control fails saying so; the callback\'s cause is the finding', async () => {
    const front = await startFront(receiver(), (_req, res, pass) => void pass().then(() => res.socket?.destroy()));
    try {
      const { preflight } = await preflightOf(front.target);
      expect(preflight.controls.confirmation).toEqual({ state: 'failed', what: WHAT, observed: 'the receiver asked the status endpoint and was answered SUCCESS, but gave no answer and the record reads nothing' });
      expect(preflight.findings.map((f) => f.id)).toEqual(['receiver.no-answer']);
    } finally {
      await front.close();
    }
  });
  it('confirmed, but the record gone once applied (the hooks answer 404): not applied as far as the harness sees', async () => {
    let applied = false;
    const front = await startFront(receiver(), (_req, res, pass) => void pass().then(() => { applied = true; res.writeHead(200).end(); }), {
      onHook: (req, res, forward) => (applied && req.method === 'GET' ? res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such record"}') : forward()),
    });
    try {
      const { preflight } = await preflightOf(front.target);
      expect(preflight.controls.confirmation).toMatchObject({ state: 'failed', observed: 'the receiver asked the status endpoint and was answered SUCCESS, but answered 200 and the record reads nothing' });
    } finally {
      await front.close();
    }
  });
  it('without hooks the callback names an id the receiver does not hold: nothing to confirm, not run', async () => {
    const { observe: _hooks, ...blackBox } = receiver().target;
    const { preflight, result } = await preflightOf(blackBox);
    expect(preflight.controls.confirmation).toMatchObject({ state: 'not-run', what: WHAT, observed: expect.stringMatching(/^without a seeded record .* there was nothing to confirm$/) });
    expect(result.verdict).toBe('PASS');
  });
  it('a callback that met another cause (a token not the receiver\'s) and no query: the control fails; that cause is the one named', async () => {
    for (const target of [receiver().target, (({ observe: _hooks, ...rest }) => rest)(receiver().target)]) {
      const { preflight } = await preflightOf({ ...target, callbackToken: 'not-the-receivers-token-26' });
      expect(preflight.controls.confirmation).toEqual({ state: 'failed', what: WHAT, observed: `${NO_QUERY} for it, and the valid callback met another cause, which the preflight names` });
      expect(preflight.findings.map((f) => f.id)).toEqual(['receiver.token-refused']);
    }
  });
});

describe('confirmed but not applied as SUCCESS, or not answered 2xx: the control fails; the callback\'s own cause stays the finding', () => {
  it('500 after applying: the confirmation names the answer and the record; the finding is the 5xx after applying', async () => {
    const receiver = await startConfirming({ faults: ['error-after-applying'] });
    try {
      const { preflight, result } = await preflightOf(receiver.target);
      expect(preflight.controls.confirmation).toEqual({ state: 'failed', what: WHAT, observed: 'the receiver asked the status endpoint and was answered SUCCESS, but answered 500 and the record reads SUCCESS, actions 1' });
      expect(preflight.findings.map((f) => f.id)).toEqual(['receiver.server-error-after-applying']);
      expect(result.reason).toMatch(/^the preflight's valid callback \(configured token\) for a freshly seeded record: it was answered 500/);
    } finally {
      await receiver.close();
    }
  });
  it('confirmed, then applied as FAILED: the callback\'s control holds (it changed), the confirmation does not, and the preflight FAILs naming the confirmation', async () => {
    // A receiver that confirms FAILED outcomes too and takes any status answer as confirming, behind
    // a front that turns the callback's SUCCESS into FAILED: its query is good, its record FAILED.
    const receiver = await startConfirming({ confirmsFailed: true, faults: ['confirms-ignores-status'] });
    const front = await startFront(receiver, (req, res, pass) => {
      req.url = req.url!.replace('status=SUCCESS', 'status=FAILED');
      void pass().then((a) => res.writeHead(a.status).end(a.body));
    });
    try {
      const { preflight, result } = await preflightOf(front.target);
      expect(preflight.controls.refusal?.state).toBe('held');
      const observed = 'the receiver asked the status endpoint and was answered SUCCESS, but answered 200 and the record reads FAILED, actions 1';
      expect(preflight.controls.confirmation).toEqual({ state: 'failed', what: WHAT, observed });
      expect(preflight.findings).toEqual([]);
      expect(result).toMatchObject({ verdict: 'FAIL', reason: `${WHAT}: ${observed}` });
    } finally {
      await front?.close();
      await receiver.close();
    }
  });
});

describe('what the queries show is the shared cause, named instead of the callback\'s', () => {
  it('queries refused as the service would refuse them (signed in body order): receiver.confirm.query-refused, for the whole side', async () => {
    const receiver = await startConfirming({ faults: ['status-query-body-order'] });
    try {
      const { preflight } = await preflightOf(receiver.target);
      expect(preflight.controls.confirmation).toMatchObject({ state: 'failed', observed: expect.stringMatching(/^its status query was refused as the service would refuse it: .+/) });
      expect(preflight.findings).toMatchObject([{ id: 'receiver.confirm.query-refused', symptom: { kind: 'whole-side' }, evidence: { exchanges: expect.any(Array) } }]);
      expect(preflight.findings[0]!.summary).toMatch(/^the receiver's status query \(POST \/api\/v1\.0\/transaction_status\/\) for the preflight's valid callback was refused as the service would refuse it: /);
    } finally {
      await receiver.close();
    }
  });
  it('a query off the endpoint\'s route (the target states another path): receiver.confirm.query-off-route', async () => {
    // The run serves the endpoint itself on this port, at the path the target file states.
    const receiver = await startConfirming({ confirms: { port: await freePort() } });
    try {
      const t = receiver.target;
      const target = { ...t, confirms: { ...t.confirms!, status: { ...t.confirms!.status, path: '/api/v2/status' } } };
      const { preflight } = await preflightOf(target);
      expect(preflight.controls.confirmation).toMatchObject({ state: 'failed', observed: 'the receiver called POST /api/v1.0/transaction_status/, not the status endpoint' });
      expect(preflight.findings).toMatchObject([{ id: 'receiver.confirm.query-off-route', symptom: { kind: 'whole-side' } }]);
      expect(preflight.findings[0]!.summary).toMatch(/^the receiver called POST \/api\/v1\.0\/transaction_status\/ on the status endpoint's listener, where the target's status endpoint is POST \/api\/v2\/status:/);
    } finally {
      await receiver.close();
    }
  });
  it('a query naming another id (the id percent-encoded): receiver.confirm.query-other-id', async () => {
    const receiver = await startConfirming({ faults: ['status-query-id-encoded'], transactionIds: { template: 'pf {id}&/' } });
    try {
      const { preflight } = await preflightOf(receiver.target);
      expect(preflight.controls.confirmation).toMatchObject({ state: 'failed', observed: expect.stringMatching(/^its status query named "pf%20.+%26%2F", not the callback's "pf .+&\/"$/) });
      expect(preflight.findings).toMatchObject([{ id: 'receiver.confirm.query-other-id', symptom: { kind: 'whole-side' } }]);
    } finally {
      await receiver.close();
    }
  });
  it('no query at all, the outcome applied: receiver.confirm.never-queried; the callback\'s control holds, the preflight FAILs on the confirmation', async () => {
    const receiver = await startConfirming({ faults: ['never-confirms'] });
    try {
      const { preflight, result } = await preflightOf(receiver.target);
      const observed = `${NO_QUERY} for it; the receiver applied it (the record reads SUCCESS, actions 1)`;
      expect(preflight.controls.refusal?.state).toBe('held');
      expect(preflight.controls.confirmation).toEqual({ state: 'failed', what: WHAT, observed });
      expect(preflight.findings).toMatchObject([{ id: 'receiver.confirm.never-queried', symptom: { kind: 'stated', cause: 'no-status-query' } }]);
      expect(preflight.findings[0]!.summary).toMatch(/^the target says the receiver confirms outcomes \("confirms"\), but no status query reached the harness's status endpoint \(http:\/\/127\.0\.0\.1:\d+\/api\/v1\.0\/transaction_status\/\) for the preflight's valid SUCCESS callback, and the receiver applied it/);
      expect(result).toMatchObject({ verdict: 'FAIL', reason: `${WHAT}: ${observed}` });
    } finally {
      await receiver.close();
    }
  });
  /**
   * A receiver that does not confirm, behind a front that sends the status endpoint (served by the
   * run on `port`, as the target's `confirms` says) one stray request of `stray`'s making before
   * handing each callback on; the preflight's findings.
   */
  async function withStray(stray: { method: string; path: string; body?: string }) {
    const receiver = await startEmbeddedReceiver(TIMING);
    const port = await freePort();
    const send = () => new Promise<void>((resolve) => {
      const sent = request({ host: '127.0.0.1', port, method: stray.method, path: stray.path, headers: { 'content-type': 'application/json' } }, (answer) => {
        answer.resume().on('end', () => resolve());
      });
      sent.on('error', () => resolve());
      sent.end(stray.body);
    });
    let front: Awaited<ReturnType<typeof startFront>> | undefined;
    try {
      front = await startFront(receiver, (_req, res, pass) => {
        void send().then(pass).then((a) => res.writeHead(a.status).end(a.body));
      });
      const target: ResolvedReceiverTarget = {
        ...front.target,
        confirms: { listener: { host: '127.0.0.1', port, publicUrl: null }, clientId: 7, clientKey: 'pf-client-key-26', secretKey: 'pf-secret-key-0123456789-26', status: { method: 'POST', path: '/api/v1.0/transaction_status/', pointer: '/status' } },
      };
      return (await preflightOf(target)).preflight;
    } finally {
      await front?.close();
      await receiver.close();
    }
  }
  it('a stray query that names no id and is on the route (a body that is no query) is neither cause: still "never queried"', async () => {
    const preflight = await withStray({ method: 'POST', path: '/api/v1.0/transaction_status/', body: 'not json' });
    expect(preflight.findings.map((f) => f.id)).toEqual(['receiver.confirm.never-queried']);
  });
  it('off the route by its method, with a query string: the route named is the method and path alone', async () => {
    const preflight = await withStray({ method: 'GET', path: '/api/v1.0/transaction_status/?transaction_id=x&client_id=7' });
    expect(preflight.controls.confirmation?.observed).toBe('the receiver called GET /api/v1.0/transaction_status/, not the status endpoint');
    expect(preflight.findings.map((f) => f.id)).toEqual(['receiver.confirm.query-off-route']);
  });
});

describe('confirmationCheck on its own', () => {
  const sent = { ok: true as const, answer: { status: 200, headers: {}, body: '', durationMs: 1 }, exchange: {} } as unknown as Parameters<typeof confirmationCheck>[4];
  it('a target that does not confirm: no confirmation control', async () => {
    const resources = new RunResources();
    try {
      const target: ResolvedReceiverTarget = { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 300 } };
      expect(await confirmationCheck(target, resources, 'id-1', 0, sent, undefined, false, {}, 0)).toBeUndefined();
    } finally {
      await resources.close();
    }
  });
  it('an endpoint the harness cannot serve (its port taken): the control fails naming why', async () => {
    const taken = createServer();
    const { port } = await listenOn(taken, 0, '127.0.0.1');
    const resources = new RunResources();
    try {
      const target: ResolvedReceiverTarget = {
        side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 300 },
        confirms: { listener: { host: '127.0.0.1', port, publicUrl: null }, clientId: 7, clientKey: 'k', secretKey: 's', status: { method: 'POST', path: '/api/v1.0/transaction_status/', pointer: '/status' } },
      };
      expect(await confirmationCheck(target, resources, 'id-1', 0, sent, null, false, {}, 0)).toEqual({
        control: { state: 'failed', what: WHAT, observed: `the harness could not listen on 127.0.0.1:${port} (confirms.listener) to serve the status endpoint (EADDRINUSE)` },
      });
    } finally {
      await resources.close();
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});

