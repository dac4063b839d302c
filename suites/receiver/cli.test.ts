// `collect-conformance receiver`: starts from the package's bin, prints one `listening on`
// line on stdout, serves callbacks and hooks, stops cleanly on SIGTERM/SIGINT. The serving
// processes run at once (each its own port, its own signals; one refusal in this process beside
// them: they read nothing of this process's environment but PATH and HOME).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { composeCallbackUrl } from '../../harness/callback/index.ts';
import { RECEIVER_FAULTS } from '../../harness/receiver/index.ts';
import { runHereWithoutKitEnv } from '../support/cli-here.ts';
import { startBin, stderrMatching, stopAll } from '../support/cli-process.ts';
import { TOKEN, send, tokenHeaders } from './helpers.ts';

afterAll(stopAll);

/** The receiver command; COLLECT_CALLBACK_TOKEN only when `env` gives it. */
const spawnCli = (args: string[], env: Record<string, string> = {}) => startBin(args, { env });
/**
 * The receiver command in this process, for what it prints or refuses before it serves: what is
 * tested is the check and its words, not the process (one refusal below still runs the bin, for
 * exit 2 reaching the process). The kit's variables only as `env` gives them, as for spawnCli.
 */
const refusedHere = runHereWithoutKitEnv;

async function seedOver(base: string, id: string): Promise<void> {
  const answer = await send(`${base}/_conformance/transactions`, { method: 'POST', body: JSON.stringify({ transaction_id: id, amount: '5.00' }) });
  expect(answer.status).toBe(201);
}

describe.concurrent('collect-conformance receiver: start, serve, stop', () => {
  it('prints exactly one `listening on` line, serves a callback, exits 0 on SIGTERM', async () => {
    const run = spawnCli(['receiver', '--port', '0', '--time-scale', '0.01'], { COLLECT_CALLBACK_TOKEN: TOKEN });
    const base = await run.url;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await seedOver(base, 'cli-1');
    const url = composeCallbackUrl(`${base}/callback`, { transaction_id: 'cli-1', status: 'SUCCESS', message: 'ok' });
    expect((await send(url, { headers: tokenHeaders(TOKEN) })).status).toBe(200);
    expect((await send(url)).status).toBe(403);
    const state = await send(`${base}/_conformance/transactions/cli-1`);
    expect(JSON.parse(state.body)).toEqual({ transaction_id: 'cli-1', state: 'SUCCESS', actions: 1 });
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toBe(`listening on ${base}\n`);
    expect(run.stderr()).toContain(`callback URL: ${base}/callback`);
    expect(run.stderr()).toContain(`hooks URL: ${base}/_conformance`);
    expect(run.stderr()).toContain('receiver closed');
    // A token from the environment is never printed, not even in the request log.
    expect(run.stdout() + run.stderr()).not.toContain(TOKEN);
    expect(run.stderr()).toMatch(/receiver callback GET "\/callback" query="transaction_id=cli-1&status=SUCCESS&message=ok" token=ok -> 200 applied/);
  });

  it('generates a test token when COLLECT_CALLBACK_TOKEN is unset and prints it once on stderr', async () => {
    const run = spawnCli(['receiver', '--time-scale', '0.01'], {});
    const base = await run.url;
    const match = await stderrMatching(run, /callback token \(generated test value[^)]*\): (\S+)\n/);
    const token = match[1]!;
    await seedOver(base, 'cli-2');
    const url = composeCallbackUrl(`${base}/callback`, { transaction_id: 'cli-2', status: 'FAILED', message: 'no' });
    expect((await send(url, { headers: tokenHeaders(token) })).status).toBe(200);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    expect(run.stderr().split(token).length - 1).toBe(1);
    expect(run.stdout()).not.toContain(token);
  });

  it('finishes in-flight work before exiting on SIGTERM', async () => {
    // 50000 ms x 0.01 = 500 ms of work after the reply.
    const run = spawnCli(['receiver', '--time-scale', '0.01', '--work-ms', '50000'], { COLLECT_CALLBACK_TOKEN: TOKEN });
    const base = await run.url;
    await seedOver(base, 'cli-3');
    const url = composeCallbackUrl(`${base}/callback`, { transaction_id: 'cli-3', status: 'SUCCESS', message: 'ok' });
    expect((await send(url, { headers: tokenHeaders(TOKEN) })).status).toBe(200);
    const t0 = performance.now();
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(performance.now() - t0).toBeGreaterThan(350);
    expect(run.stderr()).toContain('SIGTERM: finishing in-flight work');
  });

  it('applies --fault and a config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'receiver-cli-'));
    const file = join(dir, 'receiver.json');
    writeFileSync(file, JSON.stringify({ callbackPath: '/payments/cb', faults: ['status-401'] }));
    const run = spawnCli(['receiver', '--config', file, '--fault', 'no-percent-decoding'], { COLLECT_CALLBACK_TOKEN: TOKEN });
    const base = await run.url;
    await stderrMatching(run, /faults on: status-401, no-percent-decoding\n/);
    expect((await send(`${base}/payments/cb?transaction_id=x&status=SUCCESS`)).status).toBe(401);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });
});

describe.concurrent('collect-conformance receiver --callback-path (DESIGN.md: default /callback)', () => {
  it('serves callbacks at the path given, the hooks still at /_conformance; a bad path is exit 2 naming it', async () => {
    const run = spawnCli(['receiver', '--callback-path', '/payments/callback', '--time-scale', '0.01'], { COLLECT_CALLBACK_TOKEN: TOKEN });
    const base = await run.url;
    await stderrMatching(run, /callback URL: \S+\/payments\/callback\n/);
    await seedOver(base, 'cli-path-1');
    const url = composeCallbackUrl(`${base}/payments/callback`, { transaction_id: 'cli-path-1', status: 'SUCCESS', message: 'ok' });
    expect((await send(url, { headers: tokenHeaders(TOKEN) })).status).toBe(200);
    expect((await send(`${base}/callback?transaction_id=cli-path-1&status=SUCCESS`, { headers: tokenHeaders(TOKEN) })).status).toBe(404);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    const bad = await refusedHere(['receiver', '--callback-path', 'payments'], { COLLECT_CALLBACK_TOKEN: TOKEN });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/callbackPath: must start with "\/"/);
  });
});

describe('collect-conformance receiver: listing and usage errors', () => {
  it('--list-faults lists every fault with its spec reference and exits 0', async () => {
    const run = await runHereWithoutKitEnv(['receiver', '--list-faults']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(RECEIVER_FAULTS.map((f) => f.name));
    for (const fault of RECEIVER_FAULTS) expect(run.stdout).toContain(fault.description);
  });
  it('the process exits 2 for a bad value, naming it, with nothing on stdout', async () => {
    const run = spawnCli(['receiver', '--fault', 'nope']);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toContain('--fault: unknown fault "nope"');
    expect(run.stdout()).toBe('');
  });
  it.each([
    [['--fault', 'nope'], '--fault: unknown fault "nope"'],
    [['--port', '99999'], '--port: must be an integer 0-65535'],
    [['--time-scale', '0'], '--time-scale: must be a number > 0'],
    [['--config', '/nonexistent/receiver.json'], 'cannot read'],
  ])('exits 2 for %j, naming the bad value', async (args, message) => {
    const run = await refusedHere(['receiver', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });
  it('exits 2 for a COLLECT_CALLBACK_TOKEN set but empty, or too short to redact, naming it (never printed)', async () => {
    const empty = await refusedHere(['receiver'], { COLLECT_CALLBACK_TOKEN: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('COLLECT_CALLBACK_TOKEN is set but empty');
    const short = await refusedHere(['receiver'], { COLLECT_CALLBACK_TOKEN: 'abc' });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('COLLECT_CALLBACK_TOKEN holds 3 character(s)');
    expect(short.stderr + short.stdout).not.toContain('abc');
  });
  it('exits 2 for an invalid config file, naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'receiver-cli-'));
    try {
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify({ workMs: -5, faults: ['slow-reply', 'x'] }));
      const run = await refusedHere(['receiver', '--config', file]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('/workMs: must be >= 0');
      expect(run.stderr).toContain('/faults/1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
