// The client's status control (harness/preflight/client.ts) when the plain status query gets no
// usable answer: an adapter whose hello declares "status" yet crashes on a status request is named
// once (client.status-call-failed), the status cases' one cause; the preflight still rests on
// collect alone. Beside it, an SDK that kept its caller waiting on the plain call: the run gives
// up on the adapter, no status query is sent, so none failed and no such cause is named.
// Against adapters of the tests' own in this process (fixtures/peers.ts: the adapter's process is
// not what is tested here; a command that crashes: suites/client/adapter-crashes.test.ts).
import { describe, expect, it } from 'vitest';
import { runPreflight } from '../../harness/preflight/index.ts';
import { peerTarget, statusMisfit } from './fixtures/peers.ts';

const WHAT = 'the preflight\'s plain call, answered 200 {"success": true} (accepted)';
const WHAT_STATUS = 'the preflight\'s plain status query, answered 200 {"success": true, "status": "success"} (or "SUCCESS")';

/** The misfit adapter in `mode`; `answerDeadlineMs` its time limit per call. */
const misfit = (mode: 'crash-on-status' | 'hang-on-collect', answerDeadlineMs: number) => peerTarget(statusMisfit(mode), answerDeadlineMs);

describe('client.status-call-failed: the hello declares "status", the plain status query gets no usable answer', () => {
  it('an adapter that crashes on a status request: the status control fails naming the crash, one stated cause; the preflight PASSes on collect, noting both', async () => {
    const { preflight, result } = await runPreflight({ target: misfit('crash-on-status', 4000), seed: 26 });
    expect(preflight.controls.refusal).toEqual({ state: 'held', what: WHAT, observed: 'the SDK reported it accepted' });
    const status = preflight.controls['status-refusal']!;
    expect(status).toEqual({ state: 'failed', what: WHAT_STATUS, observed: expect.stringMatching(/^the adapter gave no usable answer \(ERR_ADAPTER_CRASHED: the adapter threw TypeError: client\.getStatus is not a function while handling this request/) });
    const reason = status.observed.slice('the adapter gave no usable answer ('.length, -1);
    expect(preflight.findings).toEqual([{
      id: 'client.status-call-failed',
      summary: `the adapter gave no usable answer to a plain status call (${reason}), though its hello declares "status"; the client.status cases named here share this cause and say nothing yet about the SDK`,
      symptom: { kind: 'stated', cause: 'status-call-failed' },
    }]);
    // The status query's shape is the suite's position: it never fails the preflight, it is noted.
    expect(result.verdict).toBe('PASS');
    expect(result.evidence?.notes).toEqual([
      'the adapter speaks protocol 2 (supports collect, status; status-misfit-adapter (crash-on-status))',
      `${WHAT_STATUS}: ${status.observed}`,
    ]);
    expect(result.evidence?.exchanges).toEqual(expect.any(Array));
  });
});

describe('no status query after a plain call the SDK never answered: not run, no status cause', () => {
  it('an SDK that sends the collect and never reports: the collect control fails (FAIL), the run gives up on the adapter, the status control is not run and nothing is found', async () => {
    const { preflight, result } = await runPreflight({ target: misfit('hang-on-collect', 1000), seed: 26 });
    expect(preflight.controls.refusal).toMatchObject({ state: 'failed', what: WHAT, observed: expect.stringMatching(/^the SDK reported nothing after the service accepted in \d+ ms \(HTTP 200 .*\): nothing within 1000 ms, so its caller would wait for ever$/) });
    expect(preflight.controls['status-refusal']).toEqual({ state: 'not-run', what: WHAT_STATUS, observed: 'the plain call got no usable answer, so no status query was sent' });
    // Not client.status-call-failed: no status call was made, and the status cases state the run's given-up cause.
    expect(preflight.findings).toEqual([]);
    expect(result).toMatchObject({ verdict: 'FAIL', reason: `${WHAT}: ${preflight.controls.refusal!.observed}` });
  });
});
