// Issue 22, points 2 and 3: an SDK that keeps its caller waiting, and one whose own time limit
// is the target file's deadline.
// - An SDK whose promise settles only on success and a few errors (never-settling-adapter.mjs):
//   a call the service answered and the SDK never reported is that case's finding, named once
//   as a shared cause when it repeats on refusals; the adapter is restarted and every other case
//   is still sent (the real fault, extra fields signed out, is caught); the run gives up only
//   when the plain call itself gets no answer (suites/client/no-answer.test.ts).
// - A correct SDK whose time limit equals answerDeadlineMs: client.answers.no-answer waits a
//   stated grace beyond the deadline for the SDK's own time-out, so it PASSes; an SDK with no
//   limit at all (this one) is an ERROR worded as a configuration hint, not a finding (both in
//   no-answer.test.ts).
// One run in this file (in this process): its verdicts rest on each call's deadline, so no other
// run shares its process. The same SDK's four number cases are unreported-numbers.test.ts, and
// its client.answers.no-answer no-answer.test.ts: split from this run so that the deadlines of
// the three are waited out side by side, on three workers.
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { diagnose } from '../../harness/diagnoses/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { CLIENT_RUN_TIMEOUT, verdicts } from './run-client.ts';
import { NUMBER_CASES, refusalsUnreported, runNeverSettling } from './never-settling.ts';

/** Every client case but the four numbers and no-answer. */
const CASES = CLIENT_CASES.map((c) => c.id).filter((id) => !NUMBER_CASES.includes(id) && id !== 'client.answers.no-answer');
/** The calls the service refuses and this SDK never reports (besides the numbers): success: false, an unknown error code, a 503. */
const UNREPORTED = ['client.answers.success-false', 'client.answers.error-code', 'client.answers.server-error'];

describe('an SDK that never settles on a refusal: each hang its case\'s finding, the run goes on', () => {
  it('the hangs FAIL (WARN on SHOULD cases) with what was seen, every case is sent, the unsigned extra fields are caught, one shared cause names the hangs', CLIENT_RUN_TIMEOUT, async () => {
    const { run, deadlineMs, reason } = await runNeverSettling(CASES);
    expect(run.code).toBe(1);
    // The client has no status call: its status cases are not exercised.
    const expected: Record<string, string> = Object.fromEntries(CASES.map((id) => [id, id.startsWith('client.status.') ? 'SKIP' : 'PASS']));
    Object.assign(expected, {
      'client.collect.extra-fields': 'FAIL',
      'client.answers.success-false': 'WARN',
      'client.answers.error-code': 'WARN',
      'client.answers.server-error': 'FAIL',
    });
    expect(verdicts(run), run.stdout).toEqual(expected);
    expect(reason('client.answers.server-error')).toMatch(/^the SDK reported nothing after the service refused in \d+ ms \(HTTP 503 <html><body>503 Service Unavailable<\/body><\/html>\): nothing within \d+ ms/);
    expect(reason('client.answers.server-error')).toContain(`: nothing within ${deadlineMs} ms`);
    expect(reason('client.answers.success-false')).toMatch(/^the SDK reported nothing after the service refused in \d+ ms \(HTTP 200 \{"success":false,"message":"Insufficient balance"\}\)/);
    expect(reason('client.answers.error-code')).toMatch(/^the SDK reported nothing after the service refused in \d+ ms \(HTTP 200 \{.*\): nothing within \d+ ms/);
    // The real fault the run reaches now: the extra fields sent but not signed, said so.
    expect(reason('client.collect.extra-fields')).toContain('it is the signature over the six fields of §2.1 alone: it left out `Reference`, `note`, which the body carries');
    // One shared cause, named once (three cases state it: two are enough); nothing given up, nothing blamed on slowness.
    // Beside it, the SKIPped status cases of this protocol-1 adapter, named once with the line to add (issue 37).
    expect(run.report!.diagnoses?.map((d) => d.id), run.stdout).toEqual(['client.status-not-declared', 'client.refusals-unreported']);
    const cause = refusalsUnreported(run)!;
    expect(cause.cases).toEqual([...UNREPORTED].sort());
    expect(cause.summary).toMatch(/^on 3 client calls the SDK reported nothing after the service refused \(the first: client\.answers\.success-false: .*\): likely it settles \(resolves, rejects, calls back\) only on success and some errors/);
    expect(run.stdout).not.toMatch(/given up|answers slowly/);
  });
});

describe('adapter time-outs with no request sent are not blamed on load', () => {
  it('three client calls that timed out before any request: "stuck before sending", not "--concurrency 1"', () => {
    const results: CaseResult[] = ['a', 'b', 'c'].map((leaf) => ({
      id: `client.collect.${leaf}`, title: leaf, level: 'MUST', specRef: '§4.1', verdict: 'ERROR', durationMs: 2000,
      reason: 'ERR_ADAPTER_TIMEOUT: no answer within 2000 ms; the adapter was killed and is restarted for the next request',
      // The diagnoses read the typed failure, never the words.
      stated: { failure: { code: 'timeout', message: 'no answer within 2000 ms; the adapter was killed and is restarted for the next request', limitMs: 2000 } },
    }));
    const [cause] = diagnose([{ preflight: { side: 'client', controls: {}, findings: [] }, results }]);
    expect(cause?.id).toBe('client.answers-timed-out');
    expect(cause?.summary).toContain('no request of theirs reached the service, so likely the SDK or its adapter is stuck before sending on these calls');
    expect(cause?.summary).not.toMatch(/concurrency|answers slowly/);
  });
});
