// Issue 9 points 3 and 4 for a service (controls-and-diagnoses.test.ts, split from it so that the
// runs overlap across workers): a wrong secret leaves the rejection cases without a PASS; a
// service that does not trust the listener's certificate, or never verifies signatures, has its
// one cause named for the cases it explains; a rule not exercised is SKIP with the reason.
import { describe, expect, it } from 'vitest';
import { SHARED_ANSWER_MIN_CASES } from '../../harness/diagnoses/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { runSide } from '../../harness/run/index.ts';
import { runStarted } from '../support/run-started.ts';
import { NO_CALLBACK, NO_RETRY } from '../service/fixtures/callback-answers.ts';
import { run } from './run-in-memory.ts';

describe('a service target with a wrong secret: the rejection cases give no PASS', () => {
  it("--only 'service.auth.changed-*': every case ERROR naming the preflight's collect, exit 1", async () => {
    const service = await startEmbeddedService();
    try {
      const t = service.target;
      const { code, report, stdout } = await run({
        target: {
          side: 'service', baseUrl: t.baseUrl, mode: t.mode, clientId: t.clientId,
          clientKey: { env: 'SVC_CLIENT_KEY' }, secretKey: { env: 'SVC_SECRET_KEY' }, callbackToken: { env: 'SVC_CALLBACK_TOKEN' },
          networkCode: t.networkCode, customerNumbers: t.customerNumbers, sources: t.sources,
          // Every collect is rejected, so each case's watch for a callback is waited out for nothing: 500 ms, not 1,000.
          listener: { host: '127.0.0.1', port: 0, publicUrl: null, tls: false }, timing: NO_CALLBACK.timing,
        },
        only: 'service.auth.changed-*',
        env: { SVC_CLIENT_KEY: t.clientKey, SVC_SECRET_KEY: 'not-the-secret-key-0123456789', SVC_CALLBACK_TOKEN: t.callbackToken! },
      });
      expect(code).toBe(1);
      expect(report.cases).toHaveLength(6);
      for (const c of report.cases) {
        expect(c.verdict, c.id).toBe('ERROR');
        expect(c.reason).toContain("the positive control (the preflight's correctly signed collect request) did not hold: it was rejected: HTTP 401");
      }
      expect(report.diagnoses?.map((d) => d.id)).toEqual(['service.valid-collect-rejected']);
      expect(report.diagnoses![0]!.cases).toHaveLength(6);
      expect(stdout).not.toMatch(/^PASS /m);
    } finally {
      await service.close();
    }
  });
});

/**
 * The embedded service with `options`, the cases `only` selects, and the run's shared causes. A
 * request's limit of 5 s, not the target's 1 s: the causes here are the certificate and the
 * signature, not slow answers (at load 20 the certificate's test failed once, its reason not
 * kept; likely a request past 1 s, as the wrong secret's run above showed at that load).
 */
async function serviceCauses(options: Parameters<typeof startEmbeddedService>[0], only: string, seed: number) {
  const checked = await runStarted(startEmbeddedService(options), { cases: SERVICE_CASES, seed, only, perRequestTimeoutMs: 5000 });
  return { checked, causes: checked.diagnoses };
}

describe('a service that does not trust the listener\'s certificate (production mode, https callbacks)', () => {
  it('service.no-callback names the failed TLS handshakes, and every case that waited for a callback points to it', async () => {
    const { checked, causes: [cause, ...more] } = await serviceCauses(
      { mode: 'production', trustsListenerCa: false }, 'service.callback.status-success,service.callback.reserved-id-intact,service.callback.token-present', 12,
    );
    expect(checked.preflight.result.verdict).toBe('FAIL');
    expect(more).toEqual([]);
    expect(cause).toMatchObject({ id: 'service.no-callback', summary: expect.stringMatching(/the listener saw \d+ TLS handshake\(s\) fail \(.+\): likely the service does not trust the listener's certificate/) });
    expect(cause!.cases.sort()).toEqual(checked.results.filter((r) => r.verdict !== 'PASS').map((r) => r.id).sort());
    expect(cause!.cases).toContain('service.callback.reserved-id-intact');
  });
});

describe('a service that never verifies signatures: one cause for the signature cases', () => {
  it('service.signatures-not-verified names every processed request whose signature did not match its body', async () => {
    // Callbacks awaited up to 2 s: on a loaded machine one may come later than the default 400 ms,
    // and a tampered request not seen processed is not this cause.
    const { checked, causes: [cause, ...more] } = await serviceCauses({ faults: ['no-signature-check'], timing: { callbackTimeoutMs: 2000 } }, 'service.auth', 13);
    const failed = checked.results.filter((r) => r.verdict === 'FAIL').map((r) => r.id);
    expect(failed.length).toBeGreaterThanOrEqual(SHARED_ANSWER_MIN_CASES);
    expect(more).toEqual([]);
    expect(cause).toMatchObject({ id: 'service.signatures-not-verified', summary: expect.stringMatching(/^\d+ requests whose signature does not match their body were accepted and processed: likely the service does not verify signatures/) });
    expect([...cause!.cases].sort()).toEqual([...failed].sort());
    // Not the SHOULD case: an upper-case signature matches in all but letter case.
    expect(cause!.cases).not.toContain('service.auth.uppercase-signature');
  });
});

describe('a rule not exercised is SKIP with the reason, never PASS', () => {
  it('service.callback.duplicates-consistent against a service that never retries: one delivery, SKIP', async () => {
    const { runCases } = await import('../../harness/runner/index.ts');
    // A retry window that tells none from the reference's retry at 200 ms, not the embedded 2.5 s waited out for nothing.
    const service = await startEmbeddedService({ faults: ['no-retry'], ...NO_RETRY });
    try {
      const [result] = await runCases({ cases: SERVICE_CASES, target: service.target, seed: 5, only: 'service.callback.duplicates-consistent' });
      expect(result).toMatchObject({ verdict: 'SKIP', reason: expect.stringMatching(/^not exercised: .*only one delivery was seen/) });
    } finally {
      await service.close();
    }
  });
});

describe('service.callback.message-plus-encoding against a service whose message has no space', () => {
  it('SKIP naming the message, not PASS', async () => {
    const { fakeService } = await import('../support/fake-service.ts');
    // Accepts every collect and calls back at once with message=Paid.
    const fake = await fakeService({ message: 'Paid', onCollect: (deliver) => void deliver() });
    const reference = await startEmbeddedService();
    try {
      const target = { ...reference.target, baseUrl: fake.url };
      const { results, preflight } = await runSide({ cases: SERVICE_CASES, target, seed: 3, only: 'service.callback.message-plus-encoding' });
      expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
      expect(results[0]).toMatchObject({ verdict: 'SKIP', reason: expect.stringContaining('message=Paid') });
    } finally {
      await reference.close();
      await fake.close();
    }
  });
});
