// The config file (JSON Schema 2020-12, errors naming the field) and the `simulate` command:
// one `listening on <URL>` line on stdout, test credentials printed once, clean stop on signals.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { signBody } from '../../harness/signing/index.ts';
import {
  loadSimulatorConfigFile, validateSimulatorConfigFile, credentialsFromEnv, SIMULATOR_FAULTS,
} from '../../harness/simulator/index.ts';
import { runHereWithoutKitEnv } from '../support/cli-here.ts';
import { startBin, stopAll, type Ran, type Started } from '../support/cli-process.ts';

afterAll(stopAll);
import { formatFaults } from '../../harness/cli/commands/simulate.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-config-'));
function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

describe('config file: JSON Schema, errors with the JSON path of the field', () => {
  it('accepts a full valid file and converts it', () => {
    file('ca.pem', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const { config, clientId } = loadSimulatorConfigFile(file('ok.json', {
      mode: 'production', clientId: 7, whitelist: { sources: ['127.0.0.1', '::ffff:127.0.0.2'], customerNumbers: ['0200000001'] },
      outcome: { failingSuffixes: ['9'] }, processingDelayMs: 10, retry: { attempts: 3 }, duplicateDeliveries: 1,
      timeScale: 0.5, callbackTimeoutMs: 100, callbackCaFiles: ['ca.pem'], maxBodyBytes: 2048, faults: ['no-retry'],
    }));
    expect(clientId).toBe(7);
    expect(config).toMatchObject({ mode: 'production', retry: { attempts: 3, initialDelayMs: 1000, factor: 2 }, faults: ['no-retry'] });
    expect(config.callbackCa?.[0]).toContain('BEGIN CERTIFICATE');
  });
  it.each([
    [{ retry: { factor: 0.5 } }, '/retry/factor: must be >= 1'],
    [{ mode: 'live' }, '/mode: must be one of ["sandbox","production"]'],
    [{ whitelist: { customerNumbers: ['0244 000 001'] } }, '/whitelist/customerNumbers/0: must match pattern'],
    [{ whitelist: { sources: ['localhost'] } }, '/whitelist/sources/0: must match'],
    [{ faults: ['no-retry', 'nope'] }, '/faults/1: must be one of ["no-signature-check"'],
    [{ secretKey: 'x' }, '/secretKey: unknown key'],
    [{ timeScale: 0 }, '/timeScale: must be > 0'],
  ])('refuses %j naming %s', (value, message) => {
    expect(validateSimulatorConfigFile(value).join('; ')).toContain(message);
    expect(() => loadSimulatorConfigFile(file('bad.json', value))).toThrow(expect.objectContaining({ code: 'ERR_SIMULATOR_CONFIG' }));
  });
  it('refuses a file that is not JSON, and a missing CA file, naming it', () => {
    expect(() => loadSimulatorConfigFile(file('notjson.json', '{mode: sandbox}'))).toThrow(/not JSON/);
    expect(() => loadSimulatorConfigFile(file('noca.json', { callbackCaFiles: ['missing.pem'] }))).toThrow(/\/callbackCaFiles\/0: cannot read missing\.pem/);
  });
});

describe('credentials: from the environment, else generated test values', () => {
  it('takes COLLECT_CLIENT_KEY, COLLECT_SECRET_KEY and COLLECT_CALLBACK_TOKEN when set', () => {
    const c = credentialsFromEnv({ COLLECT_CLIENT_KEY: 'ck_env', COLLECT_SECRET_KEY: 'sk_env', COLLECT_CALLBACK_TOKEN: 'tok_env' }, 4);
    expect(c).toEqual({ clients: [{ clientId: 4, clientKey: 'ck_env', secretKey: 'sk_env' }], callbackToken: 'tok_env', generated: [] });
  });
  it('generates the missing ones, different every time', () => {
    const a = credentialsFromEnv({ COLLECT_CLIENT_KEY: 'ck_env' });
    const b = credentialsFromEnv({});
    expect(a.generated).toEqual(['secret_key', 'callback_token']);
    expect(b.generated).toEqual(['client_key', 'secret_key', 'callback_token']);
    expect(a.clients[0]!.secretKey).not.toBe(b.clients[0]!.secretKey);
  });
});

/** `simulate`, as a user starts it; a variable given as undefined is left unset. */
async function startCli(args: string[], env: Record<string, string | undefined> = {}): Promise<Omit<Started, 'url'> & { url: string }> {
  const started = startBin(['simulate', ...args], { env: defined(env) });
  return { ...started, url: await started.url };
}

/**
 * `simulate` for what it prints and refuses before it serves, from the command's code in this
 * process (the kit's variables only as `env` gives them, as for startCli): the words are tested
 * here, not the process; exit 2 reaching the process: suites/receiver/cli.test.ts.
 */
function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  return runHereWithoutKitEnv(['simulate', ...args], defined(env));
}

function defined(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

describe('collect-conformance simulate', () => {
  it('--list-faults prints every fault with its spec reference', async () => {
    const { code, stdout } = await runCli(['--list-faults']);
    expect(code).toBe(0);
    expect(stdout).toBe(formatFaults());
    for (const f of SIMULATOR_FAULTS) expect(stdout).toMatch(new RegExp(`^${f.name} +${f.specRef.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `, 'm'));
  });
  it('refuses an unknown --fault and an invalid config file with exit 2 naming the problem', async () => {
    const a = await runCli(['--fault', 'nope']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/--fault: unknown fault nope/);
    const b = await runCli(['--config', file('cli-bad.json', { retry: { attempts: 'many' } })]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/\/retry\/attempts: must be integer/);
  });
  it('with env credentials: listens, serves a signed collect of client_id 2 (the default), logs without secrets, stops on SIGTERM with exit 0', async () => {
    const env = { COLLECT_CLIENT_KEY: 'ck_cli_test_key', COLLECT_SECRET_KEY: 'sk_cli_test_secret', COLLECT_CALLBACK_TOKEN: 'tok_cli_test', COLLECT_SANDBOX_NUMBERS: '0501234567', COLLECT_CLIENT_ID: '' };
    const started = await startCli(['--time-scale', '0.01'], env);
    try {
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const body = JSON.stringify({ transaction_id: 'CLI-1', amount: '1.00', client_id: 2, customer_number: '0501234567', network_code: 'MTN', callback_url: 'https://127.0.0.1:9/cb' });
      const response = await request(`${started.url}/api/v1.0/collect/`, {
        method: 'POST', body,
        headers: { 'content-type': 'application/json', authorization: signBody(body, env.COLLECT_SECRET_KEY, { clientKey: env.COLLECT_CLIENT_KEY }).authorization! },
      });
      expect(response.statusCode).toBe(200);
      await response.body.dump();
    } finally {
      started.child.kill('SIGTERM');
    }
    expect(await started.exit).toBe(0);
    expect(started.stdout()).toBe(`listening on ${started.url}\n`);
    const err = started.stderr();
    expect(err).toMatch(/127\.0\.0\.1 POST \/api\/v1\.0\/collect\/ 200 accepted/);
    expect(err).toMatch(/sandbox mode, client_id 2, sources/);
    expect(err).toMatch(/simulate: SIGTERM, stopping/);
    expect(err).not.toMatch(/test credentials/);
    for (const secret of Object.values(env).slice(0, 3)) expect(err).not.toContain(secret);
  });
  it('COLLECT_CLIENT_ID chooses the client id (printed), over the config file; a bad value is exit 2 naming it', async () => {
    const started = await startCli(['--config', file('cli-client-id.json', { clientId: 5 })], { COLLECT_CLIENT_ID: '7' });
    started.child.kill('SIGTERM');
    expect(await started.exit).toBe(0);
    expect(started.stderr()).toMatch(/sandbox mode, client_id 7, sources/);
    const fromFile = await startCli(['--config', file('cli-client-id.json', { clientId: 5 })], { COLLECT_CLIENT_ID: '' });
    fromFile.child.kill('SIGTERM');
    expect(await fromFile.exit).toBe(0);
    expect(fromFile.stderr()).toMatch(/sandbox mode, client_id 5, sources/);
    const bad = await runCli([], { COLLECT_CLIENT_ID: 'two' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/COLLECT_CLIENT_ID: must be a positive integer \(got "two"\)/);
  });
  it('without env credentials: prints generated test values once on stderr, stops on SIGINT', async () => {
    const started = await startCli([], { COLLECT_CLIENT_KEY: undefined, COLLECT_SECRET_KEY: undefined, COLLECT_CALLBACK_TOKEN: undefined, COLLECT_CLIENT_ID: undefined });
    started.child.kill('SIGINT');
    expect(await started.exit).toBe(0);
    const err = started.stderr();
    expect(err.match(/test credentials/g)).toHaveLength(1);
    expect(err).toMatch(/secret_key=test_sk_[0-9a-f]{32}/);
    expect(err).toMatch(/sandbox mode, client_id 2, sources 127\.0\.0\.1 ::1, numbers 0244000001 0244000002/);
    expect(started.stdout()).not.toMatch(/test_sk_/);
  });
  it('a secret set but empty, or too short to redact, is exit 2 naming the variable (never printed)', async () => {
    const empty = await runCli([], { COLLECT_SECRET_KEY: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/COLLECT_SECRET_KEY is set but empty/);
    const short = await runCli([], { COLLECT_SECRET_KEY: 'longenough-secret', COLLECT_CALLBACK_TOKEN: 'tok7xyz' });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/COLLECT_CALLBACK_TOKEN holds 7 character\(s\); secrets of fewer than 8/);
    expect(short.stderr + short.stdout).not.toContain('tok7xyz');
  });
});

describe('harness/simulator/README.md stays in step with the code', () => {
  it('documents every error code and every fault', async () => {
    const { readFileSync } = await import('node:fs');
    const { REJECTIONS } = await import('../../harness/simulator/index.ts');
    const readme = readFileSync('harness/simulator/README.md', 'utf8');
    for (const [code, { status }] of Object.entries(REJECTIONS)) expect(readme, code).toContain(`| \`${code}\` | ${status} |`);
    for (const f of SIMULATOR_FAULTS) expect(readme, f.name).toContain(`| \`${f.name}\` |`);
  });
});

describe('sandbox numbers: COLLECT_SANDBOX_NUMBERS fills what the config file leaves out', () => {
  it('uses the env list when the file whitelists sources only, and the default list without env', async () => {
    const { sandboxNumbersFromEnv } = await import('../../harness/simulator/index.ts');
    const path = file('sources-only.json', { whitelist: { sources: ['127.0.0.1'] } });
    expect(loadSimulatorConfigFile(path, { COLLECT_SANDBOX_NUMBERS: '0201111111, 0202222222' }).config.whitelist)
      .toEqual({ sources: ['127.0.0.1'], customerNumbers: ['0201111111', '0202222222'] });
    expect(sandboxNumbersFromEnv({})).toEqual(['0244000001', '0244000002']);
  });
});
