// Issue 22, points 2 and 3, the calls that get no answer at all (split from
// unreported-answers.test.ts, so that each file's runs have a worker's process to themselves):
// - the plain call, which every case rests on, unanswered by an SDK that settles nothing: the
//   preflight names it, the run gives up after that one deadline and sends nothing more;
// - client.answers.no-answer against a correct SDK whose own time limit equals answerDeadlineMs:
//   the case waits a stated grace beyond the deadline for the SDK's own time-out, so it PASSes;
//   against an SDK with no time limit at all (never-settling-adapter.mjs), it is an ERROR worded
//   as a configuration hint, not a finding.
// The three runs at once: each verdict rests on one deadline, scaled to this machine's start-up
// (the never-settling SDK's) or given a margin of the 2 s grace (the SDK's own time-out), and
// none on how long the others take.
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES, noAnswerGraceMs } from '../../harness/cases/index.ts';
import { CLIENT_RUN_TIMEOUT, runClientHere, scaledDeadlineMs, targetFile, verdicts } from './run-client.ts';
import { NEVER_SETTLING, runNeverSettling } from './never-settling.ts';

describe.concurrent('an SDK that settles nothing at all: the run gives up after the plain call', () => {
  it('when the plain call itself gets no answer (it settles nothing at all): the preflight names it, no other call is sent (client.given-up), one deadline spent', CLIENT_RUN_TIMEOUT, async () => {
    const deadlineMs = await scaledDeadlineMs(2000);
    const started = performance.now();
    const run = await runClientHere(targetFile({ side: 'client', command: `NEVER_SETTLES=always ${NEVER_SETTLING}`, timing: { answerDeadlineMs: deadlineMs } }));
    expect(run.code).toBe(1);
    expect(Object.values(verdicts(run)).every((v) => v === 'ERROR')).toBe(true);
    expect(run.stdout).toMatch(/^FAIL {2}preflight\.client {2}\d+ ms {2}the preflight's plain call, answered 200 \{"success": true\} \(accepted\): the SDK reported nothing after the service accepted in \d+ ms/m);
    const cause = run.report!.diagnoses?.find((d) => d.id === 'client.given-up');
    expect(cause?.cases.length).toBe(CLIENT_CASES.length);
    expect(cause?.summary).toMatch(new RegExp(`^${CLIENT_CASES.length} client cases were not sent, so their rules were not exercised: the adapter gave no usable answer to the plain call \\(string amount, six fields, answered as accepted\\) \\(given up: the rest are not sent\\): timeout: no answer within ${deadlineMs} ms; the adapter was killed$`));
    // One deadline (the plain call's), not one per case (which would take at least CLIENT_CASES.length deadlines, the rest of the run aside).
    expect(performance.now() - started).toBeLessThan(CLIENT_CASES.length * deadlineMs);
  });
});

describe.concurrent('a correct SDK whose own time limit is the deadline: client.answers.no-answer waits a stated grace for its time-out', () => {
  it(`the grace: a quarter of answerDeadlineMs, at least 2 s (10 s → ${noAnswerGraceMs(10_000)} ms)`, () => {
    expect(noAnswerGraceMs(1500)).toBe(2000);
    expect(noAnswerGraceMs(10_000)).toBe(2500);
    expect(noAnswerGraceMs(60_000)).toBe(15_000);
  });
  it('time scaled: the example Node SDK with a 1500 ms limit against answerDeadlineMs 1500: PASS, the SDK\'s own time-out reported', CLIENT_RUN_TIMEOUT, async () => {
    const run = await runClientHere(
      targetFile({ side: 'client', command: 'COLLECT_SDK_TIMEOUT_MS=1500 node examples/sdk-adapters/node/adapter.mjs', timing: { answerDeadlineMs: 1500 } }),
      { only: 'client.answers.no-answer' },
    );
    expect(run.code, run.stdout).toBe(0);
    expect(verdicts(run)).toEqual({ 'client.answers.no-answer': 'PASS' });
  });
  it('an SDK with no time limit of its own (it never settles): ERROR after the deadline and the grace, worded as a configuration hint, not a finding', CLIENT_RUN_TIMEOUT, async () => {
    const { run, deadlineMs, reason } = await runNeverSettling(['client.answers.no-answer']);
    const graceMs = noAnswerGraceMs(deadlineMs);
    expect(verdicts(run), run.stdout).toEqual({ 'client.answers.no-answer': 'ERROR' });
    expect(reason('client.answers.no-answer')).toMatch(/^ERR_ADAPTER_TIMEOUT: the service held the request unanswered, and the SDK reported nothing within \d+ ms \(timing\.answerDeadlineMs \d+ ms and a grace of \d+ ms for its own time-out\); the adapter was stopped\. A configuration hint, not a finding: /);
    expect(reason('client.answers.no-answer')).toContain(`within ${deadlineMs + graceMs} ms (timing.answerDeadlineMs ${deadlineMs} ms and a grace of ${graceMs} ms for`);
    // A hint, not a shared cause of findings: nothing given up, nothing blamed on slowness.
    expect(run.report!.diagnoses ?? []).toEqual([]);
    expect(run.stdout).not.toMatch(/given up|answers slowly/);
  });
  // At full scale, the documented target file with the SDK's limit at 10 s: suites/client/documented-deadline.test.ts (end-to-end tier).
});
