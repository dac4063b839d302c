// client.status (§4.2) with adapters as they are found: one written before "op": "status"
// existed crashes on a status request; its status cases are not judged (ERROR), the cause is
// named once, and its collect cases run as before. (An adapter that answers error to every status
// request, an SDK without a status call, is SKIP: the PHP adapter of example-adapters.test.ts and
// the reference SDK's status-not-implemented fault show it.)
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { runClient, targetFile, verdicts } from './run-client.ts';

const STATUS_CASES = CLIENT_CASES.filter((c) => c.id.startsWith('client.status.')).map((c) => c.id);

describe.concurrent('an adapter that crashes on "op": "status" (written before it)', () => {
  it('its status cases are ERROR under one shared cause (client.status-call-failed), sent once; every other case PASSes', async () => {
    const run = await runClient(targetFile({ side: 'client', command: 'node suites/client/fixtures/collect-only-adapter.mjs', timing: { answerDeadlineMs: 4000 } }));
    expect(run.code, run.stdout).toBe(1);
    expect(verdicts(run)).toEqual(Object.fromEntries(CLIENT_CASES.map((c) => [c.id, STATUS_CASES.includes(c.id) ? 'ERROR' : 'PASS'])));
    // Crashed on the plain status query: ERR_ADAPTER_CRASHED, or ERR_ADAPTER_START when that was
    // the first request the adapter got (the driver cannot tell a crash on it from a failed start).
    for (const c of run.report!.cases.filter((x) => STATUS_CASES.includes(x.id))) {
      expect(c.reason, c.id).toMatch(/^the adapter gave no usable answer to a plain status call \(ERR_ADAPTER_(CRASHED|START): .*\): likely it does not know "op": "status"/);
      // Not sent: only the plain status query met the crash.
      expect((c.evidence as { adapter?: unknown } | undefined)?.adapter, c.id).toBeUndefined();
    }
    const cause = run.report!.diagnoses?.find((d) => d.id === 'client.status-call-failed');
    expect(cause?.summary).toMatch(/^the adapter gave no usable answer to a plain status call \(ERR_ADAPTER_(CRASHED|START)/);
    expect([...cause!.cases].sort()).toEqual([...STATUS_CASES].sort());
    expect(run.stdout).toMatch(/^FAIL  preflight\.client .*the preflight's plain status query/m);
  });
});
