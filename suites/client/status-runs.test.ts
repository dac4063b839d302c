// How a client.status case runs (harness/cases/client/status.ts): only for an adapter whose hello
// declares "status" (a version-1 adapter is never sent it: SKIP, naming the line to add); then
// judged on every case, each status answered in both letter cases and an unknown id in both forms
// (docs/positions.md): an SDK that reads one letter case only is WARN naming the other form's
// evidence; a misreport in a form it reads is FAIL, the cause stated once for the diagnoses. The
// bench is a stand-in: the SDK's report is a function of what the service answers, as an adapter
// of such an SDK would give it.
import { describe, expect, it } from 'vitest';
import { CaseError, CLIENT_CASES, type ClientContext } from '../../harness/cases/index.ts';
import type { AdapterAnswer, AdapterCapabilities, ServiceScript } from '../../harness/sdk/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';
import { receivedRequest } from './observations.ts';

/** What the service answered: its HTTP status, the status its JSON body carries (as spelled), its error_code. */
interface Answered { httpStatus: number; status?: string; errorCode?: unknown }
type Sdk = (answered: Answered, call: number) => AdapterAnswer;

function answeredBy(script: ServiceScript): Answered {
  if (script.kind !== 'answer') throw new Error(`a status case scripts an answer, not ${script.kind}`);
  const body = /^\s*\{/.test(script.body) ? (JSON.parse(script.body) as { status?: string; error_code?: unknown }) : {};
  return { httpStatus: script.status, ...(body.status ? { status: body.status } : {}), ...(body.error_code !== undefined ? { errorCode: body.error_code } : {}) };
}

const V2: AdapterCapabilities = { greeting: { protocol: 2, supports: ['collect', 'status'] }, collect: true, status: true };

/** A context whose bench's SDK reports `sdk(answered, n)` on its n-th status call (from 1); `asked` lists what each call was answered. */
function context(sdk: Sdk, asked: Answered[] = [], capabilities: AdapterCapabilities = V2): ClientContext {
  let n = 0;
  let current: Answered | undefined;
  const bench = {
    service: {
      baseUrl: 'http://127.0.0.1:1',
      during: async (script: ServiceScript, body: () => Promise<AdapterAnswer>) => {
        current = answeredBy(script);
        asked.push(current);
        const answer = { status: current.httpStatus, contentType: 'application/json', body: script.kind === 'answer' ? script.body : '', by: 'script', durationMs: 2 };
        return { value: await body(), received: [receivedRequest({ target: '/api/v1.0/transaction_status/', answer } as Parameters<typeof receivedRequest>[0])] };
      },
    },
    adapter: { status: async () => sdk(current!, ++n), capabilities: async () => capabilities },
  };
  let ids = 0;
  return {
    target: { clientId: 2, clientKey: 'ck-status-runs-0001', secretKey: 'sk-status-runs-0001', timing: { answerDeadlineMs: 1000 } },
    redactor: new Redactor([]), newTag: () => `t${++ids}`, newTransactionId: () => `cc-s-${++ids}`,
    resources: { clients: { of: async () => bench } },
    wire: { exchange: <T>(send: () => Promise<T>) => send() },
  } as unknown as ClientContext;
}

function run(id: string, ctx: ClientContext) {
  const found = CLIENT_CASES.find((c) => c.id === id);
  if (!found) throw new Error(`no client case ${id}`);
  return found.run(ctx);
}
async function caseError(promise: Promise<unknown>): Promise<CaseError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(CaseError);
  return error as CaseError;
}

const error = (message: string): AdapterAnswer => ({ kind: 'error', error: message, line: '' });
const status = (value: 'PENDING' | 'SUCCESS' | 'FAILED'): AdapterAnswer => ({ kind: 'status', status: value, line: '' });
const crashed: AdapterAnswer = { kind: 'failed', code: 'ERR_ADAPTER_CRASHED', failure: 'crashed', reason: 'exit code 1' };

const lowerOnly: Sdk = (a) => (a.status && a.status === a.status.toLowerCase() ? status(a.status.toUpperCase() as 'PENDING') : a.status ? error(`unknown status ${a.status}`) : error('refused'));
const upperOnly: Sdk = (a) => (a.status && a.status === a.status.toUpperCase() ? status(a.status as 'PENDING') : a.status ? error(`unknown status ${a.status}`) : error('refused'));
const STATUS_CASE_IDS = CLIENT_CASES.filter((c) => c.id.startsWith('client.status.')).map((c) => c.id);

describe('an adapter whose hello does not declare "status": never sent a status request, its cases SKIP', () => {
  it('protocol 1 (it answered the hello with an error): SKIP naming the line to add, nothing asked', async () => {
    const asked: Answered[] = [];
    const v1: AdapterCapabilities = { greeting: { protocol: 1, why: 'it answered the hello with "{\\"id\\":\\"hello\\",\\"error\\":\\"no fields\\"}" (an error)' }, collect: true, status: false };
    for (const id of STATUS_CASE_IDS) {
      const outcome = await run(id, context(() => status('SUCCESS'), asked, v1));
      expect(outcome, id).toMatchObject({ verdict: 'SKIP', causes: ['status-not-declared'] });
      expect(outcome.reason).toMatch(/^not exercised: the adapter speaks protocol 1 \(it answered the hello with .*\), so it is never sent "op": "status".*answer the first line, \{"id": "hello", "op": "hello", "protocol": 2\}, with \{"id": "hello", "protocol": 2, "supports": \["collect", "status"\]\}/);
    }
    expect(asked).toEqual([]);
  });
  it('protocol 2 supporting collect only: SKIP, the SDK has no status call to judge', async () => {
    const collectOnly: AdapterCapabilities = { greeting: { protocol: 2, supports: ['collect'] }, collect: true, status: false };
    const outcome = await run('client.status.reports-success', context(() => status('SUCCESS'), [], collectOnly));
    expect(outcome).toMatchObject({ verdict: 'SKIP' });
    expect(outcome.reason).toMatch(/the adapter's hello declares "supports": \["collect"\], without "status"/);
  });
});

describe('an adapter that declares "status": judged on every case, an error to a valid answer is a misreport', () => {
  it('it errs on every answer: the reports cases FAIL (no form read), the cause stated; its requests are judged all the same', async () => {
    const sdk: Sdk = () => error('no such method: status');
    const outcome = await run('client.status.reports-failed', context(sdk));
    expect(outcome).toMatchObject({ verdict: 'FAIL', causes: ['status-misreported'] });
    expect(outcome.reason).toMatch(/^the SDK read neither form of a FAILED answer: to 200 \{"success": true, "status": "failed"\} the SDK reported an error \(no such method: status\); to 200 \{"success": true, "status": "FAILED"\}/);
    expect(await run('client.status.method-path', context(sdk))).toMatchObject({ verdict: 'PASS' });
  });
  it('every status value asked in both letter cases, once per bench, whichever reports case asks first', async () => {
    const asked: Answered[] = [];
    const ctx = context(lowerOnly, asked);
    await run('client.status.reports-pending', ctx);
    await run('client.status.reports-failed', ctx);
    expect(asked.map((a) => a.status)).toEqual(['success', 'pending', 'PENDING', 'success', 'SUCCESS', 'failed', 'FAILED']);
  });
  it('an SDK that reads lower case only: WARN on each reports case, naming the upper-case form and its evidence, never FAIL', async () => {
    for (const id of ['client.status.reports-pending', 'client.status.reports-success', 'client.status.reports-failed']) {
      const outcome = await run(id, context(lowerOnly));
      expect(outcome.verdict, `${id}: ${outcome.reason}`).toBe('WARN');
      expect(outcome.reason).toMatch(/^the SDK reads the status only in lower case: .*but to 200 \{"success": true, "status": "[A-Z]+"\} the SDK reported an error \(unknown status [A-Z]+\), as to every upper-case answer; the upper-case form has evidence too: the spec spells SUCCESS and FAILED in upper case in callbacks \(§6\)/);
    }
    // The evidence is the call the SDK refused; its note, the form it read.
    const warned = await run('client.status.reports-pending', context(lowerOnly));
    expect(warned.evidence?.adapter?.answered).toBe(null);
    expect(warned.evidence?.notes).toEqual(['to 200 {"success": true, "status": "pending"} the SDK reported status PENDING']);
  });
  it('an SDK that reports nothing to one letter case (its caller left waiting) and reads the other: FAIL, a misreport, never a WARN', async () => {
    const timeout: AdapterAnswer = { kind: 'failed', code: 'ERR_ADAPTER_TIMEOUT', failure: 'timeout', reason: 'no answer within 1000 ms' };
    const sdk: Sdk = (a) => (a.status === a.status?.toUpperCase() ? status(a.status as 'PENDING') : timeout);
    const outcome = await run('client.status.reports-pending', context(sdk));
    expect(outcome).toMatchObject({
      verdict: 'FAIL', causes: ['status-misreported'],
      reason: 'the service answered 200 {"success": true, "status": "pending"}; the SDK reported nothing within 1000 ms: a transaction still pending is not paid (an SDK that reads only "success" calls it SUCCESS)',
    });
  });
  it('an SDK that reads lower case and reports every upper-case answer as another status: FAIL, a misreport, never a WARN', async () => {
    const next = { PENDING: 'FAILED', SUCCESS: 'PENDING', FAILED: 'SUCCESS' } as const;
    const sdk: Sdk = (a) => (!a.status ? error('refused') : a.status === a.status.toLowerCase() ? status(a.status.toUpperCase() as 'PENDING') : status(next[a.status as 'PENDING']));
    const outcome = await run('client.status.reports-pending', context(sdk));
    expect(outcome).toMatchObject({
      verdict: 'FAIL', causes: ['status-misreported'],
      reason: 'the service answered 200 {"success": true, "status": "PENDING"}; the SDK reported status FAILED: a transaction still pending is not paid (an SDK that reads only "success" calls it SUCCESS)',
    });
  });
  it('an SDK that reads upper case only: WARN naming the lower-case form and the real client that compares it', async () => {
    const outcome = await run('client.status.reports-success', context(upperOnly));
    expect(outcome.verdict).toBe('WARN');
    expect(outcome.reason).toMatch(/the lower-case form has evidence too: the real status client deployed in Ghana .*compares the answer's status with lower-case `success`, `pending`, `failed`/);
  });
  it('an SDK that reads lower case and reports the rest PENDING (the earlier real client): FAIL on SUCCESS and FAILED, the cause stated; PENDING PASSes', async () => {
    const compare: Sdk = (a) => status(a.status === 'success' ? 'SUCCESS' : a.status === 'failed' ? 'FAILED' : 'PENDING');
    const success = await run('client.status.reports-success', context(compare));
    expect(success).toMatchObject({ verdict: 'FAIL', causes: ['status-misreported'] });
    expect(success.reason).toMatch(/^the service answered 200 \{"success": true, "status": "SUCCESS"\}; the SDK reported status PENDING/);
    expect(await run('client.status.reports-failed', context(compare))).toMatchObject({ verdict: 'FAIL' });
    expect(await run('client.status.reports-pending', context(compare))).toMatchObject({ verdict: 'PASS' });
  });
  it('an error to one value of a form it reads (upper-case SUCCESS, while upper-case PENDING is read): FAIL, a misreport', async () => {
    const sdk: Sdk = (a) => (a.status === 'SUCCESS' ? error('unknown status SUCCESS') : a.status ? status(a.status.toUpperCase() as 'PENDING') : error('refused'));
    const outcome = await run('client.status.reports-success', context(sdk));
    expect(outcome).toMatchObject({ verdict: 'FAIL', causes: ['status-misreported'] });
    expect(outcome.reason).toMatch(/; the SDK reported an error \(unknown status SUCCESS\), though it reads upper-case answers \(it reported 200 \{"success": true, "status": "PENDING"\} as PENDING\): an error to a valid answer is a misreport/);
  });
  it('the value it reads in that form is named as it was read: an error to upper-case PENDING, while upper-case SUCCESS is read', async () => {
    const sdk: Sdk = (a) => (a.status === 'PENDING' ? error('unknown status PENDING') : a.status ? status(a.status.toUpperCase() as 'PENDING') : error('refused'));
    const outcome = await run('client.status.reports-pending', context(sdk));
    expect(outcome).toMatchObject({ verdict: 'FAIL', causes: ['status-misreported'] });
    expect(outcome.reason).toContain('; the SDK reported an error (unknown status PENDING), though it reads upper-case answers (it reported 200 {"success": true, "status": "SUCCESS"} as SUCCESS): ');
  });
  it('both letter cases read: PASS, noting both', async () => {
    const outcome = await run('client.status.reports-success', context((a) => (a.status ? status(a.status.toUpperCase() as 'PENDING') : error('refused'))));
    expect(outcome.verdict).toBe('PASS');
    expect(outcome.evidence?.notes?.[0]).toMatch(/^read in both letter cases/);
  });
  it('an unknown id asked in both forms: 421 reported FAILED is a FAIL naming that form; neither reported a status PASSes', async () => {
    const asked: Answered[] = [];
    const failed421: Sdk = (a) => (a.errorCode === 421 ? status('FAILED') : a.httpStatus === 404 ? error('not found') : status('SUCCESS'));
    const outcome = await run('client.status.unknown-id', context(failed421, asked));
    expect(outcome.verdict).toBe('FAIL');
    expect(outcome.reason).toMatch(/^the service answered 200 \{"success": false, "error_code": 421\} \(an unknown id, the 421 form/);
    expect(asked.slice(1).map((a) => [a.httpStatus, a.errorCode])).toEqual([[404, 404], [200, 421]]);
    const passed = await run('client.status.unknown-id', context((a) => (a.httpStatus === 200 && a.errorCode === undefined ? status('SUCCESS') : error('not found'))));
    expect(passed.verdict).toBe('PASS');
    expect(passed.evidence?.notes).toEqual([
      'the service answered 404 {"success": false, "error_code": 404}; the SDK reported an error (not found)',
      'the service answered 200 {"success": false, "error_code": 421}; the SDK reported an error (not found)',
    ]);
  });
});

describe('the plain query got no usable answer from the adapter', () => {
  it('a crash: ERROR, the shared cause status-call-failed with the adapter\'s failure typed', async () => {
    const e = await caseError(run('client.status.reports-pending', context(() => crashed)));
    expect(e.message).toMatch(/^the adapter gave no usable answer to a plain status call \(ERR_ADAPTER_CRASHED: exit code 1\), though its hello declares "status"/);
    expect(e.stated).toEqual({ causes: ['status-call-failed'], failure: { code: 'crashed', message: 'exit code 1' } });
  });
  it('not sent (the run gave up on the adapter): that cause, as it is worded', async () => {
    const unsent: AdapterAnswer = { kind: 'failed', code: 'ERR_ADAPTER_TIMEOUT', failure: 'timeout', reason: 'given up: 3 calls in a row failed', unsent: true };
    const e = await caseError(run('client.status.reports-pending', context(() => unsent)));
    expect(e.message).toBe('ERR_ADAPTER_TIMEOUT: given up: 3 calls in a row failed');
    expect(e.stated?.causes).toEqual(['given-up']);
  });
});
