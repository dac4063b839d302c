// Which number each case sends and the sandbox cases (§4.1 customer_number, the sandbox
// whitelist), against the reference with its target changed or a front of the tests' own making
// (fixtures/front.ts) that answers collect per number (split from request-answers.test.ts so that
// the two overlap across workers).
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../harness/results/index.ts';
import { NO_CALLBACK } from './fixtures/callback-answers.ts';
import type { FrontHandler } from './fixtures/front.ts';
import { runAgainstReference, runBehindFront } from './fixtures/run-case.ts';

const sent = (r: CaseResult, n = 0) => JSON.parse(r.evidence!.exchanges![n]!.request.body!) as Record<string, unknown>;
/** Answers collect itself: 200 accepted for the numbers in `accepted`, 403 for the rest; nothing reaches the reference. */
const numbersFront = (accepted: readonly string[]): FrontHandler => async ({ body }, t) => {
  const number = (JSON.parse(body.toString('utf8')) as { customer_number: string }).customer_number;
  return accepted.includes(number) ? t.json(200, { success: true, status: 'PENDING' }) : t.json(403, { success: false, error_code: 'NUMBER_NOT_WHITELISTED' });
};

describe('the number a case sends: a whitelisted one that ends SUCCESS', () => {
  it('the first whitelisted number not listed as failing', async () => {
    const [r] = await runAgainstReference('service.auth.valid-accepted', {
      customerNumbers: { whitelisted: ['0244000002', '0244000001'], failing: ['0244000002'], notWhitelisted: ['0244999999'] },
    });
    expect(sent(r!).customer_number).toBe('0244000001');
  });
  it('every whitelisted number failing: the first of them', async () => {
    const [r] = await runAgainstReference('service.auth.valid-accepted', {
      customerNumbers: { whitelisted: ['0244000002'], failing: ['0244000002'], notWhitelisted: ['0244999999'] },
    });
    expect(sent(r!).customer_number).toBe('0244000002');
  });
  it('no whitelisted number: ERROR saying so', async () => {
    const [r] = await runAgainstReference('service.auth.valid-accepted', { customerNumbers: { whitelisted: [], notWhitelisted: ['0244999999'] } });
    expect([r!.verdict, r!.reason]).toEqual(['ERROR', 'the target file lists no customerNumbers.whitelisted']);
  });
});

describe('service.sandbox', () => {
  it('not-whitelisted-rejected without a non-whitelisted number: SKIP saying so', async () => {
    const [r] = await runAgainstReference('service.sandbox.not-whitelisted-rejected', { customerNumbers: { whitelisted: ['0244000001'], notWhitelisted: [] } });
    expect([r!.verdict, r!.reason]).toEqual(['SKIP', 'the target file lists no customerNumbers.notWhitelisted']);
  });

  describe('leading-zeros-kept: the whitelisted number it strips', () => {
    const numbersSent = (r: CaseResult) => (r.evidence?.exchanges ?? []).map((x) => JSON.parse(x.request.body!).customer_number as string);
    it.each([
      // [whitelisted, failing, sent: the control, then the stripped number]
      [['10244000001', '0244000001'], [], ['0244000001', '244000001']],
      [['00244000001'], [], ['00244000001', '244000001']],
      [['0244000003', '0244000001'], ['244000003'], ['0244000001', '244000001']],
    ])('whitelisted %j, failing %j: sends %j', async (whitelisted, failing, numbers) => {
      const r = await runBehindFront('service.sandbox.leading-zeros-kept', numbersFront(whitelisted), {
        target: () => ({ ...NO_CALLBACK, customerNumbers: { whitelisted, failing, notWhitelisted: ['0244999999'] } }),
      });
      expect(numbersSent(r)).toEqual(numbers);
      expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
    });
    it.each([
      [['244000001', '0244000001'], []],
      [['0244000001'], ['244000001']],
      [['1244000001'], []],
    ])('whitelisted %j, failing %j: no number to strip, SKIP', async (whitelisted, failing) => {
      const [r] = await runAgainstReference('service.sandbox.leading-zeros-kept', { customerNumbers: { whitelisted, failing, notWhitelisted: ['0244999999'] } });
      expect([r!.verdict, r!.reason]).toEqual(['SKIP', 'no whitelisted customer number starts with 0 (without a whitelisted twin minus the zeros)']);
    });
    it('the stripped number accepted and processed: WARN (a SHOULD) with the likely causes', async () => {
      const [r] = await runAgainstReference('service.sandbox.leading-zeros-kept', {}, ['numbers-as-integers']);
      expect(r!.verdict).toBe('WARN');
      expect(r!.reason).toMatch(/\. Likely causes: the whitelist compares numbers as integers \(dropping leading zeros\), or it is not enforced at all/);
    });
    it('the stripped number answered 200 in a shape no rule reads, and not processed: the unread rejection, no guess about the whitelist', async () => {
      const r = await runBehindFront('service.sandbox.leading-zeros-kept', async ({ body }, t) => {
        const number = (JSON.parse(body.toString('utf8')) as { customer_number: string }).customer_number;
        return number === '0244000001' ? t.forward() : t.json(200, { status: 'error' });
      }, { target: () => NO_CALLBACK });
      expect(r.verdict).toBe('WARN');
      expect(r.stated?.causes).toEqual(['rejections-unread']);
      expect(r.reason).not.toContain('Likely causes');
    });
  });
});
