// Issue 22, point 2, the number cases: an SDK whose promise settles only on success and a few
// errors (fixtures/never-settling-adapter.mjs) never reports the service's 400 to a JSON number
// amount. Each such call is its case's finding (FAIL, what was seen), the adapter is restarted
// and the next call still sent, and the four are named once as a shared cause. The answers
// cases of the same SDK, and its extra fields signed out, are unreported-answers.test.ts (split
// from it so that the two runs' deadlines are waited out side by side).
import { describe, expect, it } from 'vitest';
import { CLIENT_RUN_TIMEOUT, verdicts } from './run-client.ts';
import { NUMBER_CASES, refusalsUnreported, runNeverSettling } from './never-settling.ts';

describe('an SDK that never settles on a refusal: the four refused numbers, each its case\'s finding', () => {
  it('each number case FAILs with what was seen after a restart, and one shared cause names the four', CLIENT_RUN_TIMEOUT, async () => {
    const { run, deadlineMs, reason } = await runNeverSettling(NUMBER_CASES);
    expect(run.code).toBe(1);
    expect(verdicts(run), run.stdout).toEqual(Object.fromEntries(NUMBER_CASES.map((id) => [id, 'FAIL'])));
    for (const id of NUMBER_CASES) {
      // Each request reached the service (held its rule) and was refused: sent after the restart that ended the hang before it.
      expect(reason(id), id).toMatch(/^the SDK reported nothing after the service refused in \d+ ms \(HTTP 400 \{"success":false,"error_code":"INVALID_FIELD","error_message":"amount must be a .*\): nothing within \d+ ms, so its caller would wait for ever \(the request itself held this rule\)$/);
      expect(reason(id), id).toContain(`: nothing within ${deadlineMs} ms, so its caller`);
    }
    // Four cases state the cause (two are enough to name it): named once, nothing else.
    expect(run.report!.diagnoses?.map((d) => d.id), run.stdout).toEqual(['client.refusals-unreported']);
    const cause = refusalsUnreported(run)!;
    expect(cause.cases).toEqual([...NUMBER_CASES].sort());
    expect(cause.summary).toMatch(/^on 4 client calls the SDK reported nothing after the service refused \(the first: client\.collect\.number-whole-float: .*\): likely it settles \(resolves, rejects, calls back\) only on success and some errors/);
    expect(run.stdout).not.toMatch(/given up|answers slowly/);
  });
});
