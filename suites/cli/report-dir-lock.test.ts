// The report directory's lock (harness/run/report-dir.ts): two runs never write into one
// directory at once, and a lock left behind by a run that is gone never blocks the next one,
// even when the next one has the same pid (in a container the tool is pid 1 every time) or
// the dead run's pid now belongs to another process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../harness/run/index.ts';
import { startBin, stopAll } from '../support/cli-process.ts';
import { runHereWithoutKitEnv } from '../support/cli-here.ts';

const ONE_VECTOR = ['vectors', '--only', 'vectors.signature.1'];
const children: ChildProcess[] = [];

afterAll(() => {
  stopAll();
  for (const child of children) child.kill('SIGKILL');
});

function reportDir(): string {
  return mkdtempSync(join(tmpdir(), 'cc-lock-'));
}

/** A process that stays alive for the test (its pid is a live pid that is not a run). */
function liveProcess(): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

// A lock naming the run's own pid, as a container's pid 1 finds one a run before it left: the
// command in this process (cli-here.ts), whose pid is the one the lock names, under a token it
// does not hold (a child started through `sh -c '…; exec node BIN'` proved the same at about a
// second of CPU each; the pid, not the process, is the subject).
describe('a stale lock naming the run\'s own pid (pid 1 in a container) is taken over', () => {
  /** A lock written as a dead run with this process's pid left it; `extra`: more of its members. */
  function lockWithOwnPid(extra: Record<string, string>): string {
    const dir = reportDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, startedAt: '2026-01-01T00:00:00.000Z', ...extra }));
    return dir;
  }
  it('the lock a dead run left with this run\'s pid and another token: the run goes ahead, exit 0, and gives the directory back', async () => {
    const dir = lockWithOwnPid({ token: 'a-run-before-this-one' });
    const ran = await runHereWithoutKitEnv([...ONE_VECTOR, '--report-dir', dir]);
    expect(ran.stderr).not.toContain('in use by another run');
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(readdirSync(dir)).toContain('report.json');
  });
  it('a lock in the old form (pid and start only) naming this run\'s pid: taken over too', async () => {
    const dir = lockWithOwnPid({});
    const ran = await runHereWithoutKitEnv([...ONE_VECTOR, '--report-dir', dir]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});

// The run under way is a child: its pid is what the lock names, and SIGTERM what gives it back.
// The run refused beside it is this process's command (cli-here.ts). A minute and a half: the
// installed bin took over 30 s to run one vector at load 23 (on two cores with the suites beside it).
describe('a run under way keeps its lock', () => {
  it('a run under way holds the directory: a second run is refused (exit 2) naming its pid; the lock names pid, token and process start', async () => {
    const dir = reportDir();
    // A signer that never answers: the run holds the lock until it is stopped.
    const first = startBin([...ONE_VECTOR, '--signer', 'sleep 60', '--timeout', '60000', '--report-dir', dir]);
    const lockPath = join(dir, LOCK_FILE);
    // Up to 60 s for the child to start and lock, while it runs (a run of the installed bin took
    // 6 s at load 15; at load 21 this child had not locked within 30 s), and to say it is under
    // way: its first line comes once it listens for SIGTERM (written the same turn), the lock
    // before it (a SIGTERM between the two ends the process outright, its lock left behind).
    let ended = false;
    void first.exit.then(() => { ended = true; });
    const underWay = () => existsSync(lockPath) && /^1 vectors against signer /m.test(first.stdout());
    for (const until = Date.now() + 60_000; Date.now() < until && !ended && !underWay();) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(lockPath), `no lock after ${ended ? 'the run ended' : '60 s'}; its stderr: ${first.stderr()}`).toBe(true);
    expect(first.stdout(), first.stderr()).toMatch(/^1 vectors against signer `sleep 60`\n/);
    const owner = JSON.parse(readFileSync(lockPath, 'utf8')) as Record<string, unknown>;
    expect(owner).toMatchObject({ pid: first.child.pid, token: expect.stringMatching(/^[0-9a-f]{24}$/) });
    if (existsSync('/proc/self/stat')) expect(owner.processStart).toMatch(/^[0-9a-f-]+:\d+$/);
    const second = await runHereWithoutKitEnv([...ONE_VECTOR, '--report-dir', dir]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`is in use by another run (pid ${first.child.pid}`);
    // Stopped, the first run gives the directory back.
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(143);
    expect(existsSync(lockPath)).toBe(false);
  }, 90_000);
});

// A run meeting a lock another live process holds: the command in this process (cli-here.ts: one
// call at a time, so these run one after another), since the pid it compares with the lock's is
// another process's either way.
describe('a lock is its owner\'s while the owner runs, and not after', () => {
  it('a lock whose pid is alive but is another process than the one that wrote it (the pid reused): taken over', async () => {
    const dir = reportDir();
    const other = liveProcess();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: other.pid, startedAt: '2026-01-01T00:00:00.000Z', token: 'gone', processStart: 'another-boot:12345' }));
    const ran = await runHereWithoutKitEnv([...ONE_VECTOR, '--report-dir', dir]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
  it('a lock of a live process that says nothing of its start (the old form): still refused, nothing tells it is gone', async () => {
    const dir = reportDir();
    const other = liveProcess();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: other.pid, startedAt: '2026-01-01T00:00:00.000Z' }));
    const ran = await runHereWithoutKitEnv([...ONE_VECTOR, '--report-dir', dir]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`is in use by another run (pid ${other.pid}, started 2026-01-01T00:00:00.000Z)`);
  });
});
