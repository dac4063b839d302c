// §5.4 through a proxy: sources.notWhitelisted may be `{"proxy": URL}` (DESIGN.md), a route out
// whose address the service does not whitelist. A tiny CONNECT proxy that dials from 127.0.0.2
// plays that route here.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResources, SERVICE_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import { freePort } from '../support/free-port.ts';
import { startConnectProxy, type RunningConnectProxy } from './fixtures/connect-proxy.ts';
import { runCases } from '../../harness/runner/index.ts';

/**
 * Each run's rejection watches (timing.callbackTimeoutMs): 500 ms instead of the embedded target's
 * 1,000. A request the reference refuses never calls back, so a correct service's watch is waited
 * out for nothing; one it accepts calls back 50 ms after, which 500 ms still tell from never.
 */
const WATCH = { callbackTimeoutMs: 500 };

let proxy: RunningConnectProxy;
let proxyUrl: string;

beforeAll(async () => {
  proxy = await startConnectProxy({ localAddress: '127.0.0.2' });
  proxyUrl = proxy.url;
});
afterAll(async () => {
  await proxy.close();
});

describe('§5.4: a valid request through a not-whitelisted proxy is rejected', () => {
  it('service.auth.ip-not-whitelisted PASSes via sources.notWhitelisted.proxy, and FAILs with ip-whitelist-off', async () => {
    for (const [faults, verdict] of [[[], 'PASS'], [['ip-whitelist-off'], 'FAIL']] as const) {
      const service = await startEmbeddedService({ faults: [...faults], timing: WATCH });
      try {
        const target = { ...service.target, sources: { notWhitelisted: { proxy: proxyUrl } } };
        const before = proxy.tunnels();
        const [r] = await runCases({ cases: SERVICE_CASES.filter((c) => c.id === 'service.auth.ip-not-whitelisted'), target, seed: 5 });
        expect(r!.verdict, r!.reason).toBe(verdict);
        expect(proxy.tunnels()).toBeGreaterThan(before);
        expect(r!.evidence!.exchanges![0]!.curl).toContain(`--proxy '${proxyUrl}'`);
      } finally {
        await service.close();
      }
    }
  });
});

describe("the run's listeners: one listener per target, shared by its cases, closed with the run", () => {
  it('hands the same listener to every case of a run, a new one to the next run, and closes it with the run', async () => {
    const service = await startEmbeddedService();
    const first = new RunResources();
    const next = new RunResources();
    try {
      const a = await first.listeners.of(service.target);
      expect(await first.listeners.of(service.target)).toBe(a);
      await first.close();
      // Closed: nothing listens at its address any more.
      await expect(fetch(a.publicUrl)).rejects.toThrow();
      expect(await next.listeners.of(service.target)).not.toBe(a);
    } finally {
      await first.close();
      await next.close();
      await service.close();
    }
  });
});

describe('§5.4: a route out that fails on the harness side is ERROR, never a rejection', () => {
  // A request that never left the machine says nothing about the service's whitelist: were it
  // counted as "rejected at the network", the case would PASS a service with no whitelist at all.
  it('a sources.notWhitelisted.localAddress this machine does not have (192.0.2.7, TEST-NET-1) gives ERROR, even with ip-whitelist-off', async () => {
    const service = await startEmbeddedService({ faults: ['ip-whitelist-off'], timing: WATCH });
    try {
      const target = { ...service.target, sources: { notWhitelisted: { localAddress: '192.0.2.7' } } };
      const [r] = await runCases({ cases: SERVICE_CASES.filter((c) => c.id === 'service.auth.ip-not-whitelisted'), target, seed: 5 });
      expect(r!.verdict, r!.reason).toBe('ERROR');
      expect(r!.reason).toMatch(/192\.0\.2\.7/);
      expect(r!.reason).toMatch(/never reached the service/);
      // A request that never left says nothing either way: no control is sent for it.
      expect(r!.evidence!.exchanges!.map((x) => x.label)).not.toContain('control: the same request from the whitelisted source');
    } finally {
      await service.close();
    }
  });
  it('a sources.notWhitelisted.proxy that refuses connections gives ERROR, even with ip-whitelist-off', async () => {
    const service = await startEmbeddedService({ faults: ['ip-whitelist-off'], timing: WATCH });
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
    const service = await startEmbeddedService({ timing: WATCH });
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

describe('§5.4: the whitelist is decided by the connection, not by headers the caller writes', () => {
  const only = SERVICE_CASES.filter((c) => c.id === 'service.auth.ip-not-whitelisted');
  const NO_CHECK = /wrote no forwarding header into it, so the service likely checks no source address at all/;
  const TRUSTS_HEADER = /Without those headers it was rejected: the service likely takes the client's address from a header the client writes/;

  for (const route of ['localAddress', 'proxy'] as const) {
    it(`service.auth.ip-not-whitelisted (via ${route}): PASS without faults, FAIL naming the cause with trusts-forwarded-for and with ip-whitelist-off`, async () => {
      for (const [fault, verdict, reason] of [[undefined, 'PASS', undefined], ['trusts-forwarded-for', 'FAIL', TRUSTS_HEADER], ['ip-whitelist-off', 'FAIL', NO_CHECK]] as const) {
        const service = await startEmbeddedService({ faults: fault ? [fault] : [], timing: WATCH });
        try {
          const target = route === 'proxy' ? { ...service.target, sources: { notWhitelisted: { proxy: proxyUrl } } } : service.target;
          const [r] = await runCases({ cases: only, target, seed: 5 });
          expect(r!.verdict, `${fault}: ${r!.reason}`).toBe(verdict);
          if (reason) expect(r!.reason).toMatch(reason);
          if (fault === 'ip-whitelist-off') continue; // the plain request alone decides it
          const forged = r!.evidence!.exchanges!.find((x) => x.request.headers['x-forwarded-for'] !== undefined);
          expect(forged?.request.headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1', forwarded: 'for=127.0.0.1' });
          expect(forged?.response?.status).toBe(fault ? 200 : 403);
        } finally {
          await service.close();
        }
      }
    });
  }

  // A service behind its own reverse proxy: the proxy either appends the address it saw to the
  // caller's X-Forwarded-For or overwrites it. Modelled as a transparent proxy (it dials the
  // simulator from the caller's own address), so the fault-free simulator stays correct behind it.
  async function reverseProxy(upstream: string, mode: 'append' | 'overwrite'): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      const seen = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
      const given = req.headers['x-forwarded-for'];
      const headers = { ...req.headers, 'x-forwarded-for': mode === 'append' && given ? `${given}, ${seen}` : seen };
      const out = httpRequest(`${upstream}${req.url ?? '/'}`, { method: req.method, headers, localAddress: seen }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      req.pipe(out);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      },
    };
  }

  it('behind a reverse proxy that appends to X-Forwarded-For: a correct service PASSes, one trusting the first entry FAILs', async () => {
    for (const [fault, verdict] of [[undefined, 'PASS'], ['trusts-forwarded-for', 'FAIL']] as const) {
      const service = await startEmbeddedService({ faults: fault ? [fault] : [], timing: WATCH });
      const front = await reverseProxy(service.target.baseUrl.replace(/\/+$/, ''), 'append');
      try {
        const [r] = await runCases({ cases: only, target: { ...service.target, baseUrl: front.url }, seed: 5 });
        expect(r!.verdict, r!.reason).toBe(verdict);
      } finally {
        await front.close();
        await service.close();
      }
    }
  });

  it('behind a reverse proxy that overwrites X-Forwarded-For, reading that header is right, and the case PASSes', async () => {
    const service = await startEmbeddedService({ faults: ['trusts-forwarded-for'], timing: WATCH });
    const front = await reverseProxy(service.target.baseUrl.replace(/\/+$/, ''), 'overwrite');
    try {
      const [r] = await runCases({ cases: only, target: { ...service.target, baseUrl: front.url }, seed: 5 });
      expect(r!.verdict, r!.reason).toBe('PASS');
    } finally {
      await front.close();
      await service.close();
    }
  });
});
