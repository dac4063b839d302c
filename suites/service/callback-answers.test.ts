// service.callback (§4.3, §6) on callbacks no fault switch of the reference sends, and on the
// reference's own: what each case notes when it holds, and the words of its FAIL, WARN or SKIP.
// A service of the tests' own making (callingBack) sends the callbacks a test needs. This file:
// the callback's parameters and its URL; the files beside it, split by case group so their waits
// overlap across workers: callback-token-answers (the token and duplicates, over the retry),
// callback-backoff-answers (the retry schedule), callback-stop-answers (retries after a 2xx, and
// the production transport).
import { describe, expect, it } from 'vitest';
import { callingBack, runBehindFront } from './fixtures/run-case.ts';
import { NO_CALLBACK, notes, one, paid } from './fixtures/callback-answers.ts';

describe('service.callback.transaction-id-echoed', () => {
  it('the reference: PASS, noting the one id', async () => {
    const r = await one('service.callback.transaction-id-echoed');
    expect(notes(r)).toEqual([expect.stringMatching(/^the callback's one transaction_id is the one sent, "\S+"$/)]);
  });
  it('no transaction_id in the callback: FAIL saying so', async () => {
    const r = await runBehindFront('service.callback.transaction-id-echoed', callingBack(() => 'status=SUCCESS&message=Paid+in+full'));
    expect([r.verdict, r.reason]).toEqual(['FAIL', 'the callback has no transaction_id parameter']);
  });
  it('twice, and another id: each named', async () => {
    expect((await one('service.callback.transaction-id-echoed', ['transaction-id-twice'])).reason).toMatch(/^transaction_id appears 2 times: \["(\S+)","\1"\]$/);
    expect((await one('service.callback.transaction-id-echoed', ['wrong-transaction-id'])).reason).toMatch(/^sent transaction_id "\S+", the callback says "SIM-/);
  });
});

describe('service.callback.status-failed and status-success', () => {
  it('lower-case status: FAIL naming the letter case', async () => {
    expect((await one('service.callback.status-failed', ['lowercase-status'])).reason).toMatch(/the callback says status="failed" \(status values are exact, upper case\)$/);
  });
  it('SUCCESS for a FAILED transaction: FAIL, nothing about letter case', async () => {
    const r = await one('service.callback.status-failed', ['failed-as-success']);
    expect(r.reason).toMatch(/ends FAILED, the callback says status="SUCCESS"$/);
  });
  it('no status at all: FAIL saying null', async () => {
    const r = await runBehindFront('service.callback.status-success', callingBack((f) => `transaction_id=${encodeURIComponent(f.transaction_id)}&message=Paid`));
    expect(r.reason).toMatch(/ends SUCCESS, the callback says status=null$/);
  });
});

describe('service.callback.message-plus-encoding', () => {
  it('the reference: PASS noting the message as sent', async () => {
    expect(notes(await one('service.callback.message-plus-encoding'))).toEqual(['message=Payment+of+GHS+1.00+received']);
  });
  it('%20 for spaces: FAIL showing the message as sent', async () => {
    expect((await one('service.callback.message-plus-encoding', ['message-percent20'])).reason).toBe('message writes spaces as %20, not +: message=Payment%20of%20GHS%201.00%20received');
  });
  it('a message without a space: SKIP, the rule not exercised', async () => {
    const r = await runBehindFront('service.callback.message-plus-encoding', callingBack((f) => `transaction_id=${encodeURIComponent(f.transaction_id)}&status=SUCCESS&message=Paid`));
    expect([r.verdict, r.reason]).toEqual(['SKIP', 'not exercised: the service\'s message (message=Paid) has no space, so the + rule could not be seen']);
  });
});

describe('service.callback.reserved-id-intact', () => {
  it('the reference: PASS, every id back', async () => {
    expect(notes(await one('service.callback.reserved-id-intact'))).toEqual(['7 id(s) came back intact']);
  });
  it('ids written raw: FAIL showing the query received', async () => {
    const r = await one('service.callback.reserved-id-intact', ['raw-transaction-id']);
    expect(r.reason).toMatch(/, the callback \?transaction_id=\S+ reads transaction_id=/);
    expect(r.stated).toBeUndefined();
  });
  it('no callback: FAIL stating no-callback', async () => {
    const r = await one('service.callback.reserved-id-intact', ['no-callback'], NO_CALLBACK);
    expect(r.reason).toMatch(/^no callback arrived for the id carrying "&status=FAILED"/);
    expect(r.stated?.causes).toEqual(['no-callback']);
  });
  it('one id accepted and never called back, the rest back intact: FAIL for that one, stating no-callback', async () => {
    const r = await runBehindFront('service.callback.reserved-id-intact', async ({ body }, t) => (
      (JSON.parse(body.toString('utf8')) as { transaction_id: string }).transaction_id.includes('#') ? t.json(200, { success: true, status: 'PENDING' }) : t.forward()), { target: () => NO_CALLBACK });
    expect(r.reason).toMatch(/^no callback arrived for the id carrying "#x": every value is form-encoded/);
    expect(r.stated?.causes).toEqual(['no-callback']);
  });
  it('an id refused at collect: noted, the rest judged', async () => {
    const r = await runBehindFront('service.callback.reserved-id-intact', async ({ body }, t) => (
      (JSON.parse(body.toString('utf8')) as { transaction_id: string }).transaction_id.includes('#') ? t.json(400, { success: false, error_code: 'BAD_ID' }) : t.forward()));
    expect([r.verdict, r.reason]).toEqual(['PASS', undefined]);
    expect(notes(r)).toEqual(['an id carrying "#x" was refused at collect: HTTP 400 {"success":false,"error_code":"BAD_ID"}', '6 id(s) came back intact; 1 refused at collect (not exercised)']);
  });
  it('every id refused at collect: SKIP', async () => {
    const r = await runBehindFront('service.callback.reserved-id-intact', async (_request, t) => t.json(400, { success: false }));
    expect([r.verdict, r.reason]).toEqual(['SKIP', 'the service refused every id with reserved characters at collect (first: HTTP 400 {"success":false}), so none could come back']);
  });
});

describe('service.callback composition: a callback glued to the path', () => {
  it('a name glued on (…/cb/<tag>x&…): another path, not this case\'s callback; no callback', async () => {
    const r = await runBehindFront('service.callback.query-appended-with-question-mark', callingBack(paid, undefined, (url, query) => `${url}x&${query}`), { target: () => NO_CALLBACK });
    expect([r.verdict, r.stated?.causes, notes(r)]).toEqual(['FAIL', ['no-callback'], []]);
  });
  it('parameters glued with & to a URL without a query: FAIL, noting where the callback arrived', async () => {
    const r = await one('service.callback.query-appended-with-question-mark', ['always-ampersand'], NO_CALLBACK);
    expect(r.verdict).toBe('FAIL');
    expect(notes(r)).toEqual([expect.stringMatching(/^the callback arrived at a path the supplied URL does not have: \/cb\/\S+&transaction_id=/)]);
  });
});
