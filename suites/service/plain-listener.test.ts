// §6 Transport, service.callback.https-only-in-production: "refused or never called" can only be
// seen when the service can reach the plain-http listener. Behind a tunnel (listener.publicUrl
// set) without listener.plainPublicUrl, the plain listener is on a local address the service
// cannot call, so "accepted and never called" proves nothing: SKIP with the reason, not PASS.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import type { ResolvedServiceTarget } from '../../harness/targets/index.ts';
import { freePort } from '../support/free-port.ts';
import { runCases } from '../../harness/runner/index.ts';

// A service that accepts every collect request and never calls back.
let service: Server;
let baseUrl: string;
beforeAll(async () => {
  service = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}'));
  });
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(async () => {
  service.closeAllConnections();
  await new Promise((r) => service.close(r));
});

function targetWith(listener: ResolvedServiceTarget['listener']): ResolvedServiceTarget {
  return {
    side: 'service', baseUrl, mode: 'production', clientId: 2, clientKey: 'ck_plain_listener', secretKey: 'sk_plain_listener',
    networkCode: 'MTN', customerNumbers: { whitelisted: ['0244000001'], notWhitelisted: ['0244999999'] },
    listener, timing: { callbackTimeoutMs: 150, retryWindowMs: 300 },
  };
}

const only = SERVICE_CASES.filter((c) => c.id === 'service.callback.https-only-in-production');

describe('§6 Transport: an http:// callback URL accepted in production', () => {
  it('PASSes ("never called") when the plain listener is bound where the service can reach it', async () => {
    const [r] = await runCases({ cases: only, target: targetWith({ host: '127.0.0.1', port: 0, publicUrl: null, tls: false, plainPublicUrl: null }), seed: 1 });
    expect(r!.verdict, r!.reason).toBe('PASS');
  });
  it('SKIPs, naming listener.plainPublicUrl, when the listener is behind a tunnel and the plain one is only local', async () => {
    const port = await freePort();
    const tunnel = targetWith({ host: '127.0.0.1', port, publicUrl: `https://tunnel.example/t-${port}`, tls: false, plainPublicUrl: null });
    const [r] = await runCases({ cases: only, target: tunnel, seed: 1 });
    expect(r!.verdict, r!.reason).toBe('SKIP');
    expect(r!.reason).toMatch(/listener\.plainPublicUrl/);
  });
});
