// Configuration: programmatic (startReceiver) and the CLI's config file (JSON Schema 2020-12).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  RECEIVER_DEFAULTS, RECEIVER_FAULT_NAMES, ReceiverConfigError, loadReceiverConfigFile, parseReceiverConfigFile, resolveReceiverConfig, startReceiver,
} from '../../harness/receiver/index.ts';

function configError(run: () => unknown): ReceiverConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ReceiverConfigError);
    expect((error as ReceiverConfigError).code).toBe('ERR_RECEIVER_CONFIG');
    return error as ReceiverConfigError;
  }
  throw new Error('expected a ReceiverConfigError');
}

describe('resolveReceiverConfig: defaults and checks naming the field', () => {
  it('fills the defaults of DESIGN.md and generates a test token', () => {
    const config = resolveReceiverConfig();
    expect(config).toMatchObject({ callbackPath: '/callback', hooksPath: '/_conformance', hooks: true, timeScale: 1, faults: [] });
    expect(config.workMs).toBe(RECEIVER_DEFAULTS.workMs);
    expect(config.callbackToken).toMatch(/^test-[A-Za-z0-9_-]{24}$/);
    expect(resolveReceiverConfig().callbackToken).not.toBe(config.callbackToken);
  });
  it.each([
    [{ faults: ['no-token-check', 'nope'] }, /faults\[1\]: unknown fault "nope"/],
    [{ timeScale: 0 }, /timeScale: must be a number > 0/],
    [{ workMs: -1 }, /workMs/],
    [{ callbackPath: 'callback' }, /callbackPath: must start with "\/"/],
    [{ hooksPath: '/h?x' }, /hooksPath/],
    [{ callbackToken: '' }, /callbackToken/],
    [{ callbackToken: 'a\r\nb' }, /callbackToken/],
    [{ callbackToken: ' padded' }, /callbackToken/],
    [{ callbackToken: 'jeton-sécurisé' }, /callbackToken: must be printable ASCII/],
    [{ hooksPath: '/callback' }, /hooksPath: must not overlap/],
    [{ transactionIds: { template: '{id}-{order}' } }, /transactionIds\.template: unknown placeholder \{order\}/],
    [{ transactionIds: { template: '{uuid}', maxLength: 20 } }, /transactionIds\.maxLength: 20 is too short/],
  ])('refuses %j', (partial, message) => {
    expect(configError(() => resolveReceiverConfig(partial as never)).message).toMatch(message);
  });
  it('startReceiver refuses a bad config before listening', async () => {
    await expect(startReceiver({ faults: ['bogus' as never] })).rejects.toThrow(/faults\[0\]/);
  });
});

describe('config file: validated by config.schema.json, errors name the JSON path', () => {
  it('accepts a full file', () => {
    const value = { host: '127.0.0.1', port: 0, callbackPath: '/cb', hooksPath: '/h', hooks: false, workMs: 10, timeScale: 0.5, faults: ['slow-reply'] };
    expect(parseReceiverConfigFile(value)).toEqual(value);
  });
  it('accepts every fault of RECEIVER_FAULTS, the storm\'s volume faults too (the schema takes the list from faults.ts)', () => {
    for (const name of RECEIVER_FAULT_NAMES) expect(parseReceiverConfigFile({ faults: [name] }), name).toEqual({ faults: [name] });
    expect(RECEIVER_FAULT_NAMES).toEqual(expect.arrayContaining(['recent-ids-dedupe', 'pool-held-before-reply', 'dropping-work-queue']));
  });
  it.each([
    [{ port: 70000 }, '/port: must be <= 65535'],
    [{ port: '80' }, '/port: must be integer'],
    [{ faults: ['nope'] }, '/faults/0: must be one of ["no-token-check"'],
    [{ timeScale: 0 }, '/timeScale: must be > 0'],
    [{ hooks: 'yes' }, '/hooks: must be boolean'],
    [{ callbackToken: 'x' }, '/callbackToken: unknown key (the token comes from COLLECT_CALLBACK_TOKEN'],
    [{ tls: { keyFile: 'k.pem' } }, '/tls/certFile: is required'],
    [[], '/: must be object'],
  ])('refuses %j', (value, message) => {
    expect(configError(() => parseReceiverConfigFile(value, 'f.json')).message).toContain(message);
  });
  it('reads tls files relative to the config file and splits out host/port', () => {
    const dir = mkdtempSync(join(tmpdir(), 'receiver-config-'));
    writeFileSync(join(dir, 'k.pem'), 'KEY');
    writeFileSync(join(dir, 'c.pem'), 'CERT');
    writeFileSync(join(dir, 'r.json'), JSON.stringify({ port: 0, host: '127.0.0.1', workMs: 5, tls: { keyFile: 'k.pem', certFile: 'c.pem' } }));
    expect(loadReceiverConfigFile(join(dir, 'r.json'))).toEqual({
      config: { workMs: 5, tls: { key: 'KEY', cert: 'CERT' } },
      listen: { host: '127.0.0.1', port: 0 },
    });
  });
  it('names the file and the field when a tls file is missing, and refuses non-JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'receiver-config-'));
    writeFileSync(join(dir, 'r.json'), JSON.stringify({ tls: { keyFile: 'missing.pem', certFile: 'c.pem' } }));
    expect(configError(() => loadReceiverConfigFile(join(dir, 'r.json'))).message).toMatch(/\/tls\/keyFile: cannot read missing\.pem/);
    writeFileSync(join(dir, 'bad.json'), '{');
    expect(configError(() => loadReceiverConfigFile(join(dir, 'bad.json'))).message).toMatch(/not JSON/);
  });
});
