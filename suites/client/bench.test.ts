// What a client run drives (harness/cases/client/bench.ts): its benches start on first use, a
// bench that could not start is tried again, and closing the run leaves nothing running (the
// service's port, the process the start probe left).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { adapterLaunchOf, ClientBenches, probeAdapter } from '../../harness/cases/client/index.ts';
import { startEmbeddedClient } from '../../harness/embedded/index.ts';
import { LineProcess, type LinePeer } from '../../harness/line-protocol/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';
import type { ResolvedClientTarget } from '../../harness/targets/index.ts';

const redactor = new Redactor([]);

describe('ClientBenches: one bench per target, closed with the run', () => {
  it('the same bench for every case; after close, its service no longer listens', async () => {
    const { target } = await startEmbeddedClient();
    const benches = new ClientBenches();
    try {
      const bench = await benches.of(target, redactor);
      expect(await benches.of(target, redactor)).toBe(bench);
      expect((await fetch(`${bench.service.baseUrl}/nowhere`)).status).toBeGreaterThanOrEqual(400);
      await benches.close();
      await expect(fetch(`${bench.service.baseUrl}/nowhere`)).rejects.toThrow();
    } finally {
      await benches.close();
    }
  });
  it('a target that cannot be launched: refused with its reason, tried again on the next use, and close still ends', async () => {
    const { target } = await startEmbeddedClient();
    const broken: ResolvedClientTarget = { ...target, inProcess: { adapter: 'reference-sdk', faults: ['no-such-fault'] } } as ResolvedClientTarget;
    const benches = new ClientBenches();
    const listening = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    const before = listening();
    const first = benches.of(broken, redactor);
    const closing = benches.close();
    await expect(first).rejects.toThrow('unknown reference SDK fault(s): no-such-fault');
    // Refused before its service was started: nothing left listening.
    expect(listening()).toBe(before);
    await expect(closing).resolves.toBeUndefined();
    const again = benches.of(broken, redactor);
    expect(again).not.toBe(first);
    await expect(again).rejects.toThrow('unknown reference SDK fault(s): no-such-fault');
    // Failed, it is not kept: a third use is a third attempt.
    await Promise.resolve();
    expect(benches.of(broken, redactor)).not.toBe(again);
    await benches.close().catch(() => undefined);
  });
  it('a command the start probe left running ends when the run closes, though no case used it', async () => {
    const { target } = await startEmbeddedClient();
    const benches = new ClientBenches();
    const probed = new LineProcess(`"${process.execPath}" -e "setInterval(() => {}, 1000)"`);
    benches.adopt(target, probed);
    await benches.close();
    expect(await probed.exited).toBeDefined();
  });
});

describe('adapterLaunchOf: how an in-process target\'s adapter is reached', () => {
  it('an adapter of the tests\' own (inProcess.adapter "peer") is that peer, as given; a reference SDK target gets the reference adapter, a peer of its own', async () => {
    const { target } = await startEmbeddedClient();
    const peer: LinePeer = async ({ output }) => { output.end(); };
    expect(await adapterLaunchOf({ ...target, inProcess: { adapter: 'peer', peer } } as ResolvedClientTarget)).toEqual({ peer });
    expect(await adapterLaunchOf(target)).toEqual({ peer: expect.any(Function) });
    expect((await adapterLaunchOf(target) as { peer: LinePeer }).peer).not.toBe(peer);
  });
});

describe('the adapter of a bench: the target\'s answer deadline, the run\'s secrets redacted', () => {
  it('an error carrying the secret key comes back redacted; a call never answered fails after timing.answerDeadlineMs', async () => {
    const { target: embedded } = await startEmbeddedClient();
    const adapter = fileURLToPath(new URL('./fixtures/secret-echoing-adapter.mjs', import.meta.url));
    const target = { ...embedded, inProcess: undefined, command: `"${process.execPath}" "${adapter}"`, timing: { ...embedded.timing, answerDeadlineMs: 1000 } } as unknown as ResolvedClientTarget;
    const benches = new ClientBenches();
    try {
      const bench = await benches.of(target, new Redactor([target.secretKey]));
      const call = (id: string, fields: Array<[string, string]>) => bench.adapter.collect({
        id, baseUrl: bench.service.baseUrl, fields, credentials: { clientId: target.clientId, clientKey: target.clientKey, secretKey: target.secretKey },
      });
      // The first call also starts the adapter's process: 1000 ms leaves a loaded machine room for that.
      const leaked = await call('c1', [['amount', '"10"']]);
      expect(leaked).toMatchObject({ kind: 'error', error: expect.stringMatching(/^invalid signature for key \S+$/) });
      expect(JSON.stringify(leaked)).not.toContain(target.secretKey);
      const started = performance.now();
      const hung = await call('c2', [['hang', 'true']]);
      expect(hung).toMatchObject({ kind: 'failed', code: 'ERR_ADAPTER_TIMEOUT', reason: expect.stringContaining('1000 ms') });
      expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    } finally {
      await benches.close();
    }
  });
});

describe('ClientBenches.neverStarted: a command that outlived the probe but never answered', () => {
  it('nothing to say of a target with no bench, or of one whose bench never started', async () => {
    const { target } = await startEmbeddedClient();
    const benches = new ClientBenches();
    expect(await benches.neverStarted(target)).toBeUndefined();
    const broken = { ...target, inProcess: { adapter: 'reference-sdk', faults: ['no-such-fault'] } } as ResolvedClientTarget;
    void benches.of(broken, redactor).catch(() => undefined);
    expect(await benches.neverStarted(broken)).toBeUndefined();
    await benches.close();
  });
});

describe('probeAdapter: a command that cannot start is exit status 3 before any case', () => {
  it('an in-process target has nothing to probe', async () => {
    const { target } = await startEmbeddedClient();
    const benches = new ClientBenches();
    await expect(probeAdapter(target, redactor, benches)).resolves.toBeUndefined();
    await benches.close();
  });
  it('a command that ends right after starting: refused, naming how it ended', async () => {
    const { target } = await startEmbeddedClient();
    const command: ResolvedClientTarget = { ...target, inProcess: undefined, command: `"${process.execPath}" -e "process.exit(7)"` } as unknown as ResolvedClientTarget;
    const benches = new ClientBenches();
    await expect(probeAdapter(command, redactor, benches, 2000)).rejects.toThrow(/cannot be started: it .*7.* right after starting, before any request/);
    await benches.close();
  });
});
