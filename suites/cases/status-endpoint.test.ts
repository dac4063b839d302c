// The harness's status endpoint for a confirming receiver target lives as long as the run: up
// before the first callback (the preflight's), shared by the preflight and the cases, closed after
// the last whatever happened, so the fixed port of `confirms.listener` is free again; a port the
// harness cannot listen on is named, not a crash.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { provideStatusEndpoint, withdrawStatusEndpoint, type ConformanceCase } from '../../harness/cases/index.ts';
import { StatusEndpoints, statusQueryEvidence } from '../../harness/cases/receiver/status-endpoint.ts';
import { signedStatusQuery, startStatusEndpoint, STATUS_POSITION } from '../../harness/status/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { freePort } from '../support/free-port.ts';
import { runCases } from '../../harness/runner/index.ts';
import { runSide } from '../../harness/run/index.ts';

/** True when this process can listen on the port now. */
async function portFree(port: number): Promise<boolean> {
  const probe = createServer();
  const ok = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (ok) await new Promise<void>((r) => probe.close(() => r()));
  return ok;
}

function confirmingTarget(port: number): ResolvedReceiverTarget {
  return {
    side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 500 },
    confirms: { listener: { host: '127.0.0.1', port, publicUrl: null }, clientId: 2, clientKey: 'test_ck_lifetime', secretKey: 'test_sk_lifetime-secret', status: { ...STATUS_POSITION } },
  };
}

/** A case that looks at the endpoint while it runs, then passes or throws. */
function looking(id: string, seen: string[], fail = false): ConformanceCase<ResolvedReceiverTarget> {
  return {
    id, title: 't', specRef: '§6 rule 5', level: 'MUST', side: 'receiver', needs: [],
    async run(ctx) {
      const held = await ctx.resources.statusEndpoints.of(ctx.target);
      seen.push(held?.ok ? held.endpoint.url : `not served: ${held?.ok === false ? held.reason : 'no confirms'}`);
      if (fail) throw new Error('the case broke');
      return { verdict: 'PASS' };
    },
  };
}

describe('one endpoint per confirming target, for as long as its run', () => {
  it('served while the cases run, closed after them (the port free again), also when a case throws', async () => {
    const port = await freePort();
    const seen: string[] = [];
    // runCases itself: the runner holds the endpoint and closes it, also when a case throws.
    const results = await runCases({ cases: [looking('receiver.test.a', seen), looking('receiver.test.b', seen, true)], target: confirmingTarget(port), seed: 1 });
    expect(results.map((r) => r.verdict)).toEqual(['PASS', 'ERROR']);
    expect(seen).toEqual([`http://127.0.0.1:${port}`, `http://127.0.0.1:${port}`]);
    expect(await portFree(port)).toBe(true);
  });
  it('the preflight and the cases share it (one RunResources for both, started once)', async () => {
    const port = await freePort();
    const seen: string[] = [];
    await runSide({ cases: [looking('receiver.test.a', seen)], target: confirmingTarget(port), seed: 1 });
    expect(seen).toEqual([`http://127.0.0.1:${port}`]);
    expect(await portFree(port)).toBe(true);
  });
  it('a port in use: each confirm case is ERROR naming the listener and the reason, and the run goes on', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as { port: number };
    try {
      const { results } = await runSide({ target: { ...confirmingTarget(port), observe: { kind: 'hooks', url: 'http://127.0.0.1:9/h' } }, seed: 1, only: 'receiver.confirm.contradicted-failed' });
      expect(results.map((r) => r.verdict)).toEqual(['ERROR']);
      expect(results[0]!.reason).toBe(`the harness could not listen on 127.0.0.1:${port} (confirms.listener) to serve the status endpoint (EADDRINUSE)`);
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });
});

describe('an endpoint provided by the target\'s owner', () => {
  it('used instead of one of the run\'s own while provided; withdrawn, the run starts its own; a target that does not confirm is left alone', async () => {
    const target = confirmingTarget(await freePort());
    const owned = await startStatusEndpoint({ host: '127.0.0.1', port: 0, clientId: 2, clientKey: 'test_ck_lifetime', secretKey: 'test_sk_lifetime-secret' });
    const endpoints = new StatusEndpoints();
    try {
      provideStatusEndpoint(target, owned);
      expect(await endpoints.of(target)).toEqual({ ok: true, endpoint: owned });
      withdrawStatusEndpoint(target);
      const own = await endpoints.of(target);
      expect(own?.ok && own.endpoint !== owned && new URL(own.endpoint.url).port).toBe(String(target.confirms!.listener.port));
      const plain: ResolvedReceiverTarget = { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 500 } };
      expect(() => provideStatusEndpoint(plain, owned)).not.toThrow();
      expect(endpoints.of(plain)).toBeUndefined();
    } finally {
      await endpoints.close();
      await owned.close();
    }
  });
  it('statusQueryEvidence: the queries of several ids in the order they arrived, whatever the order of the ids', async () => {
    const credentials = { clientId: 2, clientKey: 'test_ck_lifetime', secretKey: 'test_sk_lifetime-secret' };
    const endpoint = await startStatusEndpoint({ host: '127.0.0.1', port: 0, ...credentials });
    try {
      for (const id of ['first-asked', 'second-asked']) {
        endpoint.script(id, { kind: 'status', status: 'PENDING' }); // an id the harness sent: its queries are kept under it
        const q = signedStatusQuery({ baseUrl: endpoint.url, transactionId: id, ...credentials });
        await (await fetch(q.url, { method: q.method, headers: q.headers, ...(q.body !== undefined ? { body: q.body } : {}) })).text();
      }
      const shown = statusQueryEvidence(endpoint, ['second-asked', 'first-asked'], 0).map((e) => JSON.parse(e.request.body!) as { transaction_id: string });
      expect(shown.map((b) => b.transaction_id)).toEqual(['first-asked', 'second-asked']);
    } finally {
      await endpoint.close();
    }
  });
});
