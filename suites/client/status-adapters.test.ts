// client.status (§4.2) with adapters as they are found: one written before "op": "status" and the
// hello existed crashes on both. It is protocol 1 (the hello it crashed on says so, and it is
// restarted transparently): never sent a status request, its status cases SKIP naming the line to
// add, once, and its collect cases and exit status are what they were (issue 37).
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { CLIENT_RUN_TIMEOUT, runClientHere, targetFile, verdicts } from './run-client.ts';

const STATUS_CASES = CLIENT_CASES.filter((c) => c.id.startsWith('client.status.')).map((c) => c.id);

describe.concurrent('a version-1 adapter around a correct SDK (it crashes on the hello and on "op": "status")', () => {
  it('exits 0: every collect case PASSes, the status cases SKIP naming the upgrade, one shared cause', CLIENT_RUN_TIMEOUT, async () => {
    const run = await runClientHere(targetFile({ side: 'client', command: 'node suites/client/fixtures/collect-only-adapter.mjs', timing: { answerDeadlineMs: 4000 } }));
    expect(run.code, run.stdout).toBe(0);
    expect(verdicts(run)).toEqual(Object.fromEntries(CLIENT_CASES.map((c) => [c.id, STATUS_CASES.includes(c.id) ? 'SKIP' : 'PASS'])));
    for (const c of run.report!.cases.filter((x) => STATUS_CASES.includes(x.id))) {
      expect(c.reason, c.id).toMatch(/^not exercised: the adapter speaks protocol 1 \(it exited with code 1 on the hello\), so it is never sent "op": "status".*"supports": \["collect", "status"\]/);
    }
    const cause = run.report!.diagnoses?.find((d) => d.id === 'client.status-not-declared');
    expect([...cause!.cases].sort()).toEqual([...STATUS_CASES].sort());
    expect(run.stdout).toMatch(/^PASS  preflight\.client /m);
  });
});
