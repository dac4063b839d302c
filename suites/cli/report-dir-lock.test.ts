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
import { BIN, startBin, stopAll, type Ran } from '../support/cli-process.ts';
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

/**
 * The command started through `sh -c '…; exec node BIN …'`: the shell writes the lock with its
 * own pid ($$) first, and exec keeps that pid, so the run finds a lock naming its own pid.
 * `extra`: more members of the lock's JSON object (`, "token": "…"`).
 */
function runWithOwnPidInLock(dir: string, extra: string): Promise<Ran> {
  const script = `printf '{"pid": %s, "startedAt": "2026-01-01T00:00:00.000Z"%s}' "$$" "$LOCK_EXTRA" > "$0"; exec "$@"`;
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script, join(dir, LOCK_FILE), process.execPath, BIN, ...ONE_VECTOR, '--report-dir', dir], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOCK_EXTRA: extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Side by side, each with child processes of its own: the run under way is a child (its pid is
// what the lock names, and SIGTERM what gives it back), and so is a run whose own pid the lock
// names. The run refused beside the one under way is this process's command (cli-here.ts), the
// only such call among these. A minute each: the installed bin took over 30 s to run one vector
// at load 23 (three of these and the suites beside them on two cores).
describe.concurrent('a stale lock naming the run\'s own pid (pid 1 in a container) is taken over; a run under way keeps its lock', () => {
  it('the lock a dead run left with this run\'s pid and another token: the run goes ahead, exit 0, and gives the directory back', async () => {
    const dir = reportDir();
    const ran = await runWithOwnPidInLock(dir, ', "token": "a-run-before-this-one"');
    expect(ran.stderr).not.toContain('in use by another run');
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(readdirSync(dir)).toContain('report.json');
  }, 60_000);
  it('a lock in the old form (pid and start only) naming this run\'s pid: taken over too', async () => {
    const dir = reportDir();
    const ran = await runWithOwnPidInLock(dir, '');
    expect(ran.code, ran.stderr).toBe(0);
  }, 60_000);
  it('a run under way holds the directory: a second run is refused (exit 2) naming its pid; the lock names pid, token and process start', async () => {
    const dir = reportDir();
    // A signer that never answers: the run holds the lock until it is stopped.
    const first = startBin([...ONE_VECTOR, '--signer', 'sleep 60', '--timeout', '60000', '--report-dir', dir]);
    const lockPath = join(dir, LOCK_FILE);
    // Up to 60 s for the child to start and lock, while it runs (a run of the installed bin took
    // 6 s at load 15; at load 21 this child had not locked within 30 s).
    let ended = false;
    void first.exit.then(() => { ended = true; });
    for (const until = Date.now() + 60_000; Date.now() < until && !ended && !existsSync(lockPath);) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(lockPath), `no lock after ${ended ? 'the run ended' : '60 s'}; its stderr: ${first.stderr()}`).toBe(true);
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
