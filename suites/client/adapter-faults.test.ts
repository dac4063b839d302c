// DESIGN.md "Client SDKs": the adapter's own faults (crash, hang, garbage, an answer for another
// id) are ERROR with the reason, and the run goes on (the adapter is restarted). Secrets the
// adapter echoes are redacted. The run in this process (runClientHere), the adapter a child
// process; one run in this file (its verdicts rest on each call's deadline): an adapter that
// crashes several times in a row is adapter-crashes.test.ts, a command that cannot start (exit
// status 3) adapter-start.test.ts.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_RUN_TIMEOUT, runClientHere, scaledDeadlineMs, targetFile, verdicts } from './run-client.ts';

/** The misbehaving adapter's deadline, waited out on its hang (4 s before it was scaled). */
const DEADLINE_CEILING_MS = 4000;

describe('an adapter that crashes, hangs, writes garbage or answers another id: ERROR with the reason, the run goes on', () => {
  it('each misbehaviour is ERROR on its case, every other case PASSes, and no secret reaches the output', CLIENT_RUN_TIMEOUT, async () => {
    const leak = join(mkdtempSync(join(tmpdir(), 'cc-leak-')), 'credentials.jsonl');
    const deadlineMs = await scaledDeadlineMs(DEADLINE_CEILING_MS);
    const run = await runClientHere(targetFile({ side: 'client', command: `LEAK_FILE=${leak} node suites/client/fixtures/misbehaving-adapter.mjs`, timing: { answerDeadlineMs: deadlineMs } }));
    expect(run.code).toBe(1);
    const expectedErrors: Record<string, RegExp> = {
      'client.collect.callback-url-literal': /ERR_ADAPTER_PROTOCOL: the line is not JSON: "Traceback/,
      'client.collect.number-whole-float': /ERR_ADAPTER_CRASHED: the adapter exited with (status|code) 3/,
      'client.collect.number-exponent': /ERR_ADAPTER_PROTOCOL: answer for id "someone-else"/,
      'client.collect.extra-fields': new RegExp(`ERR_ADAPTER_TIMEOUT: no answer within ${deadlineMs} ms`),
    };
    const got = verdicts(run);
    // A case that differs says why (its reason).
    const reasonOf = (id: string) => run.report!.cases.find((c) => c.id === id)?.reason ?? '';
    for (const [id, verdict] of Object.entries(got)) expect(`${id} ${verdict}`, reasonOf(id)).toBe(`${id} ${id in expectedErrors ? 'ERROR' : 'PASS'}`);
    for (const [id, pattern] of Object.entries(expectedErrors)) expect(run.report!.cases.find((c) => c.id === id)!.reason, id).toMatch(pattern);
    const secrets = readFileSync(leak, 'utf8').trim().split('\n').flatMap((l) => {
      const c = JSON.parse(l) as { clientKey: string; secretKey: string };
      return [c.clientKey, c.secretKey];
    });
    expect(secrets.length).toBeGreaterThan(0);
    const outputs = [run.stdout, run.stderr, ...readdirSync(run.reportDir).map((f) => readFileSync(join(run.reportDir, f), 'utf8'))].join('\n');
    for (const secret of new Set(secrets)) expect(outputs.includes(secret), 'a secret in the output').toBe(false);
    // The echoed secret was there, redacted.
    expect(run.report!.cases.find((c) => c.id === 'client.answers.client-error')!.evidence!.adapter).toMatchObject({ answered: expect.stringContaining('[REDACTED]') });
  });
});
