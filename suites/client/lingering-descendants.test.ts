// Issue 22: an adapter (or signer) that leaves a background process holding the pipes it
// inherited. The run must end once its work is done, whatever its descendants hold: the
// command as installed (not in this process, whose event loop the test runner keeps alive),
// and the line protocol's own end, which lets the pipes go once the process group is killed.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LineProcess } from '../../harness/line-protocol/index.ts';
import { runBin } from '../support/cli-process.ts';
import { ROOT, runClient, targetFile, verdicts } from './run-client.ts';

const pidFile = join(mkdtempSync(join(tmpdir(), 'cc-daemon-')), 'daemons.pid');
const DAEMONISING = 'node suites/client/fixtures/daemonising-adapter.mjs';

afterAll(() => {
  let pids: string[] = [];
  try {
    pids = readFileSync(pidFile, 'utf8').trim().split('\n');
  } catch {
    // No daemon was started.
  }
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Already gone (the group kill reached it).
    }
  }
});

describe.concurrent('an adapter that leaves a daemon holding its stdout and stderr: the run ends once its work is done', () => {
  it('a daemon out of the adapter\'s process group (its own session): the run prints its summary and exits (0), within seconds', async () => {
    const started = performance.now();
    const run = await runClient(targetFile({ side: 'client', command: DAEMONISING, timing: { answerDeadlineMs: 4000 } }), { DAEMON_PID_FILE: pidFile }, ['--only', 'client.collect.method-path,client.collect.signature'], 25_000);
    const tookMs = performance.now() - started;
    expect(run.code, `killed after 25 s: the run never ended (${run.stdout})`).toBe(0);
    expect(verdicts(run)).toEqual({ 'client.collect.method-path': 'PASS', 'client.collect.signature': 'PASS' });
    expect(run.stdout).toMatch(/2 cases: 2 PASS/);
    // The adapter's close grace (2 s), the group's SIGTERM (0.5 s) and SIGKILL (1 s), and start-up on a loaded machine.
    expect(tookMs).toBeLessThan(20_000);
  });
  it('a daemon left in the adapter\'s process group: ended with the group, the run exits (0)', async () => {
    const run = await runClient(targetFile({ side: 'client', command: DAEMONISING, timing: { answerDeadlineMs: 4000 } }), { DAEMON_PID_FILE: pidFile, DAEMON_KIND: 'group' }, ['--only', 'client.collect.method-path'], 25_000);
    expect(run.code, run.stdout).toBe(0);
  });
});

describe.concurrent('a signer that leaves a daemon holding its pipes: `vectors --signer` ends too', () => {
  it('the correct signer behind a daemon out of its process group: exit 0, within seconds', async () => {
    const signer = `setsid sh -c 'echo $$ >> ${pidFile}; exec sleep 600' & exec node suites/signer-protocol/fixtures/correct-signer.mjs`;
    const reportDir = mkdtempSync(join(tmpdir(), 'cc-daemon-report-'));
    const ran = await runBin(['vectors', '--only', 'vectors.signature.1,vectors.signature.2', '--signer', signer, '--report-dir', reportDir], { cwd: ROOT, timeoutMs: 25_000 });
    expect(ran.code, `killed after 25 s: the run never ended (${ran.stdout})`).toBe(0);
    expect(ran.stdout).toMatch(/2 cases: 2 PASS/);
  });
});

describe('the line protocol\'s end of such a command', () => {
  it('close() kills the process group and, the pipes still held by a daemon out of it, lets them go: the end is over, not "alive"', async () => {
    const end = new LineProcess(`setsid sh -c 'echo $$ >> ${pidFile}; exec sleep 600' & exec cat`, { cwd: ROOT });
    end.send('{"id":"x"}\n');
    expect(await end.next(5000)).toEqual({ type: 'line', line: '{"id":"x"}' });
    const started = performance.now();
    await end.close(200);
    expect(end.alive).toBe(false);
    expect(end.child.stdout.destroyed).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
