// DESIGN.md transactionIds, service side: every collect request of every case carries an id of
// the target's shape (here one without {id}: a service that issues `PAY-<uuid>` ids), while the
// listener tags that route callbacks stay the harness's own URL-safe ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedService, type EmbeddedService } from '../../harness/embedded/index.ts';
import type { Exchange } from '../../harness/results/index.ts';
import { runCases } from '../../harness/runner/index.ts';

const PAY_UUID = /^PAY-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('service transactionIds: collect requests use the target\'s id shape', () => {
  let embedded: EmbeddedService;
  beforeAll(async () => {
    embedded = await startEmbeddedService();
  });
  afterAll(async () => embedded.close());

  it('template PAY-{uuid}: ids sent match it, callbacks echo them, tags stay cc-…', async () => {
    const target = { ...embedded.target, transactionIds: { template: 'PAY-{uuid}', maxLength: 40 } };
    const results = await runCases({
      cases: SERVICE_CASES, target, seed: 99, only: 'service.callback.transaction-id-echoed,service.auth.changed-transaction_id',
    });
    expect(results.map((r) => `${r.id} ${r.verdict} ${r.reason ?? ''}`.trim())).toEqual([
      'service.auth.changed-transaction_id PASS', 'service.callback.transaction-id-echoed PASS',
    ]);
    const exchanges = results.flatMap((r) => (r.evidence?.exchanges ?? []) as Exchange[]);
    expect(exchanges.length).toBeGreaterThanOrEqual(2);
    for (const exchange of exchanges) {
      const body = JSON.parse(String(exchange.request?.body)) as { transaction_id: string; callback_url: string };
      expect(body.transaction_id).toMatch(PAY_UUID);
      expect(body.callback_url).toMatch(/\/cb\/cc-[a-z0-9]+-\d+-[a-z0-9]{6}$/);
    }
  });
});
