// What an adapter's failure makes of a client case (harness/cases/client/call.ts callSdk): an
// SDK that kept its caller waiting after the service answered is the case's finding; any other
// failure is ERROR, typed for the diagnoses (its code, its request's limit, the run given up on
// it); a silent service outlasting the SDK's own limit is a configuration hint. The bench is a
// stand-in here: the adapter's answer and the requests the service received are given.
import { describe, expect, it } from 'vitest';
import { callSdk, CaseError, type ClientContext } from '../../harness/cases/index.ts';
import type { AdapterAnswer, ReceivedRequest, ServiceScript } from '../../harness/sdk/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';

const answered = { atMs: 1, method: 'POST', target: '/api/v1.0/collect/', headers: {}, rawHeaders: [], body: Buffer.from('{}'), bodyTruncated: false, answer: { status: 200, contentType: 'application/json', body: '{"success":true}', by: 'script', durationMs: 2 } } as unknown as ReceivedRequest;

/** A context whose bench answers `answer` after the service received `received`; `scripts` records what the service was told. */
function context(answer: AdapterAnswer, received: ReceivedRequest[], scripts: ServiceScript[] = []): ClientContext {
  const bench = {
    service: { baseUrl: 'http://127.0.0.1:1', during: async (script: ServiceScript, body: () => Promise<AdapterAnswer>) => { scripts.push(script); return { value: await body(), received }; } },
    adapter: { collect: async () => answer },
  };
  return {
    target: { clientId: 2, clientKey: 'ck-failures-0001', secretKey: 'sk-failures-0001', timing: { answerDeadlineMs: 1000 } },
    redactor: new Redactor([]), newTag: () => 't1',
    resources: { clients: { of: async () => bench } },
    wire: { exchange: <T>(send: () => Promise<T>) => send() },
  } as unknown as ClientContext;
}
const failed = (code: Extract<AdapterAnswer, { kind: 'failed' }>['code'], more: Partial<Extract<AdapterAnswer, { kind: 'failed' }>> = {}): AdapterAnswer =>
  ({ kind: 'failed', code, failure: 'timeout', reason: 'no answer line within 1000 ms', ...more }) as AdapterAnswer;
async function caseError(promise: Promise<unknown>): Promise<CaseError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(CaseError);
  return error as CaseError;
}

describe('callSdk: an adapter that gave no usable answer', () => {
  it('its own time-out after the service answered: the SDK kept its caller waiting, the case\'s finding (nothing reported)', async () => {
    const o = await callSdk(context(failed('ERR_ADAPTER_TIMEOUT'), [answered]), []);
    expect(o.answer).toEqual({ kind: 'nothing', waitedMs: 1000, line: '' });
  });
  it('a crash after the service answered: ERROR, the code and reason, typed', async () => {
    const error = await caseError(callSdk(context(failed('ERR_ADAPTER_CRASHED', { failure: 'crashed', reason: 'exit code 1' }), [answered]), []));
    expect(error.message).toBe('ERR_ADAPTER_CRASHED: exit code 1');
    expect(error.stated).toEqual({ failure: { code: 'crashed', message: 'exit code 1' } });
    expect(error.evidence).toMatchObject({ adapter: { answered: null }, serviceScript: { kind: 'reference' } });
  });
  it('a time-out before any answer: ERROR, with the request\'s limit where the adapter gave one', async () => {
    const withLimit = await caseError(callSdk(context(failed('ERR_ADAPTER_TIMEOUT', { limitMs: 1000 }), []), []));
    expect(withLimit.stated).toEqual({ failure: { code: 'timeout', message: 'no answer line within 1000 ms', limitMs: 1000 } });
    const without = await caseError(callSdk(context(failed('ERR_ADAPTER_TIMEOUT'), []), []));
    // No limitMs key at all: a diagnosis groups the requests that met the same limit.
    expect(without.stated).toStrictEqual({ failure: { code: 'timeout', message: 'no answer line within 1000 ms' } });
  });
  it('a call not sent (the run gave up on the adapter): the shared cause given-up', async () => {
    const error = await caseError(callSdk(context(failed('ERR_ADAPTER_TIMEOUT', { unsent: true }), [answered]), []));
    expect(error.stated?.causes).toEqual(['given-up']);
  });
  it('a silent service outlasting the SDK\'s own limit: a configuration hint, ERROR, its own limit (no request limit)', async () => {
    const error = await caseError(callSdk(context(failed('ERR_ADAPTER_TIMEOUT', { limitMs: 3000 }), []), [], { kind: 'silent' }));
    expect(error.message).toMatch(/^ERR_ADAPTER_TIMEOUT: the service held the request unanswered, and the SDK reported nothing within 3000 ms \(timing\.answerDeadlineMs 1000 ms and a grace of 2000 ms for its own time-out\)/);
    expect(error.stated).toEqual({ failure: { code: 'timeout', message: 'no answer line within 1000 ms' } });
  });
});

describe('callSdk: what the service is told, and what the observation keeps', () => {
  it('the reference answer unless the case scripts one; the request line kept without its line end', async () => {
    const scripts: ServiceScript[] = [];
    const o = await callSdk(context({ kind: 'outcome', outcome: 'accepted', line: '{"id":"t1","outcome":"accepted"}' }, [answered], scripts), [['amount', '"1.00"']]);
    expect(scripts).toEqual([{ kind: 'reference' }]);
    expect(o.line).toMatch(/^\{"id":"t1".*\}$/);
    expect(o.answer).toMatchObject({ kind: 'outcome', outcome: 'accepted' });
  });
});
