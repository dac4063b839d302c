// Two parts the service cases stand on: the callback listener a run opens for its target (with a
// plain-http one beside it when production callbacks must be seen not to arrive there), and the
// watch on this process's event loop that tells the back-off case how late its own timers ran.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenerOptionsOf, ServiceListeners } from '../../harness/cases/service/index.ts';
import { StallWatch } from '../../harness/cases/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import type { ResolvedServiceTarget } from '../../harness/targets/index.ts';

describe('listenerOptionsOf: a plain-http listener in production, or when the target names its public URL', () => {
  const target = (mode: 'sandbox' | 'production', plainPublicUrl?: string | null) => ({
    mode, listener: { host: '127.0.0.1', port: 0, publicUrl: null, tls: true, ...(plainPublicUrl !== undefined ? { plainPublicUrl } : {}) },
  }) as unknown as ResolvedServiceTarget;
  it.each([
    ['sandbox', undefined, false, null],
    ['sandbox', null, false, null],
    ['sandbox', 'http://tunnel.example/cb', true, 'http://tunnel.example/cb'],
    ['production', undefined, true, null],
  ] as const)('%s, plainPublicUrl %j: plain %j', (mode, plainPublicUrl, plain, shown) => {
    expect(listenerOptionsOf(target(mode, plainPublicUrl))).toMatchObject({ plain, plainPublicUrl: shown, tls: true, host: '127.0.0.1' });
  });
});

describe('ServiceListeners: one listener per target, opened again after a failure', () => {
  it('a port in use fails the first opening; once it is free, the next asks again and opens', async () => {
    const service = await startEmbeddedService();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    const listeners = new ServiceListeners();
    try {
      const target = { ...service.target, listener: { ...service.target.listener, port } };
      await expect(listeners.of(target)).rejects.toThrow();
      await new Promise((resolve) => holder.close(resolve));
      const listener = await listeners.of(target);
      expect(listener.publicUrl).toContain(`:${port}`);
    } finally {
      await listeners.close();
      await service.close();
    }
  });
});

describe('StallWatch: how late the event loop ran', () => {
  it('a 200 ms block of the loop reads as about 200 ms late, and nothing after it stopped counts', async () => {
    const busy = new StallWatch();
    // Its timer ticks first (the histogram measures from its first tick on); on a loaded machine that takes longer than 30 ms.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const until = performance.now() + 200;
    while (performance.now() < until) { /* block the loop */ }
    // The block is recorded when the watch's timer next runs: given up to a second (seen at 5 workers: not yet after 30 ms).
    for (let waited = 0; busy.longestMs() < 150 && waited < 1000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    const late = busy.stop();
    expect(late).toBeGreaterThanOrEqual(150);
    expect(late).toBeLessThan(1000);
    // Stopped: a later block is not counted.
    const after = performance.now() + 100;
    while (performance.now() < after) { /* block the loop */ }
    expect(busy.longestMs()).toBe(late);
  });
});
