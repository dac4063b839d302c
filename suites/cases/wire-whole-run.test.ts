// DESIGN.md: the cases that measure time or load run alone (the gate's rules: wire.test.ts).
// Whole runs of every receiver case, 32 at once, through a loopback proxy in front of the
// reference receiver that records when each request was open: no other request of the run is
// open while a measured one is, and a target that answers the measured callbacks late makes the
// others wait without cutting them off. End-to-end tier (suites/support/tiers.ts): the second
// rests on the run's own pace over seconds, which a machine busy with other work stretches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RECEIVER_CASES, type ConformanceCase } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { CaseSlots } from '../../harness/runner/index.ts';
import { runSide } from '../../harness/run/index.ts';

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
      res.on('close', () => opened.push({ owner, callback, start, end: performance.now() }));
      // The request upstream is made once the delay is over: made at once and held, it took an
      // idle keep-alive socket that the receiver closed meanwhile ("socket hang up").
      setTimeout(() => {
        const forward = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on('error', () => res.destroy());
        forward.end(body);
      }, delayMs(owner, callback));
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
/**
 * The late target: a 2 s reply deadline, the measured callbacks answered a quarter deadline late
 * (2.5 s, within the 4 s request limit), so the three measurements hold the wire 7.5 s at least,
 * past the 6 s case limit; a measuring case's own time (its 2.5 s wait, 20 seeds and callbacks
 * for the burst) keeps 3.5 s of that limit for a loaded machine. With 800 ms deadlines and a 3 s
 * limit, a loaded machine cut the burst off (and once a case waiting for it).
 */
const LATE_DEADLINE_MS = 2000;
const SLOW_PROXY_MS = 2500;
const CASE_LIMIT_MS = 6000;

describe('receiver.latency.* and receiver.idempotence.concurrent-duplicates measure with nothing else on the wire', () => {
  let embedded: EmbeddedReceiver;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let slowProxy: Awaited<ReturnType<typeof recordingProxy>>;
  const owners = new Map<string, string>();
  beforeAll(async () => {
    embedded = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 1000 });
    const upstream = new URL(embedded.target.callbackUrl).origin;
    proxy = await recordingProxy(upstream, (id) => owners.get(id));
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
    const { results, preflight } = await runSide({ cases, target, seed: 7, slots: new CaseSlots(32) });
    expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
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
    // The cases waiting for the three measurements would end ERROR if the wait counted against their limit.
    const { target, cases } = behind(slowProxy, LATE_DEADLINE_MS);
    const { results, preflight } = await runSide({ cases, target, seed: 8, slots: new CaseSlots(32), caseTimeoutMs: CASE_LIMIT_MS });
    expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
    // Late, not cut off: measured and judged.
    const measured = MEASURING.map((id) => results.find((r) => r.id === id)).map((r) => `${r?.id} ${r?.verdict}${r?.verdict === 'PASS' ? '' : `: ${r?.reason}`}`);
    // Or, on a machine loaded enough, cut off by its own limit (its 2.5 s late reply and its own
    // reads past 6 s, seen twice in fresh-clone end-to-end runs): the limit doing its job, as
    // for the others below; never a PASS, and never a time-out counting another case's wait.
    const judgedOrOwnLimit = (id: string) => new RegExp(`^${id.replace(/\./g, '\\.')} (FAIL: |ERROR: the case did not finish within ${CASE_LIMIT_MS} ms)`);
    expect(measured).toEqual([
      expect.stringMatching(judgedOrOwnLimit('receiver.latency.single')), expect.stringMatching(judgedOrOwnLimit('receiver.latency.burst')), 'receiver.idempotence.concurrent-duplicates PASS',
    ]);
    const others = results.filter((r) => !MEASURING.includes(r.id));
    // A case that never waited at the wire may run out of its own 6 s on a machine loaded enough
    // (32 cases, the receiver and two proxies share this process): the limit doing its job, its
    // reason without "not counting … ms it waited". A case that waited and still ERRORs, or any
    // other verdict but PASS, fails the test.
    const ownTimeOut = `the case did not finish within ${CASE_LIMIT_MS} ms`;
    const notPassed = others.filter((r) => r.verdict !== 'PASS' && !(r.verdict === 'ERROR' && r.reason === ownTimeOut));
    expect(notPassed.map((r) => `${r.id} ${r.verdict}: ${r.reason}`)).toEqual([]);
    // Cases that waited for the measurements PASSed past the limit: it was moved on by their wait, not merely not reached.
    expect(Math.max(...others.filter((r) => r.verdict === 'PASS').map((r) => r.durationMs))).toBeGreaterThan(CASE_LIMIT_MS);
  }, 30_000);
});
