// §5.4 through a proxy: sources.notWhitelisted may be `{"proxy": URL}` (DESIGN.md), a route out
// whose address the service does not whitelist. A tiny CONNECT proxy that dials from 127.0.0.2
// plays that route here.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCases, SERVICE_CASES } from '../../harness/cases/index.ts';
import { acquireListener, closeServiceListeners } from '../../harness/cases/service/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';

let proxy: Server;
let proxyUrl: string;
let tunnels = 0;

beforeAll(async () => {
  proxy = createServer();
  proxy.on('connect', (req, socket, head) => {
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect({ host: host!, port: Number(port), localAddress: '127.0.0.2' }, () => {
      tunnels++;
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeServiceListeners();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
});

describe('§5.4: a valid request through a not-whitelisted proxy is rejected', () => {
  it('service.auth.ip-not-whitelisted PASSes via sources.notWhitelisted.proxy, and FAILs with ip-whitelist-off', async () => {
    for (const [faults, verdict] of [[[], 'PASS'], [['ip-whitelist-off'], 'FAIL']] as const) {
      const service = await startEmbeddedService({ faults: [...faults] });
      try {
        const target = { ...service.target, sources: { notWhitelisted: { proxy: proxyUrl } } };
        const before = tunnels;
        const [r] = await runCases({ cases: SERVICE_CASES.filter((c) => c.id === 'service.auth.ip-not-whitelisted'), target, seed: 5 });
        expect(r!.verdict, r!.reason).toBe(verdict);
        expect(tunnels).toBeGreaterThan(before);
        expect(r!.evidence!.exchanges![0]!.curl).toContain(`--proxy '${proxyUrl}'`);
      } finally {
        await service.close();
      }
    }
  });
});

describe('the listener pool: one listener per target, shared by its cases', () => {
  it('hands the same listener to overlapping cases and a new one after closing', async () => {
    const service = await startEmbeddedService();
    try {
      const a = await acquireListener(service.target);
      const b = await acquireListener(service.target);
      expect(b.listener).toBe(a.listener);
      a.release();
      b.release();
      const c = await acquireListener(service.target);
      expect(c.listener).toBe(a.listener);
      c.release();
      await service.close();
      const d = await acquireListener(service.target);
      expect(d.listener).not.toBe(a.listener);
      d.release();
    } finally {
      await service.close();
      await closeServiceListeners();
    }
  });
});

describe('§5.4: a route out that fails on the harness side is ERROR, never a rejection', () => {
  // A request that never left the machine says nothing about the service's whitelist: were it
  // counted as "rejected at the network", the case would PASS a service with no whitelist at all.
  async function freePort(): Promise<number> {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    await new Promise((r) => s.close(r));
    return port;
  }
  it('a sources.notWhitelisted.localAddress this machine does not have (192.0.2.7, TEST-NET-1) gives ERROR, even with ip-whitelist-off', async () => {
    const service = await startEmbeddedService({ faults: ['ip-whitelist-off'] });
    try {
      const target = { ...service.target, sources: { notWhitelisted: { localAddress: '192.0.2.7' } } };
      const [r] = await runCases({ cases: SERVICE_CASES.filter((c) => c.id === 'service.auth.ip-not-whitelisted'), target, seed: 5 });
      expect(r!.verdict, r!.reason).toBe('ERROR');
      expect(r!.reason).toMatch(/192\.0\.2\.7/);
      expect(r!.reason).toMatch(/never reached the service/);
    } finally {
      await service.close();
    }
  });
  it('a sources.notWhitelisted.proxy that refuses connections gives ERROR, even with ip-whitelist-off', async () => {
    const service = await startEmbeddedService({ faults: ['ip-whitelist-off'] });
    try {
      const deadProxy = `http://127.0.0.1:${await freePort()}`;
      const target = { ...service.target, sources: { notWhitelisted: { proxy: deadProxy } } };
      const [r] = await runCases({ cases: SERVICE_CASES.filter((c) => c.id === 'service.auth.ip-not-whitelisted'), target, seed: 5 });
      expect(r!.verdict, r!.reason).toBe('ERROR');
      expect(r!.reason).toContain(deadProxy);
    } finally {
      await service.close();
    }
  });
  it('the proxy answering an error for the tunnel (the service refused it) is still a rejection at the network', async () => {
    const service = await startEmbeddedService();
    const refusing = createServer();
    refusing.on('connect', (_req, socket) => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    try {
      const target = { ...service.target, sources: { notWhitelisted: { proxy: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}` } } };
      const [r] = await runCases({ cases: SERVICE_CASES.filter((c) => c.id === 'service.auth.ip-not-whitelisted'), target, seed: 5 });
      expect(r!.verdict, r!.reason).toBe('PASS');
    } finally {
      refusing.closeAllConnections();
      await new Promise((r) => refusing.close(r));
      await service.close();
    }
  });
});
