// The receiver's preflight (harness/preflight/receiver.ts), rule by rule, in-process: one valid
// callback with the configured token, for a freshly seeded record (hooks) or a fresh id (black
// box). Its control has two halves (DESIGN.md "A positive control has two halves"): the answer
// (2xx with hooks; answered and not refused without) and the effect (the record changed). When
// it does not hold, the preflight names what it saw, as one finding whose symptom marks the
// cases it explains: the route refuses GET, the token is refused, the path is not the callback
// route, a 5xx after applying or before, a valid callback left unapplied, no answer, TLS.
// Against the reference receiver with its fault switches, and small fronts where none gives the
// answer a rule needs (suites/preflight/front.ts).
import { describe, expect, it } from 'vitest';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { listenerTls } from '../../harness/listener/index.ts';
import { runPreflight } from '../../harness/preflight/index.ts';
import { noSuchPath } from '../../harness/preflight/receiver.ts';
import type { ReceiverFault } from '../../harness/receiver/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { freePort } from '../support/free-port.ts';
import { startFront, type CallbackHandler, type FrontOptions } from './front.ts';
import { givenUpTarget } from './given-up.ts';
import { startedForDescribe } from '../support/per-describe.ts';

const WHAT_HOOKS = 'the preflight\'s valid callback (configured token) for a freshly seeded record';
const WHAT_BLACK_BOX = 'the preflight\'s valid callback (configured token) for a fresh id';
// A short deadline: a record left pending is polled for this long, so each such test costs it once.
const TIMING = { timeScale: 0.02, replyDeadlineMs: 300 };

const preflightOf = (target: ResolvedReceiverTarget) => runPreflight({ target, seed: 26 });

/** The embedded receiver with `faults`, for the tests of one describe. */
function receiverWith(options: Parameters<typeof startEmbeddedReceiver>[0] = {}) {
  return startedForDescribe(() => startEmbeddedReceiver({ ...TIMING, ...options }));
}

/** The target without its hooks: a black-box receiver. */
function blackBox(target: ResolvedReceiverTarget): ResolvedReceiverTarget {
  const { observe: _hooks, ...rest } = target;
  return rest;
}

/** The preflight against a front of `receiver` whose callbacks `onCallback` answers. */
async function throughFront(receiver: EmbeddedReceiver, onCallback: CallbackHandler, options: FrontOptions = {}) {
  const front = await startFront(receiver, onCallback, options);
  try {
    return { ...(await preflightOf(front.target)), callbacks: front.callbacks };
  } finally {
    await front.close();
  }
}

/** Answers `status` without the receiver seeing the callback. */
const answer = (status: number, headers: Record<string, string> = {}): CallbackHandler => (_req, res) => {
  res.writeHead(status, headers).end();
};
/** Hands the callback to the receiver, then answers `status` instead of the receiver's. */
const appliedThenAnswer = (status: number): CallbackHandler => (_req, res, pass) => {
  void pass().then(() => res.writeHead(status).end(), () => res.destroy());
};

describe('a receiver that applies the valid callback and answers 2xx: the control holds, nothing is found', () => {
  const receiver = receiverWith();
  it('with hooks: PASS, both halves held, the record read back as applied', async () => {
    const { preflight, result } = await preflightOf(receiver().target);
    expect(result).toMatchObject({ id: 'preflight.receiver', verdict: 'PASS' });
    expect(preflight).toEqual({
      side: 'receiver', findings: [],
      controls: { refusal: { state: 'held', what: WHAT_HOOKS, observed: 'it was answered 200 and the record reads state SUCCESS, actions 1', halves: { answer: 'held', effect: 'held' } } },
    });
  });
  it('2xx is 200 to 299: a 299 to an applied callback holds, a 300 does not (and is no named cause)', async () => {
    const at299 = await throughFront(receiver(), appliedThenAnswer(299));
    expect(at299.result.verdict, at299.result.reason).toBe('PASS');
    expect(at299.preflight.controls.refusal).toMatchObject({ state: 'held', halves: { answer: 'held', effect: 'held' } });
    const at300 = await throughFront(receiver(), appliedThenAnswer(300));
    expect(at300.preflight.controls.refusal).toMatchObject({ state: 'failed', observed: 'it was answered 300 and the record reads state SUCCESS, actions 1', halves: { answer: 'failed', effect: 'held' } });
    expect(at300.preflight.findings).toEqual([]);
    expect(at300.result).toMatchObject({ verdict: 'FAIL', reason: `${WHAT_HOOKS}: it was answered 300 and the record reads state SUCCESS, actions 1` });
  });
  it('a receiver that applies after answering: the preflight waits for the change (up to the reply deadline), not only the settling time', async () => {
    // Answered at once, applied 250 ms later: past the settling wait (150 ms for a 1.5 s deadline), well within the deadline even on a loaded machine.
    const front = await startFront(receiver(), (_req, res, pass) => {
      res.writeHead(200).end();
      setTimeout(() => void pass().catch(() => {}), 250);
    });
    const { preflight, result } = await preflightOf({ ...front.target, timing: { replyDeadlineMs: 1500 } }).finally(() => front.close());
    expect(result.verdict, result.reason).toBe('PASS');
    expect(preflight.controls.refusal?.halves).toEqual({ answer: 'held', effect: 'held' });
  });
  it('black box with a token: the answer half holds on any answer that is not a refusal (an unknown id\'s 404 too); nothing shows the effect', async () => {
    const { preflight, result } = await preflightOf(blackBox(receiver().target));
    expect(result.verdict, result.reason).toBe('PASS');
    expect(preflight.findings).toEqual([]);
    expect(preflight.controls.refusal).toEqual({ state: 'held', what: WHAT_BLACK_BOX, observed: 'it was answered 404', halves: { answer: 'held', effect: 'not-run' } });
  });
  it('black box without a token: nothing shows the receiver acting, so the control is not run (and the preflight does not PASS)', async () => {
    const { callbackToken: _token, ...noToken } = blackBox(receiver().target);
    const { preflight, result } = await preflightOf(noToken);
    const observed = 'the target names no callback token and has no hooks, so nothing shows the receiver acting';
    expect(preflight.controls.refusal).toEqual({ state: 'not-run', what: WHAT_BLACK_BOX, observed, halves: { answer: 'not-run', effect: 'not-run' } });
    expect(result).toMatchObject({ verdict: 'FAIL', reason: `${WHAT_BLACK_BOX}: ${observed}` });
  });
  it('hooks without a token: the control still runs (the record shows the effect); the token-less callback is refused', async () => {
    const { callbackToken: _token, ...noToken } = receiver().target;
    const { preflight } = await preflightOf(noToken);
    expect(preflight.controls.refusal).toMatchObject({ state: 'failed', what: WHAT_HOOKS, halves: { answer: 'failed', effect: 'failed' } });
    expect(preflight.findings.map((f) => f.id)).toEqual(['receiver.token-refused']);
  });
});

describe('a route that refuses GET: receiver.route-refuses-get, symptom the 405', () => {
  const receiver = receiverWith({ faults: ['refuses-get'] satisfies ReceiverFault[] });
  it('405 with Allow: the finding quotes the Allow header; both halves fail', async () => {
    const { preflight, result } = await preflightOf(receiver().target);
    const [finding, ...more] = preflight.findings;
    expect(more).toEqual([]);
    expect(finding).toMatchObject({ id: 'receiver.route-refuses-get', symptom: { kind: 'status', status: 405 } });
    expect(finding!.summary).toMatch(/^the callback route answered 405 \(Allow: POST\) to a valid callback: it does not accept GET/);
    expect(finding!.evidence?.exchanges?.filter((e) => e.response?.status === 405).map((e) => e.label)).toEqual(['preflight: valid callback']);
    expect(preflight.controls.refusal).toMatchObject({ state: 'failed', halves: { answer: 'failed', effect: 'failed' } });
    expect(result).toMatchObject({ verdict: 'FAIL', reason: `${WHAT_HOOKS}: it was answered 405 and the record reads state pending, actions 0` });
  });
  it('405 without Allow: no Allow named', async () => {
    const { preflight } = await throughFront(receiver(), answer(405));
    expect(preflight.findings[0]!.summary).toMatch(/^the callback route answered 405 to a valid callback/);
  });
  it('Allow sent twice: both values named, as one list', async () => {
    const { preflight } = await throughFront(receiver(), (_req, res) => {
      res.setHeader('allow', ['POST', 'PUT']);
      res.writeHead(405).end();
    });
    expect(preflight.findings[0]!.summary).toMatch(/^the callback route answered 405 \(Allow: POST, PUT\) to a valid callback/);
  });
  it('black box: a 405 is a refusal, the answer half fails', async () => {
    const { preflight } = await preflightOf(blackBox(receiver().target));
    expect(preflight.controls.refusal).toEqual({ state: 'failed', what: WHAT_BLACK_BOX, observed: 'it was answered 405', halves: { answer: 'failed', effect: 'not-run' } });
    expect(preflight.findings.map((f) => f.id)).toEqual(['receiver.route-refuses-get']);
  });
});

describe('the configured token refused: receiver.token-refused, symptom the status it got (401 or 403)', () => {
  const receiver = receiverWith({ faults: ['status-401'] satisfies ReceiverFault[] });
  const wrongToken = (t: ResolvedReceiverTarget): ResolvedReceiverTarget => ({ ...t, callbackToken: 'not-the-receivers-token-26' });
  it('403 (the reference receiver, a token not its own)', async () => {
    const plain = await startEmbeddedReceiver(TIMING);
    try {
      const { preflight } = await preflightOf(wrongToken(plain.target));
      expect(preflight.findings).toMatchObject([{ id: 'receiver.token-refused', symptom: { kind: 'status', status: 403 } }]);
      expect(preflight.findings[0]!.summary).toMatch(/^the configured token was refused: a valid callback carrying the configured X-Callback-Token was answered 403 \{"error".*\}: check that the target file's callbackToken \(COLLECT_CALLBACK_TOKEN\) is the receiver's token; every case that needs a valid callback to get through is ERROR \(not exercised\), and receiver.token.valid FAILs on its own evidence$/);
      expect(preflight.findings[0]!.blocking).toEqual({ headline: 'the configured token was refused', advice: "check that the target file's callbackToken (COLLECT_CALLBACK_TOKEN) is the receiver's token", judgedBy: ['receiver.token.valid'] });
      const black = await preflightOf(blackBox(wrongToken(plain.target)));
      expect(black.preflight.controls.refusal).toMatchObject({ state: 'failed', observed: 'it was answered 403', halves: { answer: 'failed', effect: 'not-run' } });
    } finally {
      await plain.close();
    }
  });
  it('401 (a receiver that answers a bad token 401): a plain refusal, named without the comparisons (none is sent)', async () => {
    const { preflight } = await preflightOf(wrongToken(receiver().target));
    expect(preflight.findings).toMatchObject([{ id: 'receiver.token-refused', symptom: { kind: 'status', status: 401 } }]);
    expect(preflight.findings[0]!.summary).toMatch(/^the configured token was refused: a valid callback carrying the configured X-Callback-Token was answered 401 \{"error".*\}: check that the target file's callbackToken/);
    expect(preflight.findings[0]!.evidence?.exchanges?.map((e) => e.label).filter((l) => l?.startsWith('preflight'))).toEqual(['preflight: valid callback']);
    const black = await preflightOf(blackBox(wrongToken(receiver().target)));
    expect(black.preflight.controls.refusal).toMatchObject({ state: 'failed', observed: 'it was answered 401', halves: { answer: 'failed', effect: 'not-run' } });
  });
  it('no token configured (hooks) and the token-less callback refused: the finding asks to name the token, blocking, judged by no case', async () => {
    const { callbackToken: _token, ...noToken } = receiver().target;
    const { preflight, result } = await preflightOf(noToken);
    const advice = 'name the receiver\'s token in the target file ("callbackToken": {"env": "…"})';
    expect(preflight.findings).toMatchObject([{ id: 'receiver.token-refused', symptom: { kind: 'status', status: 401 }, blocking: { headline: 'the receiver refused a callback without a token', advice, judgedBy: [] } }]);
    expect(preflight.findings[0]!.summary).toMatch(/^a valid callback without X-Callback-Token \(the target file names no callbackToken\) was answered 401 \{"error".*\}: the receiver checks a token, so name it in the target file \("callbackToken": \{"env": "…"\}\); every case that needs a valid callback to get through is ERROR \(not exercised\)$/);
    expect(result.reason).toMatch(/^the receiver refused a callback without a token: name the receiver's token in the target file/);
  });
});

describe('answers that are neither 2xx nor a refusal', () => {
  const receiver = receiverWith({ faults: ['error-after-applying'] satisfies ReceiverFault[] });
  it('404 for a record the receiver holds: receiver.callback-path-not-found; without hooks a 404 is an answer, nothing found', async () => {
    const wrongPath = (t: ResolvedReceiverTarget) => ({ ...t, callbackUrl: new URL('/payments/callback', t.callbackUrl).toString() });
    const { preflight } = await preflightOf(wrongPath(receiver().target));
    expect(preflight.findings).toMatchObject([{ id: 'receiver.callback-path-not-found', symptom: { kind: 'status', status: 404 } }]);
    expect(preflight.findings[0]!.summary).toMatch(/^a valid callback for a record the kit seeded \(state pending, actions 0\) was answered 404 .*, the same answer as the same callback on a path that cannot exist: likely the callback path \(callbackUrl\) is not the receiver's callback route$/);
    expect(preflight.findings[0]!.blocking).toBeUndefined();
    const black = await preflightOf(blackBox(wrongPath(receiver().target)));
    expect(black.preflight.findings).toEqual([]);
    expect(black.result.verdict).toBe('PASS');
  });
  it('500 after applying: receiver.server-error-after-applying; the effect half holds, the answer half fails', async () => {
    const { preflight, result } = await preflightOf(receiver().target);
    expect(preflight.findings).toMatchObject([{ id: 'receiver.server-error-after-applying', symptom: { kind: 'server-error' } }]);
    expect(preflight.findings[0]!.summary).toMatch(/^a valid callback was applied \(the record reads state SUCCESS, actions 1\) but answered 500: the service counts/);
    expect(preflight.controls.refusal).toMatchObject({ state: 'failed', halves: { answer: 'failed', effect: 'held' } });
    expect(result.verdict).toBe('FAIL');
  });
  it('500 before applying: receiver.server-error, with the record when hooks show it; without hooks a 5xx is a refusal', async () => {
    const { preflight } = await throughFront(receiver(), answer(500));
    expect(preflight.findings).toMatchObject([{ id: 'receiver.server-error', symptom: { kind: 'server-error' }, summary: 'a valid callback was answered 500 and the record reads state pending, actions 0' }]);
    expect(preflight.controls.refusal?.halves).toEqual({ answer: 'failed', effect: 'failed' });
    const black = await throughFront(receiver(), answer(500), { blackBox: true });
    expect(black.preflight.findings).toMatchObject([{ id: 'receiver.server-error', summary: 'a valid callback was answered 500' }]);
    expect(black.preflight.controls.refusal).toMatchObject({ state: 'failed', observed: 'it was answered 500', halves: { answer: 'failed', effect: 'not-run' } });
  });
  it('200 and nothing applied: receiver.valid-callback-not-applied, stated as a record left unapplied (not a status)', async () => {
    const { preflight, result, callbacks } = await throughFront(receiver(), answer(200));
    expect(callbacks).toBe(1);
    expect(preflight.findings).toMatchObject([{ id: 'receiver.valid-callback-not-applied', symptom: { kind: 'stated', cause: 'not-applied' } }]);
    expect(preflight.findings[0]!.summary).toMatch(/^a valid SUCCESS callback for a freshly seeded record was answered 200, and the record still reads state pending, actions 0:/);
    expect(preflight.controls.refusal).toMatchObject({ state: 'failed', halves: { answer: 'held', effect: 'failed' } });
    expect(result).toMatchObject({ verdict: 'FAIL', reason: `${WHAT_HOOKS}: it was answered 200 and the record reads state pending, actions 0` });
  });
  it('a record gone once the callback was applied (the hooks answer 404): not applied, as far as the harness can see', async () => {
    let applied = false;
    const { preflight } = await throughFront(receiver(), (_req, res, pass) => {
      void pass().then(() => { applied = true; res.writeHead(200).end(); });
    }, {
      onHook: (req, res, forward) => (applied && req.method === 'GET' ? res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such record"}') : forward()),
    });
    expect(preflight.controls.refusal).toMatchObject({ state: 'failed', observed: 'it was answered 200 and the record reads 404 (no record)', halves: { answer: 'held', effect: 'failed' } });
    expect(preflight.findings.map((f) => f.id)).toEqual(['receiver.valid-callback-not-applied']);
  });
});

describe('no usable answer: receiver.no-answer, or receiver.tls-failed for a failed handshake; symptom the failure', () => {
  const receiver = receiverWith();
  it('connection refused, with hooks: both halves fail, the record is not read after it', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/callback`;
    const { preflight, result } = await preflightOf({ ...receiver().target, callbackUrl: closed });
    const [finding] = preflight.findings;
    expect(finding).toMatchObject({ id: 'receiver.no-answer', symptom: { kind: 'failure', code: 'refused' } });
    expect(finding!.summary).toMatch(/^the preflight's valid callback got no usable answer \(.+\); every case that sends a callback will likely see the same$/);
    expect(finding!.evidence?.records).not.toHaveProperty('after');
    expect(preflight.controls.refusal).toMatchObject({ state: 'failed', observed: expect.stringMatching(/^it got no answer \(.+\)$/), halves: { answer: 'failed', effect: 'failed' } });
    expect(result.verdict).toBe('FAIL');
    const black = await preflightOf(blackBox({ ...receiver().target, callbackUrl: closed }));
    expect(black.preflight.controls.refusal?.halves).toEqual({ answer: 'failed', effect: 'not-run' });
  });
  it('a certificate the harness does not trust: receiver.tls-failed naming the handshake', async () => {
    const tls = await listenerTls();
    const https = await startEmbeddedReceiver({ ...TIMING, hooks: false, tls: { key: tls.key, cert: tls.cert, ca: tls.caCert } });
    try {
      const { caCert: _trusted, ...untrusting } = https.target;
      const { preflight } = await preflightOf(untrusting);
      expect(preflight.findings).toMatchObject([{ id: 'receiver.tls-failed', symptom: { kind: 'failure', code: 'tls' } }]);
      expect(preflight.findings[0]!.summary).toMatch(/^the preflight's valid callback failed in the TLS handshake \(.+\): likely the receiver's certificate is not trusted/);
      expect(preflight.controls.refusal).toMatchObject({ state: 'failed', halves: { answer: 'failed', effect: 'not-run' } });
    } finally {
      await https.close();
    }
  });
});

describe('a preflight that could not finish: no control stands, and why is the one finding', () => {
  const receiver = receiverWith();
  it('hooks that refuse connections: receiver.preflight-incomplete, its symptom the very error met', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/_conformance`;
    const { preflight, result } = await preflightOf({ ...receiver().target, observe: { kind: 'hooks', url: closed } });
    expect(result.verdict).toBe('ERROR');
    const failed = { state: 'failed', what: 'the preflight', observed: result.reason };
    expect(preflight.controls).toEqual({ refusal: failed, 'no-delivery': failed, confirmation: failed, 'status-refusal': failed });
    expect(preflight.findings).toEqual([{
      id: 'receiver.preflight-incomplete', symptom: { kind: 'same-error', reason: result.reason },
      summary: `the preflight could not finish (${result.reason}): the negative cases, which rest on it, prove nothing`,
    }]);
  });
  it('a throttle that answers 429 without Retry-After: receiver.rate-limited, stated so the cases refused the same way join it', async () => {
    const { preflight, result } = await throughFront(receiver(), answer(429, { 'content-type': 'application/json' }));
    expect(result.verdict).toBe('ERROR');
    expect(preflight.findings).toEqual([{
      id: 'receiver.rate-limited', symptom: { kind: 'stated', cause: 'rate-limited' },
      summary: expect.stringMatching(/^the receiver limits the request rate: the preflight could not finish \(the receiver answered 429 .*\), so the negative cases, which rest on it, prove nothing; the cases refused the same way are named here/),
    }]);
  });
  it('a target the run gave up on (it stopped answering): the run names that cause, so the preflight names none', async () => {
    const gaveUp = await givenUpTarget(['a', 'b', 'c']);
    try {
      const { preflight, result } = await runPreflight({ target: { ...receiver().target, callbackUrl: `${gaveUp.origin}/callback` }, seed: 26, watch: gaveUp.watch });
      expect(result.verdict).toBe('ERROR');
      expect(gaveUp.watch.stopped?.cases).toContain('preflight.receiver');
      expect(preflight.findings).toEqual([]);
      expect(preflight.controls.refusal).toMatchObject({ state: 'failed', what: 'the preflight' });
    } finally {
      await gaveUp.close();
    }
  });
});

/**
 * A front that plays an app: its callback route answers a token it does not know with `refusal`
 * and an id it does not hold with its own 404 body; any other path gets the framework's 404.
 * `knows` says whether it holds the seeded records (a receiver on another database does not).
 */
function app(options: { refusal: { status: number; body: string }; knows: boolean }): CallbackHandler {
  return (req, res, pass) => {
    const url = new URL(req.url ?? '/', 'http://front');
    if (url.pathname !== '/callback') return void res.writeHead(404, { 'content-type': 'text/html' }).end(`Cannot GET ${url.pathname}`);
    const unknown = () => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown transaction"}');
    const refuse = () => res.writeHead(options.refusal.status, { 'content-type': 'application/json' }).end(options.refusal.body);
    const tokenOk = req.headers['x-callback-token'] === 'the-apps-own-token-41';
    if (!tokenOk) return void refuse();
    if (!options.knows) return void unknown();
    // The reference receiver behind checks its own token: hand it on with that.
    req.headers['x-callback-token'] = RECEIVER_TOKEN;
    void pass().then((a) => res.writeHead(a.status, a.headers).end(a.body), () => res.destroy());
  };
}
let RECEIVER_TOKEN = '';

describe('a valid callback for a seeded record refused otherwise: told apart by the receiver\'s own answers (a wrong token, an id never seeded, a path that cannot exist)', () => {
  const receiver = receiverWith();
  const through = async (handler: CallbackHandler, token = 'the-apps-own-token-41') => {
    RECEIVER_TOKEN = receiver().target.callbackToken!;
    const front = await startFront(receiver(), handler);
    try {
      return { ...(await preflightOf({ ...front.target, callbackToken: token })), callbacks: () => front.callbacks };
    } finally {
      await front.close();
    }
  };
  it('the app answers a wrong token 400, as it answered the configured one: receiver.token-refused, blocking, and the three comparisons are in the evidence', async () => {
    const { preflight, result } = await through(app({ refusal: { status: 400, body: '{"error":"bad token"}' }, knows: true }), 'not-the-apps-token-41');
    expect(preflight.findings).toMatchObject([{ id: 'receiver.token-refused', symptom: { kind: 'status', status: 400 }, blocking: { headline: 'the configured token was refused', judgedBy: ['receiver.token.valid'] } }]);
    expect(preflight.findings[0]!.summary).toMatch(/^the configured token was refused: a valid callback carrying the configured X-Callback-Token was answered 400 \{"error":"bad token"\}, the same answer as the kit's own callback with a wrong token \(and as a valid callback for an id never seeded: /);
    expect(preflight.findings[0]!.evidence?.exchanges?.map((e) => e.label).filter((l) => l?.startsWith('preflight'))).toEqual([
      'preflight: valid callback',
      "preflight: the same callback with a wrong token (the receiver's own refusal, to compare)",
      'preflight: a valid callback for an id never seeded (the receiver\'s own "unknown id", to compare)',
      'preflight: the same callback on a path that cannot exist (the answer of no route, to compare)',
    ]);
    expect(result.verdict).toBe('FAIL');
    expect(result.reason).toMatch(/^the configured token was refused: check that the target file's callbackToken \(COLLECT_CALLBACK_TOKEN\) is the receiver's token; the cases that need a valid callback to get through are not exercised \(ERROR\)\. Seen: the preflight's valid callback/);
  });
  it('the app does not hold the seeded record (another database): receiver.seeded-record-unknown, not the route; its own 404 body beside the framework\'s', async () => {
    const { preflight, result, callbacks } = await through(app({ refusal: { status: 403, body: '{"error":"forbidden"}' }, knows: false }));
    expect(callbacks()).toBe(4);
    expect(preflight.findings).toMatchObject([{ id: 'receiver.seeded-record-unknown', symptom: { kind: 'status', status: 404 }, blocking: { headline: 'the receiver does not know the record the kit seeded', judgedBy: [] } }]);
    expect(preflight.findings[0]!.summary).toMatch(/^the receiver does not know the record the kit seeded: a valid callback for it was answered 404 \{"error":"unknown transaction"\}, as a valid callback for an id never seeded was, not as the same callback on a path that cannot exist \(404 Cannot GET \/cc-no-such-route-.+\) nor with a wrong token \(403 \{"error":"forbidden"\}\): likely the receiver reads other records/);
    expect(result.reason).toMatch(/^the receiver does not know the record the kit seeded: check that the receiver and the target file's hooksUrl or observe use the same records/);
  });
  it('the same app with the right records: the control holds, no comparison is sent', async () => {
    const { preflight, result, callbacks } = await through(app({ refusal: { status: 403, body: '{"error":"forbidden"}' }, knows: true }));
    expect(result.verdict, result.reason).toBe('PASS');
    expect(preflight.findings).toEqual([]);
    expect(callbacks()).toBe(1);
  });
  it('a route that does not exist answers like any path that cannot exist: receiver.callback-path-not-found, not blocking', async () => {
    const { preflight } = await through((req, res) => {
      const path = new URL(req.url ?? '/', 'http://front').pathname;
      res.writeHead(404, { 'content-type': 'text/html' }).end(`Cannot GET ${path}`);
    });
    expect(preflight.findings).toMatchObject([{ id: 'receiver.callback-path-not-found', symptom: { kind: 'status', status: 404 } }]);
    expect(preflight.findings[0]!.blocking).toBeUndefined();
  });
});

/** An answer an app's step gives, or undefined to go on to the next step. */
type Step = (call: { path: string; token: string | undefined; id: string | null; callbackStatus: string | null; seeded: string }) => { status: number; body: string } | undefined;
const APP_TOKEN = 'the-apps-own-token-41';
const json = (status: number, error: string) => ({ status, body: JSON.stringify({ error }) });
/** The app's router: any path but its callback route gets the framework's 404. */
const routed: Step = ({ path }) => (path === '/callback' ? undefined : { status: 404, body: `Cannot GET ${path}` });
/** A token check: none, or one not the app's, is refused (with `missing` for none, when given). */
const tokenChecked = (wrong: { status: number; body: string }, missing = wrong): Step => ({ token }) => (token === undefined ? missing : token === APP_TOKEN ? undefined : wrong);
/** A lookup of the id among the app's records: it holds only the seeded one (`knows`), or none. */
const lookedUp = (knows: boolean): Step => ({ id, seeded }) => (knows && id === seeded ? undefined : json(404, 'unknown transaction'));

/**
 * An app that runs `steps` in order on each callback, the first answer found being its answer;
 * a callback through them all is answered `last`. The seeded record's id is the first callback's
 * (the preflight's valid callback comes first).
 */
function stepped(steps: Step[], last: { status: number; body: string }): CallbackHandler {
  let seeded: string | undefined;
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://front');
    const token = req.headers['x-callback-token'];
    const id = url.searchParams.get('transaction_id');
    seeded ??= id ?? '';
    const call = { path: url.pathname, token: Array.isArray(token) ? token[0] : token, id, callbackStatus: url.searchParams.get('status'), seeded };
    const answered = steps.reduce<ReturnType<Step>>((found, step) => found ?? step(call), undefined) ?? last;
    res.writeHead(answered.status, { 'content-type': 'text/plain' }).end(answered.body);
  };
}

// Concurrent, one receiver: each test's own seed gives its preflight its own ids.
describe.concurrent('the three comparisons, each the valid callback with one thing changed, told apart by the receiver\'s own answers', () => {
  const receiver = receiverWith();
  let seed = 60;
  const through = async (handler: CallbackHandler, token = APP_TOKEN) => {
    const front = await startFront(receiver(), handler);
    try {
      return await runPreflight({ target: { ...front.target, callbackToken: token }, seed: (seed += 1) });
    } finally {
      await front.close();
    }
  };
  const NOT_PAYABLE = json(409, 'not payable');
  it('a seeded record refused with an answer unlike all three: receiver.callback-path-not-found, naming each comparison\'s answer', async () => {
    const { preflight } = await through(stepped([routed, tokenChecked(json(403, 'forbidden')), lookedUp(true)], NOT_PAYABLE));
    expect(preflight.findings).toMatchObject([{ id: 'receiver.callback-path-not-found', symptom: { kind: 'status', status: 409 } }]);
    expect(preflight.findings[0]!.summary).toMatch(/^a valid callback for a record the kit seeded \(state pending, actions 0\) was answered 409 \{"error":"not payable"\} and changed nothing: likely the callback path \(callbackUrl\) is not the receiver's callback route \(a path that cannot exist got 404 Cannot GET \/cc-no-such-route-\S+, an id never seeded 404 \{"error":"unknown transaction"\}, a wrong token 403 \{"error":"forbidden"\}\)$/);
    expect(preflight.findings[0]!.blocking).toBeUndefined();
  });
  it('comparisons that get no answer: each is shown as such, and the valid callback\'s answer is still judged', async () => {
    let calls = 0;
    const { preflight, result } = await through((req, res) => {
      calls += 1;
      if (calls > 1) return void req.socket.destroy();
      res.writeHead(409, { 'content-type': 'application/json' }).end(NOT_PAYABLE.body);
    });
    expect(result.verdict).toBe('FAIL');
    expect(preflight.findings).toMatchObject([{ id: 'receiver.callback-path-not-found', symptom: { kind: 'status', status: 409 } }]);
    expect(preflight.findings[0]!.summary).toMatch(/\(a path that cannot exist got no answer \(.+\), an id never seeded no answer \(.+\), a wrong token no answer \(.+\)\)$/);
  });
  it('an app that looks the id up before the token: a wrong token answered as the configured one is the token refused, the unknown id\'s other answer named', async () => {
    const { preflight } = await through(stepped([routed, lookedUp(true), tokenChecked(json(400, 'bad token'))], NOT_PAYABLE), 'not-the-apps-token-41');
    expect(preflight.findings).toMatchObject([{ id: 'receiver.token-refused', symptom: { kind: 'status', status: 400 }, blocking: { headline: 'the configured token was refused' } }]);
    expect(preflight.findings[0]!.summary).toMatch(/^the configured token was refused: a valid callback carrying the configured X-Callback-Token was answered 400 \{"error":"bad token"\}, the same answer as the kit's own callback with a wrong token \(not the receiver's answer to an id never seeded, 404 \{"error":"unknown transaction"\}\): check that/);
  });
  it('the wrong-token comparison carries a wrong token, not none: an app that answers a missing token otherwise still has its refusal matched', async () => {
    const app = stepped([routed, tokenChecked(json(400, 'bad token'), json(401, 'missing token')), lookedUp(true)], NOT_PAYABLE);
    const { preflight } = await through(app, 'not-the-apps-token-41');
    expect(preflight.findings).toMatchObject([{ id: 'receiver.token-refused', symptom: { kind: 'status', status: 400 } }]);
    expect(preflight.findings[0]!.summary).toContain('answered 400 {"error":"bad token"}, the same answer as the kit\'s own callback with a wrong token (and as a valid callback for an id never seeded');
  });
  it('the comparisons carry the valid callback\'s parameters: an app that validates them first still tells its unknown id from the route and the token', async () => {
    const validated: Step = ({ callbackStatus }) => (callbackStatus === 'SUCCESS' || callbackStatus === 'FAILED' ? undefined : json(400, 'invalid status'));
    const { preflight } = await through(stepped([routed, validated, tokenChecked(json(403, 'forbidden')), lookedUp(false)], NOT_PAYABLE));
    expect(preflight.findings).toMatchObject([{ id: 'receiver.seeded-record-unknown', symptom: { kind: 'status', status: 404 } }]);
  });
  it('an answer is its words: the whitespace around its body is not part of it', async () => {
    const padded: Step = ({ path }) => (path === '/callback' ? { status: 404, body: '  no such route\n' } : { status: 404, body: 'no such route' });
    const { preflight } = await through(stepped([padded], NOT_PAYABLE));
    expect(preflight.findings).toMatchObject([{ id: 'receiver.callback-path-not-found', symptom: { kind: 'status', status: 404 } }]);
    expect(preflight.findings[0]!.summary).toMatch(/, the same answer as the same callback on a path that cannot exist: likely the callback path/);
  });
});

describe('the path that cannot exist: the callback URL with its last segment replaced (the same router answers it)', () => {
  it('the directory and host kept, the query dropped', () => {
    expect(noSuchPath('http://127.0.0.1:9/api/v1/callback?channel=mm', 'a1')).toBe('http://127.0.0.1:9/api/v1/cc-no-such-route-a1');
    expect(noSuchPath('https://receiver.example/callback', 'b2')).toBe('https://receiver.example/cc-no-such-route-b2');
  });
  it('a callback URL ending in a slash: its empty last segment is the one replaced', () => {
    expect(noSuchPath('http://127.0.0.1:9/hooks/', 'c3')).toBe('http://127.0.0.1:9/hooks/cc-no-such-route-c3');
  });
});
