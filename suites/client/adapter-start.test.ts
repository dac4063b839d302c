// DESIGN.md "Client SDKs": a command that cannot start ends the run with exit 3 (the command
// itself spawned where its exit status is the subject, the run in this process otherwise), and
// the command is started once for a whole run.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_RUN_TIMEOUT, runClient, runClientHere, targetFile, verdicts } from './run-client.ts';

describe.concurrent('exit status 3: an adapter command that cannot start', () => {
  it('a command that does not exist: the command exits 3, the command and its error named, no case judged', CLIENT_RUN_TIMEOUT, async () => {
    const run = await runClient(targetFile({ side: 'client', command: 'no-such-sdk-adapter-7f3a --serve' }));
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/the adapter command "no-such-sdk-adapter-7f3a --serve" cannot be started: .*exited with (status|code) 127.*not found/);
    // Caught by the start probe, no case runs; on a machine so loaded that sh outlives the probe's
    // half second, the cases are ERROR and the run still ends with 3: never a PASS or FAIL.
    expect(run.stdout).not.toMatch(/^(PASS|FAIL)/m);
  });
  it('a command that outlives the probe but dies before every answer: the cases are ERROR, then exit 3 naming it', CLIENT_RUN_TIMEOUT, async () => {
    const run = await runClientHere(targetFile({ side: 'client', command: 'sleep 0.8; echo "missing module collect_sdk" >&2; exit 1', timing: { answerDeadlineMs: 3000 } }));
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/the adapter command "sleep 0\.8; .*" cannot be started: every start ended before an answer \(the adapter exited with (status|code) 1 right after starting, before answering \(.*missing module collect_sdk/);
    expect(Object.values(verdicts(run)).every((v) => v === 'ERROR')).toBe(true);
  });
  it('a script that dies on start (a Python syntax error): exit 3 with its stderr', CLIENT_RUN_TIMEOUT, async () => {
    const run = await runClientHere(targetFile({ side: 'client', command: 'python3 -c "def broken("' }));
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(3);
    expect(run.stderr).toMatch(/cannot be started.*SyntaxError/s);
  });
});

describe.concurrent('the adapter command is started once (DESIGN.md: "starts the target\'s command once")', () => {
  it('a correct adapter that logs each start: one start for the whole run, every case PASS', CLIENT_RUN_TIMEOUT, async () => {
    const starts = join(mkdtempSync(join(tmpdir(), 'cc-starts-')), 'starts.log');
    const run = await runClientHere(targetFile({ side: 'client', command: `echo started >> ${starts}; exec node examples/sdk-adapters/node/adapter.mjs` }));
    expect(run.code, run.stdout).toBe(0);
    expect(readFileSync(starts, 'utf8')).toBe('started\n');
  });
});
