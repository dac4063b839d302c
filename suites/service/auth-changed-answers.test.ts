// service.auth (§5.2, §5.4) against answers no fault switch of the reference gives (split from
// auth-answers.test.ts, which holds the source whitelist): what a rejection case's FAIL says
// against a front of the tests' own making (fixtures/front.ts), and what the changed-* cases send
// against the reference itself.
import { describe, expect, it } from 'vitest';
import { SIGNATURE_NOT_MATCHING } from '../../harness/cases/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { NO_CALLBACK } from './fixtures/callback-answers.ts';
import { runAgainstReference, runBehindFront } from './fixtures/run-case.ts';

const notes = (r: CaseResult) => r.evidence?.notes ?? [];
/** No request of these tests is processed: the rejection watches are waited out for nothing, 500 ms instead of the embedded target's 1,000 (auth-answers.test.ts). */
const WATCHED = { target: () => NO_CALLBACK };

describe('service.auth rejection cases: what a FAIL says', () => {
  it('a mismatched request answered 200 with an error body the target does not state, and not processed: FAIL for the unread rejection, not an unverified signature', async () => {
    const r = await runBehindFront('service.auth.wrong-secret', async (_request, t) => t.json(200, { status: 'error', message: 'invalid signature' }), WATCHED);
    expect(r.verdict).toBe('FAIL');
    expect(r.stated?.causes).toEqual(['rejections-unread']);
    expect(r.reason).not.toContain(SIGNATURE_NOT_MATCHING);
    expect(r.reason).toContain('It must be rejected');
  });
  it('the upper-case case is a SHOULD: its unread rejection says so, with the suite\'s position', async () => {
    const r = await runBehindFront('service.auth.uppercase-signature', async (_request, t) => t.json(200, { status: 'error' }), WATCHED);
    expect(r.verdict).toBe('WARN');
    expect(r.reason).toContain('It should be rejected');
    expect(r.reason).toMatch(/\. the suite's position \(§5\.1 step 5 names no letter case\)/);
  });
});

describe('service.auth.changed-*: the changed value is another the service accepts, so only the signature tells them apart', () => {
  // A changed request the reference rejects is watched for a callback that never comes: where
  // only what was sent is asserted, the watch is NO_CALLBACK's 500 ms, not the embedded 1,000.
  const sentBody = (r: CaseResult) => JSON.parse(r.evidence!.exchanges![0]!.request.body!) as Record<string, unknown>;
  it('amount, client_id, callback_url, network_code and customer_number as sent', async () => {
    // Every collect of the group at once: a request's limit of 5 s, not 1 s (on a machine loaded
    // tenfold four collects went unanswered within 1 s); what is asserted is what was sent.
    const results = await runAgainstReference('service.auth', {}, [], 'sandbox', 5000);
    const body = (field: string) => sentBody(results.find((r) => r.id === `service.auth.changed-${field}`)!);
    const clientId = sentBody(results.find((r) => r.id === 'service.auth.valid-accepted')!).client_id as number;
    expect(body('amount').amount).toBe('100.00');
    expect(body('client_id').client_id).toBe(clientId + 1);
    expect(body('callback_url').callback_url).toMatch(/[?&]changed=after-signing$/);
    expect(body('network_code').network_code).toBe('VOD');
    // The other accepted number the target names (its failing one), not an invented one.
    expect(body('customer_number').customer_number).toBe('0244000002');
    expect(results.filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  });
  it('network_code VOD changes to MTN', async () => {
    const [r] = await runAgainstReference('service.auth.changed-network_code', { networkCode: 'VOD', ...NO_CALLBACK });
    expect(sentBody(r!).network_code).toBe('MTN');
  });
  it.each([['0244000001', '0244000009'], ['0244000009', '0244000008']])('only one accepted number known (%s): its last digit changed (%s), and a note says the sandbox may refuse it', async (own, changed) => {
    const [r] = await runAgainstReference('service.auth.changed-customer_number', { customerNumbers: { whitelisted: [own], notWhitelisted: ['0244999999'] }, ...NO_CALLBACK });
    expect(sentBody(r!).customer_number).toBe(changed);
    expect(notes(r!)).toContain('only one accepted customer number is known: the changed number may also be refused by the sandbox whitelist');
  });
});

describe('service.auth.literal-url-accepted', () => {
  it('signs and sends a callback_url whose query has ?, &, = and %', async () => {
    const [r] = await runAgainstReference('service.auth.literal-url-accepted');
    expect(r!.verdict).toBe('PASS');
    expect(JSON.parse(r!.evidence!.exchanges![0]!.request.body!).callback_url).toMatch(/next=\/done\?x=1&ref=a=b&sum=1\+2&pct=50%25$/);
  });
});
