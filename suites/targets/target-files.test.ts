import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { execFileSync } from 'node:child_process';
import { runBin } from '../support/cli-process.ts';
import {
  loadTargetFile, parseTarget, TargetFileError, secretsOf, redactTarget, probeTarget, isDefaulted,
  type ResolvedServiceTarget,
} from '../../harness/targets/index.ts';
import { TargetUnreachableError } from '../../harness/tool/index.ts';

const env = { COLLECT_CLIENT_KEY: 'ck-test-value-1', COLLECT_SECRET_KEY: 'sk-test-value-2', COLLECT_CALLBACK_TOKEN: 'tok-test-value-3' };

// The two examples of DESIGN.md "Target files", verbatim.
const serviceFile = {
  side: 'service', baseUrl: 'http://127.0.0.1:9000', mode: 'sandbox', clientId: 2,
  clientKey: { env: 'COLLECT_CLIENT_KEY' }, secretKey: { env: 'COLLECT_SECRET_KEY' }, callbackToken: { env: 'COLLECT_CALLBACK_TOKEN' },
  networkCode: 'MTN',
  customerNumbers: { whitelisted: ['0244000001'], failing: ['0244000002'], notWhitelisted: ['0244999999'] },
  sources: { notWhitelisted: { localAddress: '127.0.0.2' } },
  listener: { host: '127.0.0.1', port: 0, publicUrl: null, tls: false },
  timing: { callbackTimeoutMs: 10000, retryWindowMs: 20000 },
};
const receiverFile = {
  side: 'receiver', callbackUrl: 'http://127.0.0.1:8081/payments/callback',
  callbackToken: { env: 'COLLECT_CALLBACK_TOKEN' }, hooksUrl: 'http://127.0.0.1:8081/_conformance',
  timing: { replyDeadlineMs: 3000 },
};

function errorOf(fn: () => unknown): TargetFileError {
  try {
    fn();
  } catch (error) {
    if (error instanceof TargetFileError) return error;
    throw error;
  }
  throw new Error('expected a TargetFileError');
}

describe('DESIGN.md target files: the documented examples load', () => {
  it('service example resolves its secrets from env and keeps every key', () => {
    const t = parseTarget(serviceFile, env) as ResolvedServiceTarget;
    expect(t.side).toBe('service');
    expect(t.clientKey).toBe(env.COLLECT_CLIENT_KEY);
    expect(t.secretKey).toBe(env.COLLECT_SECRET_KEY);
    expect(t.callbackToken).toBe(env.COLLECT_CALLBACK_TOKEN);
    expect(t.customerNumbers).toEqual(serviceFile.customerNumbers);
    expect(t.sources).toEqual({ notWhitelisted: { localAddress: '127.0.0.2' } });
    expect(t.listener).toEqual({ host: '127.0.0.1', port: 0, publicUrl: null, tls: false });
    expect(t.timing).toEqual({ callbackTimeoutMs: 10000, retryWindowMs: 20000 });
  });
  it('receiver example resolves', () => {
    const t = parseTarget(JSON.stringify(receiverFile), env);
    expect(t).toEqual({
      side: 'receiver', callbackUrl: receiverFile.callbackUrl, callbackToken: env.COLLECT_CALLBACK_TOKEN,
      // The hooks are one way of observing the receiver's records (DESIGN.md "Observing a receiver as it is").
      observe: { kind: 'hooks', url: receiverFile.hooksUrl }, timing: { replyDeadlineMs: 3000 },
    });
  });
  it('defaults: replyDeadlineMs 3000; listener 127.0.0.1:0 plain; callbackTimeoutMs 10000, retryWindowMs 20000', () => {
    expect(parseTarget({ side: 'receiver', callbackUrl: 'http://x.test/cb' }, {})).toEqual({
      side: 'receiver', callbackUrl: 'http://x.test/cb', timing: { replyDeadlineMs: 3000 },
    });
    const { listener, timing, sources, ...rest } = serviceFile;
    void listener; void timing; void sources;
    const t = parseTarget({ ...rest, customerNumbers: { whitelisted: ['0244000001'] } }, env) as ResolvedServiceTarget;
    expect(t.listener).toEqual({ host: '127.0.0.1', port: 0, publicUrl: null, tls: false });
    expect(t.timing).toEqual({ callbackTimeoutMs: 10000, retryWindowMs: 20000 });
    expect(t.customerNumbers).toEqual({ whitelisted: ['0244000001'], notWhitelisted: [] });
    expect(t.sources).toBeUndefined();
  });
  it('isDefaulted tells a deadline the file sets from the default', () => {
    expect(isDefaulted(parseTarget({ side: 'receiver', callbackUrl: 'http://x.test/cb' }, {}), 'timing.replyDeadlineMs')).toBe(true);
    expect(isDefaulted(parseTarget(receiverFile, env), 'timing.replyDeadlineMs')).toBe(false);
    expect(isDefaulted({ side: 'receiver', callbackUrl: 'http://x.test/cb', timing: { replyDeadlineMs: 5 } }, 'timing.replyDeadlineMs')).toBe(false);
  });
  it('transactionIds resolves on both sides; the template defaults to {id}; absent stays absent', () => {
    const shape = { template: '{id}-{uuid}', maxLength: 64 };
    expect(parseTarget({ ...serviceFile, transactionIds: shape }, env).transactionIds).toEqual(shape);
    expect(parseTarget({ ...receiverFile, transactionIds: { maxLength: 30 } }, env).transactionIds).toEqual({ template: '{id}', maxLength: 30 });
    expect(parseTarget(receiverFile, env).transactionIds).toBeUndefined();
  });
  it('rejection resolves on the service side as written; absent stays absent (the default applies)', () => {
    const rejection = [{ pointer: '/status', in: ['error'] }, { pointer: '/error_code', notIn: [null, 0] }];
    expect((parseTarget({ ...serviceFile, rejection }, env) as ResolvedServiceTarget).rejection).toEqual(rejection);
    expect((parseTarget(serviceFile, env) as ResolvedServiceTarget).rejection).toBeUndefined();
  });
  it('status (§4.2): keys left out keep the suite\'s position; false says there is none; absent stays absent', () => {
    const status = (file: unknown) => (parseTarget(file, env) as ResolvedServiceTarget).status;
    expect(status({ ...serviceFile, status: { method: 'GET', path: '/api/v2/payments/status' } })).toEqual({ method: 'GET', path: '/api/v2/payments/status', pointer: '/status' });
    expect(status({ ...serviceFile, status: { pointer: '/data/state' } })).toEqual({ method: 'POST', path: '/api/v1.0/transaction_status/', pointer: '/data/state' });
    expect(status({ ...serviceFile, status: false })).toBe(false);
    expect(status(serviceFile)).toBeUndefined();
  });
  it('sources.notWhitelisted may be a proxy', () => {
    const t = parseTarget({ ...serviceFile, sources: { notWhitelisted: { proxy: 'http://127.0.0.1:3128' } } }, env) as ResolvedServiceTarget;
    expect(t.sources).toEqual({ notWhitelisted: { proxy: 'http://127.0.0.1:3128' } });
  });
});

describe('ERR_TARGET_INVALID: an invalid target names the JSON path of the bad field', () => {
  const rows: Array<[string, unknown, string]> = [
    ['non-integer timing', { ...serviceFile, timing: { callbackTimeoutMs: 1.5 } }, '/timing/callbackTimeoutMs: must be integer'],
    ['unknown key', { ...receiverFile, timing: { replyDeadline: 5 } }, '/timing/replyDeadline: unknown key'],
    ['unknown top-level key', { ...receiverFile, extra: true }, '/extra: unknown key'],
    ['missing side', { callbackUrl: 'http://x.test' }, '/side: is required'],
    ['unknown side', { side: 'sdk' }, '/side: must be one of ["service","receiver","client"]'],
    ['missing callbackUrl', { side: 'receiver' }, '/callbackUrl: is required'],
    ['non-http URL', { ...receiverFile, callbackUrl: 'ftp://x.test/cb' }, '/callbackUrl: must be an http:// or https:// URL'],
    ['bad mode', { ...serviceFile, mode: 'live' }, '/mode: must be one of ["sandbox","production"]'],
    ['numbers as JSON numbers', { ...serviceFile, customerNumbers: { whitelisted: [244000001] } }, '/customerNumbers/whitelisted/0: must be string'],
    ['empty whitelist', { ...serviceFile, customerNumbers: { whitelisted: [] } }, '/customerNumbers/whitelisted: must NOT have fewer than 1 items'],
    ['bad env name', { ...receiverFile, callbackToken: { env: 'not a name' } }, '/callbackToken/env: must match pattern'],
    ['literal secret', { ...receiverFile, callbackToken: 'hunter2-secret' }, '/callbackToken: secrets are not written in target files'],
    ['bad source', { ...serviceFile, sources: { notWhitelisted: { localAddress: 'not-an-ip' } } }, '/sources/notWhitelisted'],
    ['listener port out of range', { ...serviceFile, listener: { port: 70000 } }, '/listener/port: must be <= 65535'],
    ['not JSON', '{"side": ', ': not JSON'],
    ['transactionIds: unknown placeholder', { ...receiverFile, transactionIds: { template: '{id}-{order}' } }, '/transactionIds/template: unknown placeholder {order}'],
    ['transactionIds: no placeholder', { ...serviceFile, transactionIds: { template: 'T-1' } }, '/transactionIds/template: "T-1" holds neither {id} nor {uuid}'],
    ['transactionIds: maxLength too short', { ...serviceFile, transactionIds: { template: '{id}-{uuid}', maxLength: 40 } }, '/transactionIds/maxLength: 40 is too short'],
    ['transactionIds: unknown key', { ...receiverFile, transactionIds: { template: '{id}', pattern: '.*' } }, '/transactionIds/pattern: unknown key'],
    ['rejection: a rule with neither in nor notIn', { ...serviceFile, rejection: [{ pointer: '/status' }] }, '/rejection/0: a rule is {"pointer", "in": [values that mean rejected]} or {"pointer", "notIn": [values that mean accepted]}'],
    ['rejection: a rule with both', { ...serviceFile, rejection: [{ pointer: '/s', in: [1], notIn: [2] }] }, '/rejection/0: a rule is'],
    ['rejection: not a JSON pointer', { ...serviceFile, rejection: [{ pointer: 'status', in: ['error'] }] }, '/rejection/0/pointer: must be a JSON pointer (RFC 6901)'],
    ['rejection: empty list', { ...serviceFile, rejection: [] }, '/rejection: must NOT have fewer than 1 items'],
    ['rejection on the receiver side', { ...receiverFile, rejection: [{ pointer: '/s', in: [1] }] }, '/rejection: unknown key'],
    ['status: true', { ...serviceFile, status: true }, '/status: must be false (no status endpoint) or {"method", "path", "pointer"}'],
    ['status: an unknown method', { ...serviceFile, status: { method: 'PUT' } }, '/status/method: must be one of ["POST","GET"]'],
    ['status: a path without /', { ...serviceFile, status: { path: 'transaction_status' } }, '/status/path: must be a path under baseUrl, starting with /'],
    ['status: not a JSON pointer', { ...serviceFile, status: { pointer: 'status' } }, '/status/pointer: must be a JSON pointer (RFC 6901)'],
    ['status: an unknown key', { ...serviceFile, status: { url: '/x' } }, '/status/url: unknown key'],
    ['transactionIds: maxLength 0', { ...receiverFile, transactionIds: { maxLength: 0 } }, '/transactionIds/maxLength: must be >= 1'],
  ];
  for (const [name, file, expected] of rows) {
    it(`${name} → ${expected}`, () => {
      const error = errorOf(() => parseTarget(file, env));
      expect(error.code).toBe('ERR_TARGET_INVALID');
      expect(error.message).toContain(expected);
    });
  }
  it('a file without "side" says only that, not what a service target would need', () => {
    const error = errorOf(() => parseTarget({ callbackUrl: 'http://x.test/cb', hooksUrl: 'http://x.test/h' }, env));
    expect(error.problems).toEqual(['/side: is required']);
  });
  it('user:password in a URL is refused by its field, the password never echoed (DESIGN.md: no secret in a target file)', () => {
    for (const [file, pointer] of [
      [{ ...receiverFile, callbackUrl: 'https://hook:pw-Secret-9@x.test/cb' }, '/callbackUrl'],
      [{ ...receiverFile, hooksUrl: 'http://hook:pw-Secret-9@x.test/_conformance' }, '/hooksUrl'],
      [{ ...serviceFile, baseUrl: 'http://api:pw-Secret-9@x.test' }, '/baseUrl'],
      [{ ...serviceFile, sources: { notWhitelisted: { proxy: 'http://px:pw-Secret-9@127.0.0.1:3128' } } }, '/sources/notWhitelisted/proxy'],
      [{ ...serviceFile, listener: { publicUrl: 'https://tun:pw-Secret-9@tunnel.test' } }, '/listener/publicUrl'],
      [{ ...serviceFile, listener: { plainPublicUrl: 'http://pw-Secret-9@tunnel.test' } }, '/listener/plainPublicUrl'],
    ] as const) {
      const error = errorOf(() => parseTarget(file, env));
      expect(error.code).toBe('ERR_TARGET_INVALID');
      expect(error.pointer).toBe(pointer);
      expect(error.message).toContain(`${pointer}: must not carry a user name or password`);
      expect(error.message).not.toContain('pw-Secret-9');
    }
  });
  it('a timing value above its bound names the field (a 1e15 ms deadline is no deadline)', () => {
    for (const [file, expected] of [
      [{ ...receiverFile, timing: { replyDeadlineMs: 1e15 } }, '/timing/replyDeadlineMs: must be <= 60000'],
      [{ ...serviceFile, timing: { callbackTimeoutMs: 600_001 } }, '/timing/callbackTimeoutMs: must be <= 600000'],
      [{ ...serviceFile, timing: { retryWindowMs: 3_600_001 } }, '/timing/retryWindowMs: must be <= 3600000'],
    ] as const) {
      expect(errorOf(() => parseTarget(file, env)).message).toContain(expected);
    }
    expect(parseTarget({ ...receiverFile, timing: { replyDeadlineMs: 60_000 } }, env).timing).toEqual({ replyDeadlineMs: 60_000 });
  });
  it('an environment variable that is set but empty is named as such, not as "not set"', () => {
    const error = errorOf(() => parseTarget(receiverFile, { COLLECT_CALLBACK_TOKEN: '' }));
    expect(error.message).toContain('/callbackToken: environment variable COLLECT_CALLBACK_TOKEN is set but empty');
  });
  it('a secret shorter than 8 characters is refused by its field (it could not be redacted safely), its value never echoed', () => {
    const error = errorOf(() => parseTarget(receiverFile, { COLLECT_CALLBACK_TOKEN: 'ab1' }));
    expect(error.pointer).toBe('/callbackToken');
    expect(error.message).toContain('COLLECT_CALLBACK_TOKEN holds 3 character(s); secrets of fewer than 8');
    expect(error.message).not.toContain('ab1');
    expect(parseTarget(receiverFile, { COLLECT_CALLBACK_TOKEN: '12345678' }).callbackToken).toBe('12345678');
  });
  it('a literal secret is never echoed in the message', () => {
    expect(errorOf(() => parseTarget({ ...receiverFile, callbackToken: 'hunter2-secret' }, env)).message).not.toContain('hunter2');
  });
  it('a missing environment variable names the field and the variable', () => {
    const error = errorOf(() => parseTarget(serviceFile, { COLLECT_CLIENT_KEY: 'x-value-1', COLLECT_CALLBACK_TOKEN: 'y-value-1' }));
    expect(error.message).toContain('/secretKey: environment variable COLLECT_SECRET_KEY is not set');
    expect(error.pointer).toBe('/secretKey');
  });
  it('an unreadable file and an unreadable CA are ERR_TARGET_INVALID too', () => {
    expect(errorOf(() => loadTargetFile('/nonexistent/target.json', env)).message).toContain('cannot read the file (ENOENT)');
    expect(errorOf(() => parseTarget({ ...receiverFile, ca: { file: '/nonexistent/ca.pem' } }, env)).message).toContain('/ca/file: cannot read');
  });
});

describe('target files on disk: what an editor or a shell may hand over', () => {
  it('a UTF-8 byte-order mark before the JSON is accepted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-target-'));
    writeFileSync(join(dir, 'bom.json'), `\uFEFF${JSON.stringify(receiverFile)}`);
    expect(loadTargetFile(join(dir, 'bom.json'), env).side).toBe('receiver');
  });
  it('a FIFO or a directory is refused at once instead of blocking the read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-target-'));
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    const started = performance.now();
    expect(errorOf(() => loadTargetFile(join(dir, 'fifo.json'), env)).message).toContain('not a regular file (a FIFO)');
    expect(errorOf(() => loadTargetFile(dir, env)).message).toContain('not a regular file (a directory)');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

/** `[[[…]]]` nested `depth` levels: JSON.parse reads it; a recursive walk over it overflows the stack. */
function nested(depth: number): unknown {
  return JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
}

describe('issue 22 point 13: a value nested 20,000 levels deep is exit 2 naming the field, not a stack overflow', () => {
  // `rejection[].in` takes any JSON values, so the schema lets it through to the loader's walks.
  const deepService = { ...serviceFile, rejection: [{ pointer: '/status', in: [nested(20_000)] }] };
  it('the command as installed: exit 2, the field named, no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-target-deep-'));
    const file = join(dir, 'deep.json');
    // JSON.stringify would overflow on it too: the text is written as a user's tool would.
    writeFileSync(file, JSON.stringify({ ...deepService, rejection: [{ pointer: '/status', in: ['X'] }] }).replace('["X"]', `[${'['.repeat(20_000)}${']'.repeat(20_000)}]`));
    const ran = await runBin(['run', '--target', file, '--report-dir', join(dir, 'out')], { env, timeoutMs: 60_000 });
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('/rejection/0/in/0/0/0: nests arrays or objects more than 128 levels deep');
    expect(ran.stderr).not.toMatch(/RangeError|call stack|\n\s+at /);
  }, 60_000);
  it('loadTargetFile and parseTarget: ERR_TARGET_INVALID, the pointer of the field', () => {
    const error = errorOf(() => parseTarget(deepService, env));
    expect(error.code).toBe('ERR_TARGET_INVALID');
    expect(error.pointer).toBe('/rejection/0/in/0/0/0');
    // Nested where the schema allows no value at all: the same answer, before ajv looks.
    expect(errorOf(() => parseTarget({ ...receiverFile, extra: nested(20_000) }, env)).pointer).toBe('/extra/0/0/0/0/0');
  });
  it('a value nested 128 levels is still read (the limit is far above any real file)', () => {
    const rules = [{ pointer: '/status', in: [nested(120)] }];
    expect(parseTarget({ ...serviceFile, rejection: rules }, env).side).toBe('service');
  });
});

describe('target files on disk: CA relative to the file, secrets redacted for reports', () => {
  it('loadTargetFile reads "ca": {"file"} relative to the target file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-target-'));
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    writeFileSync(join(dir, 'ca.pem'), pem);
    writeFileSync(join(dir, 'target.json'), JSON.stringify({ ...receiverFile, callbackUrl: 'https://127.0.0.1:8443/cb', ca: { file: 'ca.pem' } }));
    const t = loadTargetFile(join(dir, 'target.json'), env);
    expect(t.caCert).toBe(pem);
  });
  it('secretsOf lists every secret value; redactTarget shows none of them', () => {
    const t = parseTarget(serviceFile, env);
    expect(secretsOf(t).sort()).toEqual(Object.values(env).sort());
    const shown = JSON.stringify(redactTarget(t));
    for (const secret of Object.values(env)) expect(shown).not.toContain(secret);
    expect(redactTarget(t).clientKey).toEqual({ env: 'COLLECT_CLIENT_KEY', value: '[REDACTED]' });
    expect(redactTarget({ side: 'receiver', callbackUrl: 'http://x.test', callbackToken: 'abcdef', timing: { replyDeadlineMs: 1 } }).callbackToken).toBe('[REDACTED]');
  });
});

describe('probeTarget: exit 3 needs a first connection that fails', () => {
  it('a listening port is reachable; a closed one throws ERR_TARGET_UNREACHABLE', async () => {
    const server = createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await probeTarget({ side: 'receiver', callbackUrl: `http://127.0.0.1:${port}/cb`, timing: { replyDeadlineMs: 1 } });
    await new Promise<void>((r) => server.close(() => r()));
    const error = await probeTarget({ side: 'receiver', callbackUrl: `http://127.0.0.1:${port}/cb`, timing: { replyDeadlineMs: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetUnreachableError);
    expect((error as TargetUnreachableError).message).toBe(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED (is the receiver listening on 127.0.0.1:${port}?)`);
  });
});

describe('receiver "confirms" (§6 rule 5): where the harness serves the status endpoint, and the receiver\'s keys', () => {
  const confirming = {
    ...receiverFile,
    confirms: { listener: { port: 8082 }, clientId: 2, clientKey: { env: 'COLLECT_CLIENT_KEY' }, secretKey: { env: 'COLLECT_SECRET_KEY' } },
  };
  it('resolves its keys from env, the listener host to 127.0.0.1, the status endpoint to the suite\'s position', () => {
    const t = parseTarget(confirming, env);
    expect(t.side === 'receiver' && t.confirms).toEqual({
      listener: { host: '127.0.0.1', port: 8082, publicUrl: null }, clientId: 2, clientKey: 'ck-test-value-1', secretKey: 'sk-test-value-2',
      status: { method: 'POST', path: '/api/v1.0/transaction_status/', pointer: '/status' },
    });
  });
  it('"status" states what the receiver calls; each key left out keeps the position', () => {
    const t = parseTarget({ ...confirming, status: { method: 'GET', pointer: '/data/state' } }, env);
    expect(t.side === 'receiver' && t.confirms?.status).toEqual({ method: 'GET', path: '/api/v1.0/transaction_status/', pointer: '/data/state' });
  });
  it('"status" without "confirms" is refused: it says what a confirming receiver calls', () => {
    expect(errorOf(() => parseTarget({ ...receiverFile, status: { path: '/status' } }, env)).message).toMatch(/confirms/);
  });
  it('a literal key inside confirms is refused by its path, never echoed', () => {
    const e = errorOf(() => parseTarget({ ...confirming, confirms: { ...confirming.confirms, secretKey: 'sk-literal-in-file' } }, env));
    expect(e.pointer).toBe('/confirms/secretKey');
    expect(e.message).not.toContain('sk-literal-in-file');
  });
  it('a missing variable names /confirms/clientKey and the variable', () => {
    const e = errorOf(() => parseTarget(confirming, { ...env, COLLECT_CLIENT_KEY: undefined }));
    expect(e.pointer).toBe('/confirms/clientKey');
    expect(e.message).toContain('COLLECT_CLIENT_KEY');
  });
  it('the listener port is fixed: 0 is refused (the receiver is configured with it before the run)', () => {
    expect(errorOf(() => parseTarget({ ...confirming, confirms: { ...confirming.confirms, listener: { port: 0 } } }, env)).pointer).toBe('/confirms/listener/port');
  });
  it('secretsOf lists the confirming keys; redactTarget shows their references only', () => {
    const t = parseTarget(confirming, env);
    expect(secretsOf(t)).toEqual(expect.arrayContaining(['ck-test-value-1', 'sk-test-value-2']));
    const shown = JSON.stringify(redactTarget(t));
    expect(shown).not.toContain('ck-test-value-1');
    expect(shown).not.toContain('sk-test-value-2');
    expect(redactTarget(t).confirms).toMatchObject({ clientKey: { env: 'COLLECT_CLIENT_KEY', value: '[REDACTED]' }, secretKey: { env: 'COLLECT_SECRET_KEY', value: '[REDACTED]' } });
  });
});
