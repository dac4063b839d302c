// DESIGN.md: timing.retryWindowMs is how long a retry case watches deliveries. The cases that
// watch for more deliveries after a retry keep that watch inside the window, so that a service
// whose retry comes late in the window (a vendor retrying after a minute, say) still fits the
// run's case time limit (derived from callbackTimeoutMs + retryWindowMs) instead of ending ERROR.
import { describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import { runCases } from '../../harness/runner/index.ts';


describe('§6 Retry: watching after a late retry stays inside timing.retryWindowMs', () => {
  it('duplicates-consistent and retries-stop-after-2xx PASS when the retry comes at 70 % of the window', async () => {
    // timeScale 0.25: processing 250 ms, the retry 1000 ms after the first delivery.
    const timing = { callbackTimeoutMs: 600, retryWindowMs: 1400 };
    const service = await startEmbeddedService({ timeScale: 0.25, timing });
    try {
      const ids = ['service.callback.duplicates-consistent', 'service.callback.retries-stop-after-2xx'];
      const results = await runCases({
        cases: SERVICE_CASES.filter((c) => ids.includes(c.id)),
        target: service.target,
        seed: 11,
        // The window plus room for the request and the wait for the first callback.
        caseTimeoutMs: timing.callbackTimeoutMs + timing.retryWindowMs + 400,
      });
      for (const r of results) expect(r.verdict, `${r.id}: ${r.reason ?? ''}`).toBe('PASS');
      expect(results.map((r) => r.id).sort()).toEqual([...ids].sort());
    } finally {
      await service.close();
    }
  });
});
