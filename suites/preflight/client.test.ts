// The client's preflight (harness/preflight/client.ts), rule by rule: one plain call through the
// adapter, answered as the service accepts a collection, and (when a status case runs) one plain
// status query answered SUCCESS. They are the controls of the client's refusal cases (an SDK that
// reports every answer as rejected would pass them all); what they saw of the SDK's requests
// names a cause shared by many cases once (a body that is not JSON, a signer wrong on every
// call, an adapter with no usable answer, a status call the adapter does not know). Against the
// reference SDK in-process with its fault switches, and adapters of the tests' own that crash,
// write garbage or send what no SDK would, in this process too (fixtures/peers.ts).
import { describe, expect, it } from 'vitest';
import { startEmbeddedClient } from '../../harness/embedded/index.ts';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { runChecked, runPreflight } from '../../harness/preflight/index.ts';
import type { ReferenceSdkFault } from '../../harness/reference-sdk/index.ts';
import { acceptsUnsent, collectOnly, garbage, peerTarget, plainTextSdk } from './fixtures/peers.ts';

const WHAT = 'the preflight\'s plain call, answered 200 {"success": true} (accepted)';
const WHAT_STATUS = 'the preflight\'s plain status query, answered 200 {"success": true, "status": "success"} (or "SUCCESS")';

async function preflightWith(faults: ReferenceSdkFault[] | string[], statusQuery?: boolean) {
  const client = await startEmbeddedClient({ faults: faults as ReferenceSdkFault[] });
  try {
    return await runPreflight({ target: client.target, seed: 26, ...(statusQuery !== undefined ? { statusQuery } : {}) });
  } finally {
    await client.close();
  }
}

describe('an SDK that reports the plain call accepted and the plain status SUCCESS: both controls hold', () => {
  it('PASS, nothing found; the status query is made by default', async () => {
    const { preflight, result } = await preflightWith([]);
    expect(result).toMatchObject({ id: 'preflight.client', verdict: 'PASS' });
    // What the adapter's hello said it speaks and wraps, for the report.
    expect(result.evidence?.notes).toEqual([expect.stringMatching(/^the adapter speaks protocol 2 \(supports collect, status; JavaScript \(Node\.js [\d.]+\) collect-conformance reference SDK 1\)$/)]);
    expect(preflight).toEqual({
      side: 'client', findings: [],
      controls: {
        refusal: { state: 'held', what: WHAT, observed: 'the SDK reported it accepted' },
        'status-refusal': { state: 'held', what: WHAT_STATUS, observed: 'the SDK reported status SUCCESS' },
      },
    });
  });
  it('no case of the run queries the status: no status control at all', async () => {
    const { preflight, result } = await preflightWith([], false);
    expect(result.verdict).toBe('PASS');
    expect(Object.keys(preflight.controls)).toEqual(['refusal']);
    expect(preflight.findings).toEqual([]);
  });
});

describe('the collect control: the plain call reported accepted', () => {
  it('an SDK that reports every answer as rejected: the control fails with what the SDK reported; the preflight FAILs naming it', async () => {
    const { preflight, result } = await preflightWith(['success-string-compare']);
    const refusal = preflight.controls.refusal!;
    expect(refusal).toMatchObject({ state: 'failed', what: WHAT });
    expect(refusal.observed).toMatch(/rejected/);
    expect(result).toMatchObject({ verdict: 'FAIL', reason: `${WHAT}: ${refusal.observed}` });
    expect(preflight.findings).toEqual([]);
  });
  it('a body sent as a form: client.body-not-json, named once with the body, instead of a signature cause', async () => {
    const { preflight } = await preflightWith(['form-params']);
    expect(preflight.findings.map((f) => f.id)).toEqual(['client.body-not-json']);
    expect(preflight.findings[0]).toMatchObject({ symptom: { kind: 'stated', cause: 'body-not-json' }, evidence: { exchanges: expect.any(Array) } });
  });
  it('a signer keyed with the wrong credential: client.signature-mismatch, the cause of every signature FAIL', async () => {
    const { preflight } = await preflightWith(['client-key-as-secret']);
    expect(preflight.findings.map((f) => f.id)).toEqual(['client.signature-mismatch']);
    const [finding] = preflight.findings;
    expect(finding).toMatchObject({ symptom: { kind: 'stated', cause: 'not-signed-as-sent' }, evidence: { exchanges: expect.any(Array) } });
    expect(finding!.summary).toMatch(/^on the preflight's plain call \(string amount, six fields\) .+; every call the SDK signs likely goes wrong the same way/);
  });
  it('an Authorization header with the scheme twice: client.authorization-unreadable, not a signature mismatch', async () => {
    const { preflight } = await preflightWith(['authorization-scheme-twice']);
    expect(preflight.findings.map((f) => f.id)).toEqual(['client.authorization-unreadable']);
    expect(preflight.findings[0]).toMatchObject({ symptom: { kind: 'stated', cause: 'authorization-unreadable' }, evidence: { exchanges: expect.any(Array) } });
    expect(preflight.findings[0]!.summary).toMatch(/^the preflight's plain call carried no readable signature: .+; every case that checks the signature FAILs for this one cause/);
  });
  it('fields under the SDK\'s own names (PascalCase): client.fields-missing, naming the keys it sent', async () => {
    const { preflight } = await preflightWith(['fields-pascal-case']);
    const missing = preflight.findings.find((f) => f.id === 'client.fields-missing');
    expect(missing).toMatchObject({ symptom: { kind: 'stated', cause: 'fields-missing' }, evidence: { exchanges: expect.any(Array) } });
    expect(missing!.summary).toMatch(/^the preflight's plain call sent no .*amount.* under the names of §2\.1; its body's keys were .*Amount.*CallbackUrl/);
  });
  it('a body sent as a form: no fields-missing beside body-not-json (its members are not JSON keys)', async () => {
    const { preflight } = await preflightWith(['form-params']);
    expect(preflight.findings.filter((f) => f.id === 'client.fields-missing')).toEqual([]);
  });
  it('a body that is neither JSON nor a form: client.body-not-json alone (no field can be read from it)', async () => {
    const { preflight } = await runPreflight({ target: peerTarget(plainTextSdk), seed: 26, statusQuery: false });
    expect(preflight.findings.map((f) => f.id)).toEqual(['client.body-not-json']);
  });
  it('an adapter that reports an answer without the SDK sending anything: no request to read, so neither cause', async () => {
    const { preflight } = await runPreflight({ target: peerTarget(acceptsUnsent), seed: 26, statusQuery: false });
    expect(preflight.controls.refusal).toMatchObject({ state: 'held', observed: 'the SDK reported it accepted' });
    expect(preflight.findings).toEqual([]);
  });
  it('a correct JSON body signed right: neither cause', async () => {
    const { preflight } = await preflightWith(['uppercase-hex']);
    // Upper-case hex is a signature the service refuses, yet the body is JSON and signed over what was sent.
    expect(preflight.findings.filter((f) => f.id === 'client.body-not-json')).toEqual([]);
  });
});

describe('no usable answer to the plain call: client.adapter-failed, and nothing more is sent', () => {
  it('an adapter that cannot be made (not a typed failure): ERROR, its symptom the very error met', async () => {
    const { preflight, result } = await preflightWith(['no-such-fault-26']);
    const message = 'unknown reference SDK fault(s): no-such-fault-26';
    expect(result).toMatchObject({ verdict: 'ERROR', reason: message });
    expect(preflight.controls).toEqual({
      refusal: { state: 'failed', what: WHAT, observed: `the adapter gave no usable answer (${message})` },
      'status-refusal': { state: 'not-run', what: WHAT_STATUS, observed: 'the plain call got no usable answer, so no status query was sent' },
    });
    expect(preflight.findings).toEqual([{
      id: 'client.adapter-failed', symptom: { kind: 'same-error', reason: message },
      summary: `the adapter gave no usable answer to a plain call (${message}); the cases named here likely fail for the same reason and say nothing yet about the SDK`,
    }]);
    expect(Object.keys((await preflightWith(['no-such-fault-26'], false)).preflight.controls)).toEqual(['refusal']);
  });
  it('an adapter that answers garbage: the finding\'s symptom is its typed failure; the plain call was decisive, so no case is sent after it', async () => {
    const checked = await runChecked({ target: peerTarget(garbage), seed: 26, cases: CLIENT_CASES, only: 'client.collect.method-path' });
    expect(checked.preflight.result.verdict).toBe('ERROR');
    expect(checked.preflight.findings).toMatchObject([{ id: 'client.adapter-failed', symptom: { kind: 'failure', code: 'protocol' } }]);
    expect(checked.results).toMatchObject([{ verdict: 'ERROR', reason: expect.stringMatching(/not sent: the adapter gave no usable answer to the plain call .*\(given up: the rest are not sent\)/), stated: { causes: ['given-up'] } }]);
  });
});

describe('the status control: the plain status query reported SUCCESS (in either letter case)', () => {
  it('an SDK that reads SUCCESS as FAILED: the control fails with both answers; the preflight still PASSes on collect (a position the spec does not state), noting it', async () => {
    const { preflight, result } = await preflightWith(['status-successful-spelling']);
    expect(preflight.controls.refusal?.state).toBe('held');
    const status = preflight.controls['status-refusal']!;
    expect(status).toMatchObject({ state: 'failed', what: WHAT_STATUS });
    expect(status.observed).toMatch(/^the service answered 200 \{"success": true, "status": "success"\}; the SDK reported status FAILED .*; to 200 \{"success": true, "status": "SUCCESS"\} it reported status FAILED/);
    expect(result.verdict).toBe('PASS');
    expect(result.evidence?.notes).toContain(`${WHAT_STATUS}: ${status.observed}`);
    expect(preflight.findings).toEqual([]);
  });
  it('an SDK that reads upper case only: the control holds on the second form asked', async () => {
    const { preflight, result } = await preflightWith(['status-upper-case-only']);
    expect(preflight.controls['status-refusal']).toMatchObject({ state: 'held' });
    expect(result.verdict).toBe('PASS');
  });
  it('an SDK that raises on SUCCESS in both letter cases: the control fails (it declares a status call), never "no status call"', async () => {
    const { preflight, result } = await preflightWith(['status-success-throws']);
    const status = preflight.controls['status-refusal']!;
    expect(status).toMatchObject({ state: 'failed', what: WHAT_STATUS });
    expect(status.observed).toMatch(/the SDK reported an error \(unknown status "SUCCESS".*\); to 200 \{"success": true, "status": "SUCCESS"\} it reported an error/);
    expect(result.verdict).toBe('PASS');
    expect(preflight.findings).toEqual([]);
  });
  it('an SDK with no status call (its hello declares collect only): not run, named once (client.status-not-declared), the preflight PASSes', async () => {
    const { preflight, result } = await preflightWith(['status-not-implemented']);
    expect(result.verdict).toBe('PASS');
    expect(preflight.controls['status-refusal']).toMatchObject({ state: 'not-run', what: WHAT_STATUS, observed: expect.stringMatching(/^the adapter's hello declares "supports": \["collect"\], without "status"/) });
    expect(preflight.findings).toMatchObject([{ id: 'client.status-not-declared', symptom: { kind: 'stated', cause: 'status-not-declared' } }]);
  });
  it('an adapter of protocol 1 (the reference SDK\'s protocol-1 fault): not run, the finding names the line to add, the preflight PASSes', async () => {
    const { preflight, result } = await preflightWith(['protocol-1']);
    expect(result.verdict).toBe('PASS');
    expect(preflight.controls['status-refusal']?.state).toBe('not-run');
    expect(preflight.findings[0]!.summary).toMatch(/^not judged on status: the adapter speaks protocol 1 \(it answered the hello with .*\(an error\)\).*"supports": \["collect", "status"\]/);
  });
  it('an adapter written before "op": "status" and the hello (it crashes on the hello): restarted, protocol 1, not judged on status; the preflight PASSes', async () => {
    const { preflight, result } = await runPreflight({ target: peerTarget(collectOnly), seed: 26 });
    expect(preflight.controls.refusal?.state).toBe('held');
    expect(preflight.controls['status-refusal']).toMatchObject({ state: 'not-run', observed: expect.stringMatching(/^the adapter speaks protocol 1 \(it threw TypeError: .* on the hello\)/) });
    expect(preflight.findings).toMatchObject([{ id: 'client.status-not-declared' }]);
    expect(result.verdict).toBe('PASS');
  });
});
