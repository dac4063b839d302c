// DESIGN.md "Client SDKs": the adapter's own faults (crash, hang, garbage, an answer for another
// id) are ERROR with the reason, and the run goes on (the adapter is restarted); a command that
// cannot start ends the run with exit 3. Secrets the adapter echoes are redacted.
// The run in this process (runClientHere), the adapters child processes; the command itself
// (runClient) where its exit status 3 is the subject.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaledAnswerLimitMs } from '../support/start-up.ts';
import { runClient, runClientHere, targetFile, verdicts } from './run-client.ts';

const misbehaving = (env: string) => `${env} node suites/client/fixtures/misbehaving-adapter.mjs`;
/**
 * The misbehaving adapter's deadline, waited out on its hang: four times this machine's present
 * start-up of Node (a restarted adapter's start-up counts within its next call's deadline), at
 * least 1 s, at most the 4 s it was before it was scaled.
 */
const scaledDeadlineMs = () => scaledAnswerLimitMs({ floorMs: 1000, ceilingMs: 4000 });
/** A whole client run's backstop: the runs of this file share this process, and a loaded machine's (load 16) took over 30 s. */
const RUN_TIMEOUT = { timeout: 120_000 };

describe.concurrent('an adapter that crashes, hangs, writes garbage or answers another id: ERROR with the reason, the run goes on', () => {
  it('each misbehaviour is ERROR on its case, every other case PASSes, and no secret reaches the output', RUN_TIMEOUT, async () => {
    const leak = join(mkdtempSync(join(tmpdir(), 'cc-leak-')), 'credentials.jsonl');
    const deadlineMs = await scaledDeadlineMs();
    const run = await runClientHere(targetFile({ side: 'client', command: misbehaving(`LEAK_FILE=${leak}`), timing: { answerDeadlineMs: deadlineMs } }));
    expect(run.code).toBe(1);
    const expectedErrors: Record<string, RegExp> = {
      'client.collect.callback-url-literal': /ERR_ADAPTER_PROTOCOL: the line is not JSON: "Traceback/,
      'client.collect.number-whole-float': /ERR_ADAPTER_CRASHED: the adapter exited with (status|code) 3/,
      'client.collect.number-exponent': /ERR_ADAPTER_PROTOCOL: answer for id "someone-else"/,
      'client.collect.extra-fields': new RegExp(`ERR_ADAPTER_TIMEOUT: no answer within ${deadlineMs} ms`),
    };
    const got = verdicts(run);
    for (const [id, verdict] of Object.entries(got)) expect(`${id} ${verdict}`).toBe(`${id} ${id in expectedErrors ? 'ERROR' : 'PASS'}`);
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

describe.concurrent('an adapter that crashes on some input, several times in a row: each crash its case\'s ERROR, the run goes on', () => {
  it('each crash after a restart is ERR_ADAPTER_CRASHED (it did start: it answered before), never "right after starting"; every other case is still sent and PASSes (issue 22: no give-up but on the plain call)', RUN_TIMEOUT, async () => {
    const run = await runClientHere(targetFile({ side: 'client', command: misbehaving('CRASH_ON_NUMBER=1'), timing: { answerDeadlineMs: await scaledDeadlineMs() } }));
    expect(run.code).toBe(1);
    const reasons = run.report!.cases.filter((c) => c.verdict === 'ERROR').map((c) => `${c.id}: ${c.reason ?? ''}`);
    expect(reasons.join('\n')).not.toMatch(/ERR_ADAPTER_START|right after starting|not sent/);
    const numberCases = ['client.collect.number-whole-float', 'client.collect.number-float-noise', 'client.collect.number-exponent', 'client.collect.number-large-integer'];
    // Its other misbehaviours stay: garbage on the callback URL case, a hang on the extra fields.
    const errors = [...numberCases, 'client.collect.callback-url-literal', 'client.collect.extra-fields'];
    for (const [id, verdict] of Object.entries(verdicts(run))) expect(`${id} ${verdict}`).toBe(`${id} ${errors.includes(id) ? 'ERROR' : 'PASS'}`);
    for (const reason of reasons.filter((r) => numberCases.some((id) => r.startsWith(`${id}:`)))) {
      expect(reason).toMatch(/ERR_ADAPTER_CRASHED: the adapter exited with (status|code) 3 while handling this request, after \d+ answers? since its restart \(\d+ in this run\)/);
    }
    expect(run.report!.diagnoses?.map((d) => d.id) ?? []).not.toContain('client.given-up');
  });
});

describe.concurrent('exit status 3: an adapter command that cannot start', () => {
  it('a command that does not exist: the command exits 3, the command and its error named, no case judged', RUN_TIMEOUT, async () => {
    const run = await runClient(targetFile({ side: 'client', command: 'no-such-sdk-adapter-7f3a --serve' }));
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/the adapter command "no-such-sdk-adapter-7f3a --serve" cannot be started: .*exited with (status|code) 127.*not found/);
    // Caught by the start probe, no case runs; on a machine so loaded that sh outlives the probe's
    // half second, the cases are ERROR and the run still ends with 3: never a PASS or FAIL.
    expect(run.stdout).not.toMatch(/^(PASS|FAIL)/m);
  });
  it('a command that outlives the probe but dies before every answer: the cases are ERROR, then exit 3 naming it', RUN_TIMEOUT, async () => {
    const run = await runClientHere(targetFile({ side: 'client', command: 'sleep 0.8; echo "missing module collect_sdk" >&2; exit 1', timing: { answerDeadlineMs: 3000 } }));
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/the adapter command "sleep 0\.8; .*" cannot be started: every start ended before an answer \(the adapter exited with (status|code) 1 right after starting, before answering \(.*missing module collect_sdk/);
    expect(Object.values(verdicts(run)).every((v) => v === 'ERROR')).toBe(true);
  });
  it('a script that dies on start (a Python syntax error): exit 3 with its stderr', RUN_TIMEOUT, async () => {
    const run = await runClientHere(targetFile({ side: 'client', command: 'python3 -c "def broken("' }));
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(3);
    expect(run.stderr).toMatch(/cannot be started.*SyntaxError/s);
  });
});

describe.concurrent('the adapter command is started once (DESIGN.md: "starts the target\'s command once")', () => {
  it('a correct adapter that logs each start: one start for the whole run, every case PASS', RUN_TIMEOUT, async () => {
    const starts = join(mkdtempSync(join(tmpdir(), 'cc-starts-')), 'starts.log');
    const run = await runClientHere(targetFile({ side: 'client', command: `echo started >> ${starts}; exec node examples/sdk-adapters/node/adapter.mjs` }));
    expect(run.code, run.stdout).toBe(0);
    expect(readFileSync(starts, 'utf8')).toBe('started\n');
  });
});
