// DESIGN.md "Client SDKs", issue 22: an adapter that crashes on some input, several times in a
// row: each crash its case's ERROR after a restart, never "right after starting", and no give-up
// but on the plain call. The run in this process (runClientHere), the adapter a child process;
// one run in this file (its verdicts rest on each call's deadline).
import { describe, expect, it } from 'vitest';
import { CLIENT_RUN_TIMEOUT, runClientHere, scaledDeadlineMs, targetFile, verdicts } from './run-client.ts';

describe('an adapter that crashes on some input, several times in a row: each crash its case\'s ERROR, the run goes on', () => {
  it('each crash after a restart is ERR_ADAPTER_CRASHED (it did start: it answered before), never "right after starting"; every other case is still sent and PASSes (issue 22: no give-up but on the plain call)', CLIENT_RUN_TIMEOUT, async () => {
    const run = await runClientHere(targetFile({ side: 'client', command: 'CRASH_ON_NUMBER=1 node suites/client/fixtures/misbehaving-adapter.mjs', timing: { answerDeadlineMs: await scaledDeadlineMs(4000) } }));
    expect(run.code).toBe(1);
    const reasons = run.report!.cases.filter((c) => c.verdict === 'ERROR').map((c) => `${c.id}: ${c.reason ?? ''}`);
    expect(reasons.join('\n')).not.toMatch(/ERR_ADAPTER_START|right after starting|not sent/);
    const numberCases = ['client.collect.number-whole-float', 'client.collect.number-float-noise', 'client.collect.number-exponent', 'client.collect.number-large-integer'];
    // Its other misbehaviours stay: garbage on the callback URL case, a hang on the extra fields.
    const errors = [...numberCases, 'client.collect.callback-url-literal', 'client.collect.extra-fields'];
    // A case that differs says why (its reason: a time-out on a loaded machine reads otherwise than a crash).
    const reasonOf = (id: string) => run.report!.cases.find((c) => c.id === id)?.reason ?? '';
    for (const [id, verdict] of Object.entries(verdicts(run))) expect(`${id} ${verdict}`, reasonOf(id)).toBe(`${id} ${errors.includes(id) ? 'ERROR' : 'PASS'}`);
    for (const reason of reasons.filter((r) => numberCases.some((id) => r.startsWith(`${id}:`)))) {
      expect(reason).toMatch(/ERR_ADAPTER_CRASHED: the adapter exited with (status|code) 3 while handling this request, after \d+ answers? since its restart \(\d+ in this run\)/);
    }
    expect(run.report!.diagnoses?.map((d) => d.id) ?? []).not.toContain('client.given-up');
  });
});
