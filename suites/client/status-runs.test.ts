// How a client.status case runs (harness/cases/client/status.ts): before its own query, a plain
// one answered 200 SUCCESS tells whether the SDK has a status call at all, and when that errors,
// one answered PENDING tells whether it errs on SUCCESS alone. The bench is a stand-in: the SDK's
// report is a function of what the service answers, as an adapter of such an SDK would give it.
import { describe, expect, it } from 'vitest';
import { CaseError, CLIENT_CASES, type ClientContext } from '../../harness/cases/index.ts';
import type { AdapterAnswer, ServiceScript } from '../../harness/sdk/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';
import { receivedRequest } from './observations.ts';

/** What the service answered: its HTTP status, and the status its JSON body carries. */
interface Answered { httpStatus: number; status?: string }
type Sdk = (answered: Answered, call: number) => AdapterAnswer;

function answeredBy(script: ServiceScript): Answered {
  if (script.kind !== 'answer') throw new Error(`a status case scripts an answer, not ${script.kind}`);
  const body = /^\s*\{/.test(script.body) ? (JSON.parse(script.body) as { status?: string }) : {};
  return { httpStatus: script.status, ...(body.status ? { status: body.status } : {}) };
}

/** A context whose bench's SDK reports `sdk(answered, n)` on its n-th status call (from 1); `asked` lists what each call was answered. */
function context(sdk: Sdk, asked: Answered[] = []): ClientContext {
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
    adapter: { status: async () => sdk(current!, ++n) },
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

describe('an SDK that errs on every answer the plain queries got: it likely has no status call', () => {
  it('its own query errs too: SKIP, naming both plain answers', async () => {
    const asked: Answered[] = [];
    const outcome = await run('client.status.reports-failed', context(() => error('no such method: status'), asked));
    expect(asked.map((a) => a.status)).toEqual(['SUCCESS', 'PENDING', 'FAILED']);
    expect(outcome).toMatchObject({ verdict: 'SKIP' });
    expect(outcome.reason).toMatch(/^not exercised: the adapter answered error to this status call \(no such method: status\) and to plain ones answered 200 SUCCESS and 200 PENDING/);
  });
  it('the adapter crashed on the PENDING query: still SKIP (nothing says it has a status call)', async () => {
    const sdk: Sdk = (_, call) => (call === 2 ? crashed : error('no such method: status'));
    expect(await run('client.status.reports-success', context(sdk))).toMatchObject({ verdict: 'SKIP' });
  });
  it('its own query reported a status (FAILED for a 401, every 200 answer an error): judged, FAIL, not SKIP', async () => {
    const sdk: Sdk = (answered) => (answered.httpStatus === 200 ? error('cannot read the answer') : status('FAILED'));
    const outcome = await run('client.status.refusal', context(sdk));
    expect(outcome).toMatchObject({ verdict: 'FAIL' });
    expect(outcome.reason).toMatch(/the SDK reported status FAILED/);
  });
  it('PENDING reported (it errs on SUCCESS alone): it has a status call, and the SUCCESS case FAILs', async () => {
    const sdk: Sdk = (answered) => (answered.status === 'SUCCESS' ? error('unknown status SUCCESS') : status('PENDING'));
    expect(await run('client.status.reports-success', context(sdk))).toMatchObject({ verdict: 'FAIL' });
  });
});

describe('the plain query got no usable answer from the adapter', () => {
  it('a crash: ERROR, the shared cause status-call-failed with the adapter\'s failure typed', async () => {
    const e = await caseError(run('client.status.reports-pending', context(() => crashed)));
    expect(e.message).toMatch(/^the adapter gave no usable answer to a plain status call \(ERR_ADAPTER_CRASHED: exit code 1\): likely it does not know "op": "status"/);
    expect(e.stated).toEqual({ causes: ['status-call-failed'], failure: { code: 'crashed', message: 'exit code 1' } });
  });
  it('not sent (the run gave up on the adapter): that cause, as it is worded', async () => {
    const unsent: AdapterAnswer = { kind: 'failed', code: 'ERR_ADAPTER_TIMEOUT', failure: 'timeout', reason: 'given up: 3 calls in a row failed', unsent: true };
    const e = await caseError(run('client.status.reports-pending', context(() => unsent)));
    expect(e.message).toBe('ERR_ADAPTER_TIMEOUT: given up: 3 calls in a row failed');
    expect(e.stated?.causes).toEqual(['given-up']);
  });
});
