// Issue 9 point 2: a correct service that answers every refusal with HTTP 200
// `{"error_code": <number>, "error_message": "…"}` and no `success` field (as real services do:
// their clients check error_code). DESIGN.md's rejection judgement (`success: false` or a
// non-null error_code) reads those as rejections, so every service case PASSes; the former
// judgement (only `success: false`) read them as acceptances and FAILed the negative cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectClient, judgeAnswer } from '../../harness/client/index.ts';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { runCases } from '../../harness/runner/index.ts';
import { startEmbeddedService, type EmbeddedService } from '../../harness/embedded/index.ts';
import { runSide } from '../../harness/run/index.ts';
import { blurred } from './fault-check.ts';

const SEED = Number(process.env['FC_SEED'] ?? 20261122);
/** The judgement before issue 9: a 2xx was a rejection only with `"success": false`. */
const SUCCESS_FALSE_ONLY = [{ pointer: '/success', in: [false] }];

describe('service answering refusals as HTTP 200 with error_code (rejectionStyle ok-with-error-code)', () => {
  let service: EmbeddedService;
  beforeAll(async () => {
    service = await startEmbeddedService({ rejectionStyle: 'ok-with-error-code' });
  });
  afterAll(async () => {
    await service.close();
  });

  it('really answers a refusal 200 with a numeric error_code and no success field', async () => {
    const t = service.target;
    const client = new CollectClient({ baseUrl: t.baseUrl, clientKey: t.clientKey, secretKey: t.secretKey });
    try {
      const answer = await client.send({
        fields: {
          amount: '1.00', callback_url: 'http://127.0.0.1:9/cb', client_id: t.clientId,
          customer_number: t.customerNumbers.notWhitelisted[0]!, network_code: 'MTN', transaction_id: `ec-${SEED}`,
        },
      });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ error_code: 403, error_message: expect.stringContaining('NUMBER_NOT_WHITELISTED') });
      expect(answer.judgement).toBe('rejected-candidate');
      expect(answer.rejectedBecause).toBe('HTTP 200 with error_code 403');
      // The former judgement would have been fooled:
      expect(judgeAnswer(answer.status!, answer.bodyText!, SUCCESS_FALSE_ONLY)).toBe('accepted');
    } finally {
      await client.close();
    }
  });

  it('every service case PASSes (the production-only ones SKIP)', async () => {
    // A request's limit of 5 s, not the target's 1 s: at load 20 a collect went unanswered within 1 s (ERROR); the verdicts here are about the rejection's shape.
    const results = await runCases({ cases: SERVICE_CASES, target: service.target, seed: SEED, perRequestTimeoutMs: 5000 });
    // The back-off case's honest "cannot tell" on a busy machine (its schedule stretched, or the kit stalled) counts as its PASS (fault-check.ts).
    const wrong = results.filter((r) => !blurred(r) && r.verdict !== (SERVICE_CASES.find((c) => c.id === r.id)!.needs.includes('production') ? 'SKIP' : 'PASS'));
    expect(wrong.map((r) => `${r.verdict} ${r.id}: ${r.reason ?? ''}`).join('\n'), `seed ${SEED}`).toBe('');
  });

  it('with the former judgement stated as the target\'s rejection shape, the negative cases FAIL on a 200 that rejects', async () => {
    const target = { ...service.target, rejection: SUCCESS_FALSE_ONLY };
    const results = await runCases({ cases: SERVICE_CASES, target, seed: SEED, only: 'service.sandbox.not-whitelisted-rejected,service.auth.missing-header' });
    expect(results.map((r) => r.verdict)).toEqual(['FAIL', 'FAIL']);
    for (const r of results) expect(r.reason).toMatch(/HTTP 200 \{"error_code":40[13]/);
  });

  it('those FAILs are one shared cause, named once: service.rejections-unread, pointing to "rejection"', async () => {
    const target = { ...service.target, rejection: SUCCESS_FALSE_ONLY };
    const run = await runSide({ cases: SERVICE_CASES, target, seed: SEED, only: 'service.auth.changed-*,service.sandbox.not-whitelisted-rejected,service.sandbox.leading-zeros-kept' });
    const failed = run.results.filter((r) => r.verdict !== 'PASS');
    expect(failed.length).toBeGreaterThanOrEqual(3);
    const [cause, ...more] = run.diagnoses;
    expect(more).toEqual([]);
    expect(cause).toMatchObject({ id: 'service.rejections-unread', summary: expect.stringMatching(/^\d+ service cases that must be rejected were answered 2xx .* likely the service rejects in its own shape, .* state it as "rejection"/) });
    expect(cause!.cases.sort()).toEqual(failed.map((r) => r.id).sort());
    // The leading-zeros case does not guess at the whitelist when the answer could not be read.
    const zeros = run.results.find((r) => r.id === 'service.sandbox.leading-zeros-kept')!;
    expect(zeros.verdict).toBe('WARN');
    expect(zeros.reason).not.toContain('compares numbers as integers');
  });
});
