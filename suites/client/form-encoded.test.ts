// Issue 22, point 1: an SDK that sends a form-encoded body (a Laravel SDK with Guzzle's
// `form_params`: application/x-www-form-urlencoded, the right path, header and key). Each
// client.collect rule is judged on what it needs: the method, the path, the Authorization header
// and the secret's absence need no JSON, and hold; Content-Type FAILs quoting the type sent; the
// rules that read JSON types or the §5.1 signature FAIL in shared words, one shared cause named
// first with the body quoted; the signature cases say what the signature was computed over.
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES, readSentBody } from '../../harness/cases/index.ts';
import type { ReceivedRequest } from '../../harness/sdk/index.ts';
import { describeNeeding } from '../support/programs.ts';
import { CLIENT_RUN_TIMEOUT, runClientHere, targetFile, verdicts } from './run-client.ts';

const NUMBER_CASES = ['client.collect.number-whole-float', 'client.collect.number-float-noise', 'client.collect.number-exponent', 'client.collect.number-large-integer'];
const SIGNATURE_CASES = ['client.collect.signature', 'client.collect.callback-url-literal', 'client.collect.field-order', ...NUMBER_CASES, 'client.collect.extra-fields'];
/** The rules that read the body as JSON: its types, or the §5.1 signature over it. */
const NEEDS_JSON = ['client.collect.amount-string', 'client.collect.customer-number-zeros', 'client.collect.client-id-integer', ...SIGNATURE_CASES];

describeNeeding(['php'], 'a PHP SDK that posts a form (suites/client/fixtures/php/form-adapter.php)', () => {
  it('each rule judged on what it needs; one shared cause first, the body quoted; the signature cases say what was signed', CLIENT_RUN_TIMEOUT, async () => {
    const run = await runClientHere(targetFile({ side: 'client', command: 'php suites/client/fixtures/php/form-adapter.php', timing: { answerDeadlineMs: 5000 } }));
    expect(run.code).toBe(1);
    const failing = ['client.collect.content-type', ...NEEDS_JSON];
    expect(verdicts(run), run.stdout).toEqual(Object.fromEntries(CLIENT_CASES.map((c) => [c.id, failing.includes(c.id) ? 'FAIL' : c.id.startsWith('client.status.') ? 'SKIP' : 'PASS'])));
    const reason = (id: string) => run.report!.cases.find((c) => c.id === id)!.reason!;
    // The type sent, quoted.
    expect(reason('client.collect.content-type')).toMatch(/^Content-Type was "application\/x-www-form-urlencoded"; a JSON body is sent as application\/json/);
    for (const id of ['client.collect.amount-string', 'client.collect.customer-number-zeros', 'client.collect.client-id-integer']) {
      expect(reason(id), id).toBe('the body sent is not JSON: it is a form of key=value pairs (Content-Type: application/x-www-form-urlencoded); this rule reads the JSON body of §4.1');
    }
    // What the signature was computed over: the form's pairs, sorted, joined as key=value.
    for (const id of SIGNATURE_CASES) {
      expect(reason(id), id).toContain('the body sent is not JSON: it is a form of key=value pairs (Content-Type: application/x-www-form-urlencoded), which §5.1\'s message (over a JSON body) cannot be made from; '
        + 'the signature is the one over the form\'s pairs (each value decoded), sorted by key and joined as key=value: `');
    }
    expect(reason('client.collect.signature')).toMatch(/joined as key=value: `amount=1\.00&callback_url=http:\/\/127\.0\.0\.1:\d+\/callbacks\/[^&]+&client_id=2&customer_number=0244000001&network_code=MTN&transaction_id=/);
    expect(reason('client.collect.extra-fields')).toMatch(/joined as key=value: `Reference=INV-7&amount=1\.00&/);
    // One shared cause, first, the body quoted as sent; it explains every FAIL.
    const [cause, ...others] = run.report!.diagnoses ?? [];
    // Besides it, only the protocol-1 adapter's SKIPped status cases, named once with the line to add (issue 37).
    expect(others.map((d) => d.id)).toEqual(['client.status-not-declared']);
    expect(cause?.id).toBe('client.body-not-json');
    expect(cause?.summary).toMatch(/^the SDK sends `application\/x-www-form-urlencoded`, not JSON: the plain call's body was `amount=1\.00&callback_url=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallbacks%2F[^&]+&client_id=2&customer_number=0244000001&network_code=MTN&transaction_id=[^`]+` \(§4, §4\.1: a JSON body, Content-Type: application\/json\)/);
    expect([...cause!.cases].sort()).toEqual([...failing].sort());
    expect(run.stdout).toMatch(/Shared causes:\n {2}1\. the SDK sends `application\/x-www-form-urlencoded`, not JSON/);
    // The rules that held say nothing of JSON.
    expect(run.report!.cases.filter((c) => c.verdict === 'PASS').every((c) => c.reason === undefined)).toBe(true);
  });
}, { concurrent: true });

function received(body: string, contentType?: string): ReceivedRequest {
  return {
    atMs: 0, method: 'POST', target: '/api/v1.0/collect/', headers: contentType ? { 'content-type': [contentType] } : {},
    rawHeaders: [], body: Buffer.from(body), bodyTruncated: false,
  };
}

describe('reading the body an SDK sent', () => {
  it('a JSON object is JSON, whatever the Content-Type says', () => {
    expect(readSentBody(received('{"amount":"1.00"}', 'text/plain')).kind).toBe('json');
  });
  it('a form is a form by its Content-Type or by its syntax; its pairs decoded (+ and %XX), in order', () => {
    const form = readSentBody(received('b=x+y&a=caf%C3%A9&c=', 'application/x-www-form-urlencoded; charset=UTF-8'));
    expect(form).toMatchObject({ kind: 'form', pairs: [['b', 'x y'], ['a', 'café'], ['c', '']] });
    expect(readSentBody(received('amount=1.00&client_id=2', 'application/json')).kind).toBe('form');
  });
  it('anything else is neither, with the parse error', () => {
    expect(readSentBody(received('amount: 1.00', 'text/plain'))).toMatchObject({ kind: 'unreadable', contentType: 'text/plain' });
  });
});
