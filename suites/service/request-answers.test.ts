// What every service case shares (harness/cases/service/session.ts and define.ts), against
// answers no fault switch of the reference gives: a front of the tests' own making
// (fixtures/front.ts), or the reference with its target changed. The words of a FAIL and an
// ERROR, the times they give, and the evidence a case keeps (its own deliveries only, no empty
// keys). Which number each case sends, and the sandbox cases: sandbox-answers.test.ts (split
// from here so that the two overlap across workers).
import { describe, expect, it } from 'vitest';
import { NO_CALLBACK } from './fixtures/callback-answers.ts';
import { runAgainstReference, runBehindFront } from './fixtures/run-case.ts';

describe('a collect request nothing answers', () => {
  it('service.auth.valid-accepted: ERROR, the collect request got no answer, naming the failure', async () => {
    const r = await runBehindFront('service.auth.valid-accepted', async (_request, t) => t.silent());
    expect(r.verdict).toBe('ERROR');
    expect(r.reason).toMatch(/^the collect request got no answer: \S/);
    expect(r.evidence?.exchanges).toHaveLength(1);
  });
});

// NO_CALLBACK where no request the case sends is processed (refused, or answered by the front
// alone): its watches for a callback are waited out for nothing, 500 ms instead of 1,000.
describe('an answer not read as accepted: what the reason shows of it', () => {
  it('200 with success false: the answer, then the rule that made it a rejection', async () => {
    const r = await runBehindFront('service.auth.valid-accepted', async (_request, t) => t.json(200, { success: false, error_code: 'E1' }));
    expect(r.verdict).toBe('FAIL');
    expect(r.reason).toBe('a correctly signed request was not accepted: HTTP 200 {"success":false,"error_code":"E1"} (read as rejected: success false); likely causes: the credentials, the source address or the customer number of the target file');
    // A FAIL that states no cause carries none for the diagnoses; its evidence has no notes and no deliveries to show.
    expect(r.stated).toBeUndefined();
    expect(r.evidence).not.toHaveProperty('notes');
    expect(r.evidence).not.toHaveProperty('deliveries');
  });
  it('401: the status is the rejection, nothing read from the body', async () => {
    const r = await runBehindFront('service.auth.valid-accepted', async (_request, t) => t.json(401, { success: false }));
    expect(r.reason).toMatch(/^a correctly signed request was not accepted: HTTP 401 \{"success":false\}; likely causes/);
  });
  it('a long body: the first 120 characters of it', async () => {
    const long = 'x'.repeat(300);
    const r = await runBehindFront('service.auth.valid-accepted', async (_request, t) => t.json(401, { message: long }));
    expect(r.reason).toContain(`HTTP 401 {"message":"${long.slice(0, 120 - '{"message":"'.length)}; likely causes`);
  });
  it('a request due to be refused, answered 2xx in a shape no rule reads: the rules it was read by, the default ones', async () => {
    const r = await runBehindFront('service.auth.wrong-secret', async (_request, t) => t.json(200, { status: 'error' }), { target: () => NO_CALLBACK });
    expect(r.reason).toContain('which reads as accepted (2xx, and the body meets no rejection rule: no "success": false, no non-null "error_code")');
  });
  it('… or the target\'s own, as the target file states them', async () => {
    const r = await runBehindFront('service.auth.wrong-secret', async (_request, t) => t.json(200, { status: 'error' }), {
      target: () => ({ ...NO_CALLBACK, rejection: [{ pointer: '/code', notIn: [0] }] }),
    });
    expect(r.reason).toContain('which reads as accepted (2xx, and the body meets no rejection rule: the target\'s "rejection" [{"pointer":"/code","notIn":[0]}])');
  });
});

describe('times: from the case\'s first request', () => {
  it('a refused request processed anyway: its callback\'s time after the request, not 0 and not the clock', async () => {
    const [r] = await runAgainstReference('service.auth.wrong-secret', {}, ['enqueues-before-verifying']);
    const ms = Number(/yet a callback for it arrived after (\d+) ms/.exec(r!.reason ?? '')?.[1]);
    // The reference processes for 50 ms before it calls back.
    expect(ms).toBeGreaterThanOrEqual(25);
    expect(ms).toBeLessThanOrEqual(r!.durationMs);
  });
  it('with two requests, deliveries are timed from the first: a control held 300 ms before it was passed on', async () => {
    const r = await runBehindFront('service.sandbox.leading-zeros-kept', async ({ body }, t) => {
      const number = (JSON.parse(body.toString('utf8')) as { customer_number: string }).customer_number;
      if (number !== '0244000001') return t.json(403, { success: false, error_code: 'NUMBER_NOT_WHITELISTED' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      return t.forward();
    });
    expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
    // The control's callback came ≥ 300 ms after the control was sent, and the stripped number was sent after the control's answer.
    expect(r.evidence?.deliveries?.[0]?.atMs).toBeGreaterThanOrEqual(300);
  });
});

describe('a callback case whose callback never comes', () => {
  it('FAIL stating no-callback for the diagnoses', async () => {
    const [r] = await runAgainstReference('service.callback.delivered-once-as-get', NO_CALLBACK, ['no-callback']);
    expect(r!.verdict).toBe('FAIL');
    expect(r!.stated?.causes).toEqual(['no-callback']);
  });
});

describe('evidence: the case\'s own deliveries, and the curl lines read the client key from a variable', () => {
  it('every case of the callback group shows only deliveries to the callback URLs it sent', async () => {
    const results = await runAgainstReference('service.callback');
    for (const r of results) {
      const sentUrls = (r.evidence?.exchanges ?? []).map((x) => JSON.parse(x.request.body ?? '{}').callback_url as string | undefined).filter((u) => u !== undefined);
      const tags = new Set(sentUrls.map((u) => /\/cb\/([^/?]+)/.exec(u)?.[1]));
      for (const d of r.evidence?.deliveries ?? []) expect(tags.has(/\/cb\/([^/?]+)/.exec(d.rawUrl)?.[1]), `${r.id}: ${d.rawUrl}`).toBe(true);
    }
    expect(results.some((r) => (r.evidence?.deliveries?.length ?? 0) > 0)).toBe(true);
  });
  it('the target file names no variable: the client key read from COLLECT_CLIENT_KEY', async () => {
    const [r] = await runAgainstReference('service.auth.valid-accepted');
    expect(r!.evidence?.exchanges?.[0]?.curl).toContain('"${COLLECT_CLIENT_KEY}"');
  });
});
