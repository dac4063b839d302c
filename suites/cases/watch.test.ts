// TargetWatch: a target that stopped answering is given up on once SILENT_CASES_TO_STOP cases in a
// row got no answer at all and a plain request gets none either; never for a target that answers
// anything. Known answers with a stand-in liveness check.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { livenessCheck, SILENT_CASES_TO_STOP, silenceOf, TargetWatch, watchFor } from '../../harness/runner/index.ts';
import { listenerTls } from '../../harness/listener/index.ts';
import { verdictAndReason, type CaseResult, type Exchange } from '../../harness/results/index.ts';
import type { ResolvedReceiverTarget, ResolvedTarget } from '../../harness/targets/index.ts';

const exchange = (answered: boolean, error?: string): Exchange => ({
  label: 'x', request: { method: 'GET', url: 'http://127.0.0.1:9/', headers: {} },
  ...(answered ? { response: { status: 500 } } : {}), ...(error ? { error } : {}),
}) as Exchange;
const result = (id: string, verdict: CaseResult['verdict'], exchanges?: Exchange[]): CaseResult => ({
  id, title: 't', level: 'MUST', specRef: '§0', ...verdictAndReason(verdict, verdict === 'PASS' ? undefined : 'why'), durationMs: 1, ...(exchanges ? { evidence: { exchanges } } : {}),
});
const silent = (id: string, error = `ECONNREFUSED ${id}`) => result(id, 'ERROR', [exchange(false, error)]);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('silenceOf: the error of an ERROR whose requests all went unanswered', () => {
  it('a verdict other than ERROR, an ERROR without requests, or with one answered: not silence', () => {
    expect(silenceOf(result('a', 'FAIL', [exchange(false, 'E')]))).toBeUndefined();
    expect(silenceOf(result('a', 'ERROR'))).toBeUndefined();
    expect(silenceOf(result('a', 'ERROR', [exchange(false, 'E1'), exchange(true)]))).toBeUndefined();
  });
  it('every request unanswered: the last one\'s error, or "no answer"', () => {
    expect(silenceOf(result('a', 'ERROR', [exchange(false, 'E1'), exchange(false, 'E2')]))).toBe('E2');
    expect(silenceOf(result('a', 'ERROR', [exchange(false)]))).toBe('no answer');
  });
});

describe('TargetWatch', () => {
  it(`${SILENT_CASES_TO_STOP} silent cases in a row and a plain request unanswered: stopped, naming the cause once, every later case listed`, async () => {
    let checks = 0;
    const watch = new TargetWatch(async () => { checks++; return 'ECONNREFUSED'; });
    const stopped: string[] = [];
    watch.whenStopped(() => stopped.push('first'));
    const unsubscribe = watch.whenStopped(() => stopped.push('gone'));
    unsubscribe();
    watch.observe(silent('a'));
    watch.observe(silent('b'));
    expect(watch.stopped).toBeUndefined();
    watch.observe(silent('c'));
    // While the plain request is under way, another silent case asks nothing more.
    watch.observe(silent('d'));
    await settle();
    expect(checks).toBe(1);
    expect(stopped).toEqual(['first']);
    expect(watch.stopped).toEqual({ cause: '4 cases in a row got no answer to any request they sent (the last: ECONNREFUSED c), and ECONNREFUSED', cases: ['a', 'b', 'c', 'd'] });
    expect(watch.reason).toBe(`the target stopped answering: ${watch.stopped!.cause}; this case's own outcome could not be observed`);
    watch.observe(result('e', 'PASS'));
    expect(watch.stopped!.cases).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
  it('a SKIP between silences does not reset the count; any other verdict does', async () => {
    const watch = new TargetWatch(async () => 'down');
    watch.observe(silent('a'));
    watch.observe(silent('b'));
    watch.observe(result('skip', 'SKIP'));
    watch.observe(silent('c'));
    await settle();
    expect(watch.stopped?.cases).toEqual(['a', 'b', 'c']);
    const other = new TargetWatch(async () => 'down');
    other.observe(silent('a'));
    other.observe(silent('b'));
    other.observe(result('fail', 'FAIL', [exchange(true)]));
    other.observe(silent('c'));
    other.observe(silent('d'));
    await settle();
    expect(other.stopped).toBeUndefined();
  });
  it('the plain request answered: not stopped, and the count starts again', async () => {
    let checks = 0;
    const watch = new TargetWatch(async () => { checks++; return undefined; });
    for (const id of ['a', 'b', 'c']) watch.observe(silent(id));
    await settle();
    expect([watch.stopped, checks]).toEqual([undefined, 1]);
    watch.observe(silent('d'));
    watch.observe(silent('e'));
    await settle();
    expect(checks).toBe(1);
    watch.observe(silent('f'));
    await settle();
    expect(checks).toBe(2);
  });
  it('a liveness check that throws lets a later silence check again; without a check the run is never stopped', async () => {
    let checks = 0;
    const watch = new TargetWatch(async () => { checks++; throw new Error('check failed'); });
    for (const id of ['a', 'b', 'c']) watch.observe(silent(id));
    await settle();
    watch.observe(silent('d'));
    await settle();
    expect([checks, watch.stopped]).toEqual([2, undefined]);
    const blind = new TargetWatch();
    for (const id of ['a', 'b', 'c', 'd']) blind.observe(silent(id));
    await settle();
    expect(blind.stopped).toBeUndefined();
  });
});

describe('livenessCheck: a plain GET to the target, any answer counting', () => {
  const servers: Array<http.Server | https.Server> = [];
  afterAll(async () => {
    for (const s of servers) s.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });
  async function serving(handler: http.RequestListener, tls?: { key: string; cert: string }): Promise<{ origin: string; server: http.Server | https.Server }> {
    const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { origin: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  }
  const receiverAt = (origin: string, caCert?: string): ResolvedReceiverTarget => ({ side: 'receiver', callbackUrl: `${origin}/cb`, timing: { replyDeadlineMs: 300 }, ...(caCert ? { caCert } : {}) });

  it('none for a client target (its adapter gives up on itself)', () => {
    expect(livenessCheck({ side: 'client' } as ResolvedTarget, 100)).toBeUndefined();
  });
  it('a target that never answers: within the limit, saying so; any status answers', async () => {
    const hanging = await serving(() => undefined);
    const started = performance.now();
    expect(await livenessCheck(receiverAt(hanging.origin), 150)!()).toBe(`a plain GET ${hanging.origin} got no answer either: no answer within 150 ms`);
    expect(performance.now() - started).toBeLessThan(2000);
    const refusing = await serving((_req, res) => res.writeHead(503).end());
    expect(await livenessCheck(receiverAt(refusing.origin), 150)!()).toBeUndefined();
  });
  it('https: answered when the target file gives the CA', async () => {
    const tls = await listenerTls();
    const secure = await serving((_req, res) => res.end('ok'), { key: tls.key, cert: tls.cert });
    expect(await livenessCheck(receiverAt(secure.origin, tls.caCert), 1000)!()).toBeUndefined();
  });
  it('its connection is closed once it answered', async () => {
    const plain = await serving((_req, res) => res.end('ok'));
    expect(await livenessCheck(receiverAt(plain.origin), 1000)!()).toBeUndefined();
    // Within 500 ms: a connection left open would stay for the client's keep-alive of 1000 ms.
    let open = 1;
    for (let i = 0; i < 20 && open > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      open = await new Promise<number>((resolve) => plain.server.getConnections((_e, n) => resolve(n)));
    }
    expect(open).toBe(0);
  });
  it('watchFor: the check waits twice the per-request limit (a target answering after 350 ms of a 300 ms limit is alive)', async () => {
    let checked = false;
    const slow = await serving((_req, res) => void setTimeout(() => { checked = true; res.end('ok'); }, 350));
    const watch = watchFor(receiverAt(slow.origin), 300);
    for (const id of ['a', 'b', 'c']) watch.observe(silent(id));
    for (let i = 0; i < 100 && !checked && !watch.stopped; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([checked, watch.stopped]).toEqual([true, undefined]);
  });
});
