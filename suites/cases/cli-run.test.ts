// `collect-conformance run`: the listing, usage errors (exit 2), an unreachable target (exit 3),
// a run against a target file (exit 0 / 1, waivers), and no secret in any output or report file.
// As a user runs it (the package's bin in a child process, `cli`) where the process matters (the
// embedded default, whole runs); in this process (`runHere`, main() with its output captured, no
// loader start-up) where only the command's answer does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, startEmbeddedService, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { REPORT_FILES, validateReportJson } from '../../harness/report/index.ts';
import { NEXT_COMMAND, NEXT_DOCS } from '../../harness/cli/next-steps.ts';
import { runBin, type Ran } from '../support/cli-process.ts';
import { runHere } from '../support/cli-here.ts';
import { startThrottle } from '../support/throttle.ts';
import { freePort } from '../support/free-port.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-cli-run-'));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return runBin(args, { cwd: dir, env });
}

function writeJson(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

function receiverFile(name: string, embedded: EmbeddedReceiver, extra: Record<string, unknown> = {}): string {
  return writeJson(name, {
    side: 'receiver',
    callbackUrl: embedded.target.callbackUrl,
    hooksUrl: embedded.receiver.hooksUrl,
    callbackToken: { env: 'MY_RECEIVER_TOKEN' },
    timing: { replyDeadlineMs: 1000 },
    ...extra,
  });
}

/** Every file of the report directory and the terminal output, searched for each secret. */
function leaks(ran: Ran, reportDir: string, secrets: readonly string[]): string[] {
  const texts: Array<[string, string]> = [['stdout', ran.stdout], ['stderr', ran.stderr]];
  for (const f of readdirSync(reportDir)) texts.push([f, readFileSync(join(reportDir, f), 'utf8')]);
  const found: string[] = [];
  for (const [where, text] of texts) {
    for (const secret of secrets) {
      // The secret as is, and in the encodings a target may echo it back in (issue 10).
      const renderings = [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64').replace(/=+$/, ''),
        Buffer.from(secret).toString('base64url'), Buffer.from(secret).toString('hex')];
      if (renderings.some((r) => text.includes(r))) found.push(`${where} holds a secret`);
    }
  }
  return found;
}

describe('run --list: every case, without touching a target', () => {
  it('prints id, level, spec reference and title for each receiver case; exit 0', async () => {
    const ran = await runHere(['run', '--list', '--side', 'receiver']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const lines = ran.stdout.trim().split('\n');
    expect(lines).toHaveLength(RECEIVER_CASES.length);
    for (const c of RECEIVER_CASES) {
      expect(ran.stdout).toMatch(new RegExp(`^${c.id.replace(/\./g, '\\.')}\\s+${c.level}\\s+${c.specRef.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+${c.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    }
  });
  it('with --target: the side the file names, and no secret needed', async () => {
    const path = writeJson('list-target.json', { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', callbackToken: { env: 'UNSET_FOR_LIST' } });
    const ran = await runHere(['run', '--list', '--target', path]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout.trim().split('\n')).toHaveLength(RECEIVER_CASES.length);
  });
  it('--only narrows the list', async () => {
    const ran = await runHere(['run', '--list', '--only', 'receiver.latency']);
    expect(ran.stdout.trim().split('\n').map((l) => l.split(/\s+/)[0])).toEqual(['receiver.latency.single', 'receiver.latency.burst']);
  });
});

describe('exit 2: bad usage and invalid target files', () => {
  it('--side contradicting the target file', async () => {
    const path = writeJson('side-receiver.json', { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb' });
    const ran = await runHere(['run', '--target', path, '--side', 'service']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stderr).toContain('--side service contradicts the target file');
  });
  it('an invalid target file names the bad field', async () => {
    const path = writeJson('bad-timing.json', { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 'soon' } });
    const ran = await runHere(['run', '--target', path]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stderr).toContain('/timing/replyDeadlineMs: must be integer');
  });
  it('a missing environment variable names the field and the variable', async () => {
    const path = writeJson('no-env.json', { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', callbackToken: { env: 'NOT_SET_ANYWHERE' } });
    const ran = await runHere(['run', '--target', path]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stderr).toContain('/callbackToken: environment variable NOT_SET_ANYWHERE is not set');
  });
  it('an invalid waiver file and a bad seed', async () => {
    const target = writeJson('t.json', { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb' });
    const waivers = writeJson('bad-waivers.json', [{ id: 'receiver.latency.burst' }]);
    const ran = await runHere(['run', '--target', target, '--waivers', waivers]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stderr).toContain('/0/reason: is required');
    expect((await runHere(['run', '--target', target, '--seed', 'abc'])).code).toBe(2);
  });
  it('--concurrency outside 1..64, or not an integer, names the option', async () => {
    const target = writeJson('t.json', { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb' });
    for (const bad of ['0', '65', '2.5', 'four', '-1']) {
      const ran = await runHere(['run', '--target', target, '--concurrency', bad]);
      expect(ran.code, bad).toBe(2);
      expect(ran.stderr, bad).toContain(`--concurrency: must be an integer from 1 to 64 (got ${JSON.stringify(bad)})`);
    }
  });
});

describe('--rate: the default pace of a service target file, and its usage errors', () => {
  it('a service target file is paced at 5/s unless told (the first line says so); 429s waited out are noted after the summary', async () => {
    const service = await startEmbeddedService();
    // One request a second: the preflight's and the case's collect, 200 ms apart, meet it.
    const throttle = await startThrottle(service.target.baseUrl, { limit: 1, windowMs: 1000 });
    try {
      const t = service.target;
      const path = writeJson('service-paced.json', {
        side: 'service', baseUrl: throttle.origin, mode: t.mode, clientId: t.clientId,
        clientKey: { env: 'SVC_CLIENT_KEY' }, secretKey: { env: 'SVC_SECRET_KEY' }, callbackToken: { env: 'SVC_CALLBACK_TOKEN' },
        networkCode: t.networkCode, customerNumbers: t.customerNumbers, sources: t.sources,
        listener: { host: '127.0.0.1', port: 0, publicUrl: null, tls: false }, timing: t.timing,
      });
      const ran = await runHere(['run', '--target', path, '--report-dir', join(dir, 'service-paced'), '--only', 'service.auth.valid-accepted'], {
        SVC_CLIENT_KEY: t.clientKey, SVC_SECRET_KEY: t.secretKey, SVC_CALLBACK_TOKEN: t.callbackToken!,
      });
      expect(ran.stdout.split('\n')[0]).toMatch(/; requests paced at 5\/s\)$/);
      expect(ran.stdout, ran.stdout).toMatch(/^1 cases?: 1 PASS/m);
      expect(ran.code, ran.stdout + ran.stderr).toBe(0);
      expect(throttle.refused).toBeGreaterThanOrEqual(1);
      expect(ran.stderr).toMatch(new RegExp(`note: the service answered 429 Too Many Requests ${throttle.refused} time\\(s\\) \\(requests paced at 5/s\\); each time every request to it waited out the Retry-After; a lower --rate avoids the waits`));
    } finally {
      await throttle.close();
      await service.close();
    }
  });

  it('not N/s or N/min, zero, or past 1000/s', async () => {
    const target = writeJson('t.json', { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb' });
    for (const bad of ['5', '0/s', 'fast', '5/h', '2000/s', '-1/s']) {
      const ran = await runHere(['run', '--target', target, '--rate', bad]);
      expect(ran.code, bad).toBe(2);
      expect(ran.stderr, bad).toContain(`--rate: must be N/s or N/min with N a positive number up to 1000/s (e.g. 5/s, 0.5/s, 60/min), or off (got ${JSON.stringify(bad)})`);
    }
  });
  it('a rate for a client target, whose SDK sends to the harness itself', async () => {
    const target = writeJson('client-rate.json', { side: 'client', command: 'true' });
    const ran = await runHere(['run', '--target', target, '--rate', '5/s']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stderr).toContain("--rate 5/s: a client target is not paced (its SDK sends to the harness's own service in this process, not to a target)");
  });
});

describe('exit 2: a --report-dir that cannot be created', () => {
  it('names the directory, without an internal-error stack', async () => {
    const blocker = writeJson('not-a-dir.json', {});
    // A reachable target, so that the run gets as far as opening the reports.
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      writeJson('reachable.json', { side: 'receiver', callbackUrl: `http://127.0.0.1:${port}/cb` });
      const ran = await runHere(['run', '--target', join(dir, 'reachable.json'), '--report-dir', join(blocker, 'sub')]);
      expect(ran.code, ran.stdout + ran.stderr).toBe(2);
      expect(ran.stderr).toMatch(/^collect-conformance: --report-dir: cannot create report directory .*not-a-dir\.json\/sub/);
      expect(ran.stderr).not.toContain('internal error');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('exit 3: the target cannot be reached at all', () => {
  it('a closed port ends the run with one line naming the address', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const path = writeJson('closed.json', { side: 'receiver', callbackUrl: `http://127.0.0.1:${port}/cb` });
    const ran = await runHere(['run', '--target', path, '--report-dir', join(dir, 'unreachable')]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(3);
    expect(ran.stderr).toBe(`collect-conformance: cannot reach http://127.0.0.1:${port}: ECONNREFUSED (is the receiver listening on 127.0.0.1:${port}?)\n`);
  });
});

describe('a receiver target file: reports, exit status, waivers, no secret anywhere', () => {
  let good: EmbeddedReceiver;
  let faulty: EmbeddedReceiver;
  let statusPort: number;
  beforeAll(async () => {
    // The correct receiver confirms its outcomes (§6 rule 5) with the status endpoint the run
    // serves on this port, as a target file's receiver does: every case runs, none SKIP.
    statusPort = await freePort();
    good = await startEmbeddedReceiver({ timeScale: 0.02, confirms: { port: statusPort } });
    faulty = await startEmbeddedReceiver({ timeScale: 0.02, faults: ['no-token-check'] });
  });
  afterAll(async () => {
    await good.close();
    await faulty.close();
  });

  it('a correct (confirming) receiver: every case PASS, exit 0, four report files, report.json valid, token and keys nowhere', async () => {
    const reportDir = join(dir, 'good');
    const token = good.target.callbackToken!;
    const { clientId, clientKey, secretKey } = good.target.confirms!;
    const confirms = { listener: { port: statusPort }, clientId, clientKey: { env: 'MY_CLIENT_KEY' }, secretKey: { env: 'MY_SECRET_KEY' } };
    const ran = await cli(['run', '--target', receiverFile('good.json', good, { confirms }), '--report-dir', reportDir, '--seed', '77'], {
      MY_RECEIVER_TOKEN: token, MY_CLIENT_KEY: clientKey, MY_SECRET_KEY: secretKey,
    });
    expect(ran.stderr).toBe('');
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('seed 77');
    // Every case, and the preflight before them (the positive control of the negative cases).
    expect(ran.stdout.match(/^PASS +receiver\./gm)).toHaveLength(RECEIVER_CASES.length);
    expect(ran.stdout).toMatch(/^PASS +preflight\.receiver /m);
    expect(readdirSync(reportDir).sort()).toEqual([...REPORT_FILES].sort());
    // A target file's run closes with the HTML report's path, not with the newcomer's next step.
    expect(ran.stdout.trimEnd().split('\n').at(-1)).toBe('HTML report: good/index.html');
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as { seed: number; target: Record<string, unknown>; preflights?: { id: string; verdict: string }[] };
    expect(validateReportJson(report)).toEqual([]);
    expect(report.seed).toBe(77);
    expect(report.preflights?.map((p) => `${p.id} ${p.verdict}`)).toEqual(['preflight.receiver PASS']);
    expect(report.target.callbackToken).toEqual({ env: 'MY_RECEIVER_TOKEN', value: '[REDACTED]' });
    expect(leaks(ran, reportDir, [token, clientKey, secretKey])).toEqual([]);
  });

  it('a receiver with a fault: the case FAILs with evidence, exit 1, token nowhere (also not in curl lines)', async () => {
    const reportDir = join(dir, 'faulty');
    const token = faulty.target.callbackToken!;
    const ran = await runHere(['run', '--target', receiverFile('faulty.json', faulty), '--report-dir', reportDir, '--only', 'receiver.token'], { MY_RECEIVER_TOKEN: token });
    expect(ran.code, ran.stdout + ran.stderr).toBe(1);
    expect(ran.stdout).toMatch(/^FAIL +receiver\.token\.missing .*answered 200 \{"result":"applied".*\}; §6 rule 1 says 403/m);
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as { cases: Array<{ id: string; evidence?: { exchanges?: Array<{ curl?: string }>; records?: { way?: string; after?: unknown } } }> };
    const wrong = report.cases.find((c) => c.id === 'receiver.token.one-char-short');
    // The record's readings, and the way they were read.
    expect(wrong?.evidence?.records?.after).toBeTruthy();
    expect(wrong?.evidence?.records?.way).toMatch(/^hooks \(http:/);
    // curl reads the token from the variable the target file names.
    expect(wrong?.evidence?.exchanges?.[0]?.curl).toContain('${MY_RECEIVER_TOKEN%?}');
    expect(leaks(ran, reportDir, [token, token.slice(0, -1)])).toEqual([]);
  });

  it('waiving the failures turns exit 1 into 0, and the report shows the waivers', async () => {
    const reportDir = join(dir, 'waived');
    const waivers = writeJson('waivers.json', [{ id: 'receiver.token.*', reason: 'token check ships next sprint', expires: '2999-12-31' }]);
    const ran = await runHere(['run', '--target', receiverFile('faulty2.json', faulty), '--report-dir', reportDir, '--only', 'receiver.token', '--waivers', waivers], { MY_RECEIVER_TOKEN: faulty.target.callbackToken! });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as { cases: Array<{ id: string; verdict: string; waiver?: { applied: boolean } }> };
    expect(report.cases.find((c) => c.id === 'receiver.token.missing')).toMatchObject({ verdict: 'FAIL', waiver: { applied: true } });
    expect(report.cases.find((c) => c.id === 'receiver.token.valid')).toMatchObject({ verdict: 'PASS', waiver: { applied: false } });
  });
});

describe('a service target file: client key, secret key and callback token appear nowhere', () => {
  it('runs two service cases against the reference service and finds no secret in any output', async () => {
    const service = await startEmbeddedService();
    try {
      const t = service.target;
      const path = writeJson('service.json', {
        side: 'service', baseUrl: t.baseUrl, mode: t.mode, clientId: t.clientId,
        clientKey: { env: 'SVC_CLIENT_KEY' }, secretKey: { env: 'SVC_SECRET_KEY' }, callbackToken: { env: 'SVC_CALLBACK_TOKEN' },
        networkCode: t.networkCode, customerNumbers: t.customerNumbers, sources: t.sources,
        listener: { host: '127.0.0.1', port: 0, publicUrl: null, tls: false }, timing: t.timing,
      });
      const reportDir = join(dir, 'service');
      const secrets = [t.clientKey, t.secretKey, t.callbackToken!];
      const ran = await runHere(['run', '--target', path, '--report-dir', reportDir, '--only', 'service.auth.valid-accepted,service.auth.wrong-secret,service.callback.token-present'], {
        SVC_CLIENT_KEY: t.clientKey, SVC_SECRET_KEY: t.secretKey, SVC_CALLBACK_TOKEN: t.callbackToken!,
      });
      expect(ran.stdout).toMatch(/3 cases: 3 PASS/);
      expect(ran.code, ran.stdout + ran.stderr).toBe(0);
      expect(leaks(ran, reportDir, secrets)).toEqual([]);
    } finally {
      await service.close();
    }
  });
});

describe('the embedded default', () => {
  it('run --side receiver without --target: every receiver case PASSes against the reference receivers (the confirm cases against the confirming one), exit 0', async () => {
    const reportDir = join(dir, 'embedded');
    const ran = await cli(['run', '--side', 'receiver', '--report-dir', reportDir]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('against the embedded reference implementations');
    expect(ran.stdout).toMatch(new RegExp(`${RECEIVER_CASES.length} cases: ${RECEIVER_CASES.length} PASS, 0 FAIL`));
  });
  it('closes with the HTML report\'s path and the command that points the kit at your own implementation, naming pages that exist', async () => {
    const ran = await cli(['run', '--side', 'receiver', '--only', 'receiver.token.missing', '--report-dir', 'first-run']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const closing = ran.stdout.trimEnd().split('\n').slice(-3);
    expect(closing).toEqual([
      'HTML report: first-run/index.html',
      `Next, your own receiver, service or SDK: describe it in a target file (${NEXT_DOCS.join(', ')}), then run`,
      `  ${NEXT_COMMAND}`,
    ]);
    expect(existsSync(join(dir, 'first-run/index.html'))).toBe(true);
    for (const page of NEXT_DOCS) expect(existsSync(join(REPO_ROOT, page)), page).toBe(true);
  });
  it('the lines come in case order, the preflight first, the same with --concurrency 1 and 64', async () => {
    const lines = async (n: string) => {
      const ran = await cli(['run', '--side', 'receiver', '--report-dir', join(dir, `embedded-${n}`), '--concurrency', n]);
      expect(ran.code, ran.stdout + ran.stderr).toBe(0);
      return ran.stdout.split('\n').filter((l) => /^PASS /.test(l)).map((l) => l.split(/\s+/)[1]);
    };
    // The reference receiver, then the confirming one for the confirm cases: each side's run in turn, its preflight first.
    const confirm = (c: { needs: readonly string[] }) => c.needs.includes('confirms');
    const expected = ['preflight.receiver', ...RECEIVER_CASES.filter((c) => !confirm(c)).map((c) => c.id), 'preflight.receiver', ...RECEIVER_CASES.filter(confirm).map((c) => c.id)];
    expect(await lines('64')).toEqual(expected);
    expect(await lines('1')).toEqual(expected);
  });
});

describe('careless input is refused or named, never taken for something else (issue 10)', () => {
  let good: EmbeddedReceiver;
  // The receiver's own token: with another one the preflight sees the valid callback refused,
  // and a refusal case proves nothing (ERROR, not PASS).
  const env = () => ({ MY_RECEIVER_TOKEN: good.target.callbackToken! });
  beforeAll(async () => {
    good = await startEmbeddedReceiver({ timeScale: 0.02 });
  });
  afterAll(async () => {
    await good.close();
  });

  it('--only "" is a usage error (exit 2), not every case', async () => {
    for (const only of ['', ' , ']) {
      const ran = await runHere(['run', '--list', '--only', only]);
      expect(ran.code, ran.stdout + ran.stderr).toBe(2);
      expect(ran.stderr).toContain('--only: the pattern');
    }
  });
  it('--only with the pathological glob answers at once (no backtracking)', async () => {
    const started = performance.now();
    const ran = await runHere(['run', '--list', '--only', '*?*?*?*?*?*?*?*?*?*?*X']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toBe('');
    expect(performance.now() - started).toBeLessThan(2000);
  });
  it('a FIFO as --target or --waivers is refused at once (exit 2) instead of blocking', async () => {
    const fifo = join(dir, 'target.fifo');
    execFileSync('mkfifo', [fifo]);
    const t = receiverFile('fifo-case.json', good);
    for (const args of [['run', '--target', fifo], ['run', '--target', t, '--waivers', fifo]]) {
      const ran = await runHere(args, env());
      expect(ran.code, ran.stdout + ran.stderr).toBe(2);
      expect(ran.stderr).toContain('not a regular file (a FIFO)');
    }
  });
  it('a timing value past its bound (replyDeadlineMs 1e15) is exit 2 naming the field, not a Node timer error per case', async () => {
    const ran = await runHere(['run', '--target', receiverFile('huge-deadline.json', good, { timing: { replyDeadlineMs: 1e15 } })], env());
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stderr).toContain('/timing/replyDeadlineMs: must be <= 60000');
  });
  it('a BOM-prefixed target file is accepted; a set-but-empty variable is named as such', async () => {
    const path = receiverFile('bom.json', good);
    writeFileSync(path, `\uFEFF${readFileSync(path, 'utf8')}`);
    expect((await runHere(['run', '--list', '--target', path])).code).toBe(0);
    const ran = await runHere(['run', '--target', path], { MY_RECEIVER_TOKEN: '' });
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stderr).toContain('MY_RECEIVER_TOKEN is set but empty');
  });
  it('a blanket waiver "*" without expiry is refused (exit 2); with an expiry it is warned about loudly', async () => {
    const t = receiverFile('blanket-target.json', good);
    const forever = writeJson('blanket.json', [{ id: '*', reason: 'ship it' }]);
    const refused = await runHere(['run', '--target', t, '--waivers', forever], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('/0/id: "*" waives every case for ever');
    const until = writeJson('blanket-until.json', [{ id: '*', reason: 'ship it', expires: '2999-01-01' }]);
    const warned = await runHere(['run', '--target', t, '--waivers', until, '--only', 'receiver.token.missing', '--report-dir', join(dir, 'blanket')], env());
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('waives EVERY case of this run until 2999-01-01');
  });
  it('an unwritable --report-dir is exit 2 with one line, no stack', async () => {
    const t = receiverFile('unwritable-target.json', good);
    const blocked = join(dir, 'blocked');
    // report.json taken by a directory: the directory exists, the report cannot be written.
    mkdirSync(join(blocked, 'report.json'), { recursive: true });
    const dirs = [blocked, ...(existsSync('/proc/self') ? ['/proc'] : [])];
    for (const reportDir of dirs) {
      const ran = await runHere(['run', '--target', t, '--only', 'receiver.token.missing', '--report-dir', reportDir], env());
      expect(ran.code, ran.stdout + ran.stderr).toBe(2);
      expect(ran.stderr).toMatch(/^collect-conformance: --report-dir: cannot write/);
      expect(ran.stderr).not.toContain('internal error');
      expect(ran.stderr).not.toMatch(/\n\s+at /);
    }
  });
  it('two runs sharing a report folder: the second is refused (exit 2) naming the first run\'s pid; a lock left by a dead run is taken over', async () => {
    const t = receiverFile('locked-target.json', good);
    const shared = join(dir, 'shared');
    mkdirSync(shared, { recursive: true });
    const lockPath = join(shared, '.collect-conformance.lock');
    // A live run: another process, alive for as long as the test runs (this process's own pid
    // would be a dead run's lock: suites/cli/report-dir-lock.test.ts).
    const live = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      writeFileSync(lockPath, JSON.stringify({ pid: live.pid, startedAt: '2026-01-01T00:00:00.000Z' }));
      const refused = await runHere(['run', '--target', t, '--only', 'receiver.token.missing', '--report-dir', shared], env());
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`is in use by another run (pid ${live.pid}`);
      expect(readdirSync(shared)).toEqual(['.collect-conformance.lock']);
    } finally {
      live.kill('SIGKILL');
    }
    // A run that was killed: its pid is gone.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(lockPath, JSON.stringify({ pid: dead }));
    const ran = await runHere(['run', '--target', t, '--only', 'receiver.token.missing', '--report-dir', shared], env());
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(readdirSync(shared).sort()).toEqual([...REPORT_FILES].sort());
  });
  it('control characters and bidi overrides in a target file never reach the terminal raw', async () => {
    const path = writeJson('bidi.json', { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', ['\u202Eevil\u001b[2J']: 1 });
    const ran = await runHere(['run', '--target', path]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stderr).toContain('\\u202Eevil\\u001B[2J');
    expect(ran.stderr).not.toMatch(/[\u001b\u202e]/);
  });
});
