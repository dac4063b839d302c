// Observing through a command (DESIGN.md: `"observe": {"command": …}` over the line protocol,
// for any store). The SQLite example a team can copy (examples/observe/sqlite-command: a
// standard-library Python receiver and its observer) is all PASS when correct and caught when it
// has the read-then-write race, and observing another file than its receiver's is said first, not
// blamed on the route (issue 41); a command that cannot serve is named before any case (exit 2),
// one that hangs during a run makes that case ERROR while the run goes on, and a run stopped by
// SIGINT stops its command too.
import { copyFileSync, existsSync, mkdtempSync, rmSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { CommandObservation, type RecordObserver } from '../../harness/observe/index.ts';
import { readAll, Readings, seedAll, StormPlan } from '../../harness/storm/index.ts';
import { OPEN_WIRE } from '../../harness/wire/index.ts';
import { parseTarget, type ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { RECEIVER_FAULT_CATALOG } from '../self-test/fault-catalog.ts';
import { expectAllPass, expectFaultCaught } from '../self-test/receiver-fault-check.ts';
import { firstResultLine, runBin, startBin, stopAll, type Started } from '../support/cli-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = join(ROOT, 'examples/observe/sqlite-command');
const HOOKS_OBSERVER = join(ROOT, 'suites/observe/fixtures/hooks-observer.mjs');
const MEMORY_OBSERVER = join(ROOT, 'suites/observe/fixtures/memory-observer.mjs');
const SEED = Number(process.env.CC_SEED ?? 4242);
const TOKEN = 'sqlite-example-token-1';

afterAll(() => stopAll());

/** The example's receiver on a fresh SQLite file and a free port, and the example's target file for it. */
async function sqliteExample(fault?: 'read-then-write'): Promise<{ target: ResolvedReceiverTarget; receiver: Started }> {
  const db = join(mkdtempSync(join(tmpdir(), 'cc-sqlite-')), 'orders.sqlite3');
  const receiver = startPython([join(EXAMPLE, 'receiver.py'), db, '--port', '0', ...(fault ? ['--fault', fault] : [])]);
  const origin = await receiver.url;
  const file = JSON.parse(readFileSync(join(EXAMPLE, 'target.json'), 'utf8')) as { callbackUrl: string; observe: { command: string } };
  file.callbackUrl = file.callbackUrl.replace('http://127.0.0.1:8081', origin);
  // The command as the example writes it, run in the example's folder (its target file's): only the database is elsewhere.
  file.observe.command = file.observe.command.replace('observer.py orders.sqlite3', `observer.py ${db}`);
  const target = parseTarget(file, { COLLECT_CALLBACK_TOKEN: TOKEN }, { baseDir: EXAMPLE });
  if (target.side !== 'receiver') throw new Error('a receiver target was expected');
  return { target, receiver };
}

/** receiver.py, started the way startBin starts the command (its `listening on` line awaited). */
function startPython(args: string[]): Started {
  return startBin([], { env: { COLLECT_CALLBACK_TOKEN: TOKEN } }, ['python3', ...args]);
}

describe('the SQLite example (examples/observe/sqlite-command): a Python receiver observed by a Python command', () => {
  it(`a correct receiver: every receiver case PASSes through the command, none SKIP (seed ${SEED})`, async () => {
    const { target, receiver } = await sqliteExample();
    try {
      await expectAllPass(target, SEED);
    } finally {
      receiver.child.kill('SIGTERM');
    }
  });
  it('its read-then-write race (--fault read-then-write) is caught by the concurrent duplicates, the rest PASS', async () => {
    const { target, receiver } = await sqliteExample('read-then-write');
    try {
      await expectFaultCaught(RECEIVER_FAULT_CATALOG.find((e) => e.fault === 'racy-idempotence')!, target, SEED, { scope: 'groups' });
    } finally {
      receiver.child.kill('SIGTERM');
    }
  });
});

describe('issue 41: the SQLite example observing another file than its receiver\'s (a relative path read from another folder)', () => {
  it('observe-check names it (/observe), and a run opens with "the receiver does not know the record the kit seeded": no FAIL, every case that ran ERROR', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cc-two-files-'));
    // The receiver keeps its orders in one file; the observer reads another with the same tables.
    const receiver = startPython([join(EXAMPLE, 'receiver.py'), join(folder, 'receivers.sqlite3'), '--port', '0']);
    try {
      const origin = await receiver.url;
      const schema = startPython([join(EXAMPLE, 'receiver.py'), join(folder, 'other.sqlite3'), '--port', '0']);
      await schema.url;
      schema.child.kill('SIGTERM');
      copyFileSync(join(EXAMPLE, 'observer.py'), join(folder, 'observer.py'));
      const file = JSON.parse(readFileSync(join(EXAMPLE, 'target.json'), 'utf8')) as { callbackUrl: string; observe: { command: string }; timing: object };
      file.callbackUrl = file.callbackUrl.replace('http://127.0.0.1:8081', origin);
      file.observe.command = 'python3 observer.py other.sqlite3';
      // Each valid callback's record is watched for a change up to the deadline: a short one keeps the run short.
      file.timing = { replyDeadlineMs: 1000 };
      writeFileSync(join(folder, 'target.json'), JSON.stringify(file));
      const env = { COLLECT_CALLBACK_TOKEN: TOKEN };
      const checked = await runBin(['observe-check', '--target', join(folder, 'target.json')], { env, timeoutMs: 30_000 });
      expect(checked.code, checked.stdout).toBe(2);
      expect(checked.stderr).toMatch(/\/observe: the receiver answered 404 \{"error": "unknown order"\} to a valid callback for the record this check seeded, and the record still reads state pending, actions 0: likely the receiver does not see the records this observe seeds/);
      const ran = await runBin(['run', '--target', join(folder, 'target.json'), '--report-dir', join(folder, 'report')], { env, timeoutMs: 90_000 });
      expect(ran.code, ran.stderr).toBe(1);
      const lines = ran.stdout.split('\n');
      expect(lines[1]).toMatch(/^FAIL {2}preflight\.receiver {2}\d+ ms {2}the receiver does not know the record the kit seeded: check that the receiver and the target file's hooksUrl or observe use the same records/);
      expect(ran.stdout).toMatch(/ 0 PASS, 0 FAIL, 0 WARN, \d+ SKIP, \d+ ERROR /);
      expect(ran.stdout).not.toMatch(/callback path \(callbackUrl\) is not the receiver's callback route/);
    } finally {
      receiver.child.kill('SIGTERM');
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a command that misbehaves', () => {
  let embedded: EmbeddedReceiver;
  const dir = mkdtempSync(join(tmpdir(), 'cc-command-'));
  let count = 0;
  /** A target file for the reference receiver observed by `command`; its path. */
  const target = (command: string) => {
    const path = join(dir, `target-${++count}.json`);
    writeFileSync(path, JSON.stringify({
      side: 'receiver', callbackUrl: embedded.target.callbackUrl, callbackToken: { env: 'COLLECT_CALLBACK_TOKEN' },
      observe: { command }, timing: { replyDeadlineMs: 500 },
    }));
    return path;
  };
  const run = (path: string, extra: string[] = []) => runBin(['run', '--target', path, '--report-dir', join(dir, `report-${++count}`), ...extra], {
    env: { COLLECT_CALLBACK_TOKEN: embedded.target.callbackToken! }, timeoutMs: 60_000,
  });
  const bridge = (...switches: string[]) => `node ${HOOKS_OBSERVER} ${embedded.receiver.hooksUrl} ${switches.join(' ')}`;

  beforeAll(async () => {
    embedded = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 500 });
  });
  afterAll(() => embedded.close());

  it('before any case: a command that cannot start, one whose read does not see the seed, one that writes garbage', async () => {
    const cannot = await run(target('no-such-observer-command-4711'));
    expect(cannot.code, cannot.stderr).toBe(2);
    expect(cannot.stderr).toMatch(/\/observe: the observer command gave no usable answer to read "cc-[^"]+" \(start\): the observer command exited with code 127 right after starting, before answering \(last stderr: .*not found\)/);
    const lost = await run(target(bridge('--lose-seeds')));
    expect(lost.code, lost.stderr).toBe(2);
    expect(lost.stderr).toMatch(/\/observe: the record just seeded for "cc-[^"]+" is not found by the read: the read must select the record the seed made/);
    const garbage = await run(target(bridge('--garbage')));
    expect(garbage.code, garbage.stderr).toBe(2);
    expect(garbage.stderr).toMatch(/\/observe: the observer command gave no usable answer to read "cc-[^"]+" \(protocol\): the line is not JSON: "<html>not json<\/html>"/);
    for (const ran of [cannot, lost, garbage]) expect(ran.stdout).not.toMatch(/^(PASS|FAIL|ERROR) /m);
  });
  it('observe-check through a command prints each request and answer; through the hooks, what they read', async () => {
    const bridged = await runBin(['observe-check', '--target', target(bridge())], { env: { COLLECT_CALLBACK_TOKEN: embedded.target.callbackToken! }, timeoutMs: 30_000 });
    expect(bridged.code, bridged.stderr).toBe(0);
    expect(bridged.stdout).toMatch(/^ {4}sent \{"id":"o\d+","op":"seed","transaction_id":"cc-[^"]+","amount":"10\.00"\} → answered \{"id":"o\d+","state":"pending","actions":0\}/m);
    expect(bridged.stdout).toContain('ok: a seeded record reads state pending, actions 0');
    const hooksFile = join(dir, `target-${++count}.json`);
    writeFileSync(hooksFile, JSON.stringify({ side: 'receiver', callbackUrl: embedded.target.callbackUrl, hooksUrl: embedded.receiver.hooksUrl }));
    const hooks = await runBin(['observe-check', '--target', hooksFile], { timeoutMs: 30_000 });
    expect(hooks.code, hooks.stderr).toBe(0);
    expect(hooks.stdout).toMatch(/^observing through hooks \(http:\/\/127\.0\.0\.1:\d+\/_conformance\)$/m);
    expect(hooks.stdout).toMatch(/^read "cc-[^"]+" \(never seeded\): 404 \(no record\)$/m);
    expect(hooks.stdout).toContain('ok: a seeded record reads state pending, actions 0');
  });
  it('a command runs in its target file\'s folder: a relative path in it means the file beside the target, whatever folder the kit runs in', async () => {
    const project = mkdtempSync(join(tmpdir(), 'cc-project-'));
    copyFileSync(HOOKS_OBSERVER, join(project, 'bridge.mjs'));
    const file = { side: 'receiver', callbackUrl: embedded.target.callbackUrl, callbackToken: { env: 'COLLECT_CALLBACK_TOKEN' }, observe: { command: `node bridge.mjs ${embedded.receiver.hooksUrl}` } };
    writeFileSync(join(project, 'receiver.json'), JSON.stringify(file));
    const env = { COLLECT_CALLBACK_TOKEN: embedded.target.callbackToken! };
    // The kit runs in the checkout (runBin's folder), the target file is elsewhere.
    const beside = await runBin(['observe-check', '--target', join(project, 'receiver.json')], { env, timeoutMs: 30_000 });
    expect(beside.code, beside.stderr).toBe(0);
    expect(beside.stdout).toContain(`observing through command (node bridge.mjs ${embedded.receiver.hooksUrl}, run in `);
    expect(beside.stdout).toContain('ok: a seeded record reads state pending, actions 0');
    // Its control: the same target file in a folder without bridge.mjs cannot start the command.
    const elsewhere = mkdtempSync(join(tmpdir(), 'cc-elsewhere-'));
    writeFileSync(join(elsewhere, 'receiver.json'), JSON.stringify(file));
    const missing = await runBin(['observe-check', '--target', join(elsewhere, 'receiver.json')], { env, timeoutMs: 30_000 });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot find module '.*bridge\.mjs'/);
  });
  it('during a run: the read it never answers makes that case ERROR naming the hang; the command is restarted and the run goes on', async () => {
    // One case at a time, so the case the hang falls in is the only one waiting for it.
    const ran = await run(target(bridge('--hang-on-read', '6', join(dir, 'hung'))), ['--only', 'receiver.outcome', '--concurrency', '1']);
    expect(ran.code, ran.stdout).toBe(1);
    const errors = ran.stdout.split('\n').filter((l) => l.startsWith('ERROR'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/the observer command gave no usable answer to read "cc-[^"]+" \(timeout\): no answer within 5000 ms; the observer command was killed and is restarted for the next request/);
    expect(ran.stdout).toMatch(/7 cases: 6 PASS, 0 FAIL, 0 WARN, 0 SKIP, 1 ERROR/);
  }, 60_000);
  it('a run stopped by SIGINT stops its observer command too (its own process group), also one that does not end with its input', async () => {
    const marker = `cc-marker-${process.pid}-${Date.now()}`;
    const started = startBin(['run', '--target', target(bridge('--stay', '--marker', marker)), '--report-dir', join(dir, `report-${++count}`)], {
      env: { COLLECT_CALLBACK_TOKEN: embedded.target.callbackToken! },
    });
    await firstResultLine(started);
    // `sh -c` and the command it started.
    expect(processesWith(marker).length).toBeGreaterThan(0);
    started.child.kill('SIGINT');
    // The run writes what it can say and ends 130 (docs/command-line.md: signals).
    expect(await started.exit).toBe(130);
    expect(processesWith(marker)).toEqual([]);
  }, 60_000);
});

describe('many records on one line (read-many): a command that declares it by answering, one that does not', () => {
  const plan = new StormPlan({ callbacks: 1200, ratePerS: 100, duplicates: 1, badTokensPct: 0, seed: 6, tag: 'cmd' });
  const indices = Array.from({ length: 1200 }, (_, i) => i);

  /** The memory observer (suites/observe/fixtures) with `flags`, its requests' ops logged to a file; the observer of a storm. */
  function memoryObserver(...flags: string[]): { observation: CommandObservation; observer: RecordObserver; ops: () => string[] } {
    const log = join(mkdtempSync(join(tmpdir(), 'cc-read-many-')), 'ops');
    writeFileSync(log, '');
    const observation = new CommandObservation({ kind: 'command', command: `node ${MEMORY_OBSERVER} --log ${log} ${flags.join(' ')}`, states: { SUCCESS: ['paid'] } }, { answerTimeoutMs: 5000 });
    const observer = observation.forCase({ http: { send: () => Promise.reject(new Error('no HTTP')), pace: 'unpaced' }, wire: OPEN_WIRE, signal: new AbortController().signal });
    return { observation, observer, ops: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
  }

  it('a command answering read-many: 1200 records in 3 requests, the same readings a read of each id gives', async () => {
    const { observation, observer, ops } = memoryObserver();
    try {
      // The first 600 ids of the plan (the same tag and seed: the same ids).
      await seedAll(new StormPlan({ callbacks: 600, ratePerS: 100, duplicates: 1, badTokensPct: 0, seed: 6, tag: 'cmd' }), observer, { concurrency: 4 });
      const readings = new Readings(1200);
      expect(await readAll(plan, observer, readings, indices, 16)).toBe('many');
      expect(ops().filter((op) => op === 'read-many')).toHaveLength(3);
      expect(ops().filter((op) => op === 'read')).toHaveLength(0);
      expect([readings.describe(0), readings.describe(599), readings.describe(600)]).toEqual(['pending, actions 0', 'pending, actions 0', 'no record']);
      // Each reading as the one-id read gives it, the state mapped by the target's `states` ("paid" is SUCCESS).
      const ids = [plan.idOf(3), 'cc-x-paid', plan.idOf(900)];
      const many = await observer.readMany!(ids);
      const one = await Promise.all(ids.map(async (id) => {
        const r = await observer.read(id);
        return r && { transaction_id: r.transaction_id, state: r.state, value: r.value, actions: r.actions };
      }));
      expect(many).toEqual(one);
      expect(many![1]).toEqual({ transaction_id: 'cc-x-paid', state: 'SUCCESS', value: 'paid', actions: 1 });
    } finally {
      await observation.close();
    }
  });
  it('a command that answers read-many with its error for an unknown op: read one id at a time, read-many asked once', async () => {
    const { observation, observer, ops } = memoryObserver('--no-read-many');
    try {
      const readings = new Readings(1200);
      expect(await readAll(plan, observer, readings, indices.slice(0, 30), 4)).toBe('one by one');
      expect(await readAll(plan, observer, readings, indices.slice(30, 60), 4)).toBe('one by one');
      expect(ops().filter((op) => op === 'read-many')).toHaveLength(1);
      expect(ops().filter((op) => op === 'read')).toHaveLength(60);
      expect(observation.readManyOff).toMatch(/^it answered read-many with its error "unknown op \\"read-many\\""/);
    } finally {
      await observation.close();
    }
  });
  it('a command whose records do not match the ids asked (one too few): named, and read one id at a time', async () => {
    const { observation, observer } = memoryObserver('--short-records');
    try {
      expect(await observer.readMany!(['a', 'b', 'c'])).toBeUndefined();
      expect(observation.readManyOff).toMatch(/"records" must be an array of 3 readings, one per id asked, in order/);
      expect(await observer.read('a-paid')).toMatchObject({ state: 'SUCCESS', actions: 1 });
    } finally {
      await observation.close();
    }
  });
});

/** The pids of running processes whose command line holds `text` (Linux /proc). */
function processesWith(text: string): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (/^\d+ \(.*\) Z/.test(stat)) return false;
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) && existsSync(`/proc/${pid}`);
    } catch {
      return false;
    }
  }).map(Number);
}
