// A run against the reference service in production mode over HTTPS: the API and the listener
// on https with generated CAs, an http:// callback URL refused (§2.1, §6 Transport).
import { describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import { secretsOf } from '../../harness/targets/index.ts';
import { runCases } from '../../harness/runner/index.ts';
import { reshapedBackoff } from './fixtures/callback-answers.ts';

describe('§6 Transport: the reference service in production mode over https', () => {
  it('every case PASSes; the sandbox cases SKIP; callbacks arrive over https', async () => {
    const service = await startEmbeddedService({ mode: 'production' });
    try {
      expect(service.target.baseUrl).toMatch(/^https:\/\//);
      expect(service.target.listener.tls).toBe(true);
      // Every case at once, each opening TLS connections: a limit well above a starved loopback
      // round trip (no case here is about answer time; 1 s was once missed under load).
      const results = await runCases({ cases: SERVICE_CASES, target: service.target, seed: 7, perRequestTimeoutMs: 5000 });
      for (const r of results) {
        const sandboxOnly = SERVICE_CASES.find((c) => c.id === r.id)!.needs.includes('sandbox');
        // Under load the retries can arrive reshaped: the back-off case's honest SKIP, never a FAIL.
        if (r.id === 'service.callback.retry-back-off' && reshapedBackoff(r)) continue;
        expect(r.verdict, `${r.id}: ${r.reason ?? ''}`).toBe(sandboxOnly ? 'SKIP' : 'PASS');
      }
      const https = results.find((r) => r.id === 'service.callback.delivered-over-https')!;
      expect(https.evidence?.deliveries?.[0]?.overHttps).toBe(true);
      const text = JSON.stringify(results);
      for (const secret of secretsOf(service.target)) expect(text).not.toContain(secret);
    } finally {
      await service.close();
    }
  });
});
