// The commands end to end, as a user runs them: `collect-conformance vectors …`
// and `… sign --body FILE`, checking exit status (DESIGN.md), output and the report files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPORT_FILES, validateReportJson } from '../../harness/report/index.ts';
import { signBody } from '../../harness/signing/index.ts';
import { writeFixtureVectors } from './fixture-vectors.ts';
import { fixtureCommand, REPO_ROOT, REAL_VECTORS_PRESENT } from './helpers.ts';
import { runBin, type Ran } from '../support/cli-process.ts';

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return runBin(args, { cwd: REPO_ROOT, env, timeoutMs: 60_000 });
}

let work: string;
let vectorsDir: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'cc-cli-'));
  vectorsDir = writeFixtureVectors();
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(vectorsDir, { recursive: true, force: true });
});

function reportOf(dir: string): { cases: Array<{ id: string; verdict: string; reason?: string }>; kind: string; target: Record<string, unknown>; diagnoses?: Array<{ id: string; cases: string[] }> } {
  for (const f of REPORT_FILES) expect(existsSync(join(dir, f)), f).toBe(true);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  expect(validateReportJson(report)).toEqual([]);
  return report;
}

describe('vectors: exit 0 when no FAIL or ERROR, report files written (DESIGN.md)', () => {
  it('the correct fixture signer', async () => {
    const dir = join(work, 'correct');
    const ran = await cli(['vectors', '--vectors-dir', vectorsDir, '--report-dir', dir, '--signer', fixtureCommand('correct-signer.mjs')]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.split('\n').filter((l) => /^PASS\s+vectors\.signature\.\d+/.test(l))).toHaveLength(8);
    expect(ran.stdout).toContain('8 cases: 8 PASS, 0 FAIL, 0 WARN, 0 SKIP, 0 ERROR');
    const report = reportOf(dir);
    expect(report.kind).toBe('vectors');
    expect(report.target).toMatchObject({ side: 'signer', command: fixtureCommand('correct-signer.mjs') });
  });
  it('what the signer said to the hello, said after its vectors (version 2, and a version-1 signer with why)', async () => {
    const greeted = await cli(['vectors', '--vectors-dir', vectorsDir, '--report-dir', join(work, 'hello-2'), '--signer', fixtureCommand('hello-signer.mjs')]);
    expect(greeted.code, greeted.stderr).toBe(0);
    expect(greeted.stdout).toContain('\nthe signer speaks protocol 2 (supports sign; JavaScript canon.mjs (fixture))\n');
    const plain = await cli(['vectors', '--vectors-dir', vectorsDir, '--report-dir', join(work, 'hello-1'), '--signer', fixtureCommand('correct-signer.mjs')]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^the signer speaks protocol 1 \(.+\)$/m);
  });
  it('the built-in signer runs the callback vectors too', async () => {
    const dir = join(work, 'builtin');
    const ran = await cli(['vectors', '--vectors-dir', vectorsDir, '--report-dir', dir]);
    expect(ran.code, ran.stderr).toBe(0);
    const ids = reportOf(dir).cases.map((c) => c.id);
    expect(ids).toContain('vectors.callback-url.2');
    expect(ids).toContain('vectors.callback-query.1');
    expect(ids).toHaveLength(11);
  });
  it.runIf(REAL_VECTORS_PRESENT)('the built-in signer passes every published vector', async () => {
    const dir = join(work, 'published');
    const ran = await cli(['vectors', '--report-dir', dir]);
    expect(ran.code, ran.stdout.split('\n').filter((l) => !l.startsWith('PASS')).join('\n')).toBe(0);
    expect(reportOf(dir).cases.every((c) => c.verdict === 'PASS')).toBe(true);
  });
});

describe('vectors: exit 1 on a FAIL or ERROR, each named on its line', () => {
  it('localeCompare signer: FAIL/WARN lines name locale-order', async () => {
    const dir = join(work, 'locale');
    const ran = await cli(['vectors', '--vectors-dir', vectorsDir, '--report-dir', dir, '--signer', fixtureCommand('locale-signer.mjs')]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toMatch(/^FAIL\s+vectors\.signature\.2\s.*`locale-order`/m);
    expect(ran.stdout).toMatch(/^WARN\s+vectors\.signature\.3\s.*`locale-order`/m);
    expect(reportOf(dir).cases.find((c) => c.id === 'vectors.signature.2')?.reason).toContain('locale-order');
    // The summary settles what single vectors leave ambiguous (the signer sorts, so not body-order),
    // on the terminal before the summary line and as the report's diagnoses.
    const summary = ran.stdout.slice(ran.stdout.lastIndexOf('vectors.signature.8'));
    expect(summary).toMatch(/\n {2}1\. follows `locale-order` \(JavaScript\) on key order: vectors 2, 3; the service would refuse such a request \(401 INVALID_SIGNATURE\)[^\n]*\n[\s\S]*\n\d+ cases:/);
    expect(summary).not.toMatch(/\n {2}2\. /);
    expect(reportOf(dir).diagnoses).toEqual([expect.objectContaining({ id: 'signer.locale-order', cases: ['vectors.signature.2', 'vectors.signature.3'] })]);
    // report.md and index.html show the same diagnosis before the cases.
    for (const file of ['report.md', 'index.html']) {
      const text = readFileSync(join(dir, file), 'utf8');
      const at = text.search(/follows .{0,6}locale-order/);
      expect(at, file).toBeGreaterThan(-1);
      expect(at, file).toBeLessThan(text.indexOf('vectors.signature.2'));
    }
  });
  it.each([
    // ASCII key-order vectors are valid: byte order is what "ascending" means in every default sort.
    ['locale-signer.mjs', 'locale-order', ['vectors.signature.7', 'vectors.signature.8', 'vectors.signature.18']],
    ['encoding-signer.mjs', 'url-encoded-values', ['vectors.signature.19']],
  ])('published vectors: %s fails, naming %s on the vectors it gets wrong', async (fixture, label, ids) => {
    const dir = join(work, `published-${label}`);
    const ran = await cli(['vectors', '--report-dir', dir, '--signer', fixtureCommand(fixture)]);
    expect(ran.code).toBe(1);
    const cases = reportOf(dir).cases;
    for (const id of ids) {
      const found = cases.find((c) => c.id === id);
      expect(found?.verdict, id).toBe('FAIL');
      expect(found?.reason, id).toContain(`\`${label}\``);
    }
    // A faulty signer is never blamed where it agrees with the suite.
    expect(cases.find((c) => c.id === 'vectors.signature.6')?.verdict).toBe('PASS');
  });
  it('a hanging signer: ERROR for that vector, the rest still run', async () => {
    const dir = join(work, 'hang');
    const ran = await cli(['vectors', '--vectors-dir', vectorsDir, '--report-dir', dir, '--timeout', '400', '--signer', fixtureCommand('hang-signer.mjs', 'vectors.signature.4')]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toMatch(/^ERROR\s+vectors\.signature\.4\s.*ERR_SIGNER_TIMEOUT/m);
    expect(ran.stdout).toMatch(/^PASS\s+vectors\.signature\.8\s/m);
    expect(reportOf(dir).cases).toHaveLength(8);
  });
  it('--only selects by glob', async () => {
    const dir = join(work, 'only');
    const ran = await cli(['vectors', '--vectors-dir', vectorsDir, '--report-dir', dir, '--only', 'vectors.signature.5*,vectors.signature.[7]', '--signer', fixtureCommand('encoding-signer.mjs')]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(reportOf(dir).cases.map((c) => c.id)).toEqual(['vectors.signature.5']);
  });
});

describe('vectors: exit 2 on bad usage', () => {
  it.each([
    [['--timeout', 'soon'], '--timeout'],
    [['--only', 'nothing.matches'], 'no vector matches'],
    [['--vectors-dir', '/nonexistent-dir'], 'does not exist'],
    [['--signer', ' '], '--signer is empty'],
    [['--signer', 'true', '--only', 'vectors.callback-url.3*'], 'with --signer only the signature vectors run'],
  ])('%j', async (args, message) => {
    const ran = await cli(['vectors', '--report-dir', join(work, 'usage'), ...args]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(message);
  });
  it('a --report-dir that cannot be created exits 2, naming it', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, '');
    const ran = await cli(['vectors', '--report-dir', join(file, 'sub')]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^collect-conformance: --report-dir: cannot create report directory/);
  });
  it('--help explains the protocol', async () => {
    const ran = await cli(['vectors', '--help']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('{"id": "vectors.signature.17", "body"');
    expect(ran.stdout).toContain('ERR_SIGNER_TIMEOUT');
  });
});

describe('sign: every stage for one body; the secret only from COLLECT_SECRET_KEY, never printed', () => {
  const SECRET = 'sign-test-secret-4f1a9c';
  const CLIENT = 'sign-test-client-77b2';
  const BODY = '{"transaction_id":"T1","amount":15.0,"client_id":2,"customer_number":"0244000001","network_code":"MTN","callback_url":"https://x.test/cb?a=1&b=2"}';
  let file: string;
  beforeAll(() => {
    file = join(work, 'body.json');
    writeFileSync(file, BODY);
  });

  it('prints pairs, message, signature and the header', async () => {
    const ran = await cli(['sign', '--body', file], { COLLECT_SECRET_KEY: SECRET, COLLECT_CLIENT_KEY: CLIENT });
    const stages = signBody(BODY, SECRET);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('  amount = 15.0');
    expect(ran.stdout).toContain(`message        ${stages.message}`);
    expect(ran.stdout).toContain(`signature      ${stages.signature}`);
    expect(ran.stdout).toContain(`authorization  HMAC [REDACTED]:${stages.signature}`);
    expect(ran.stdout + ran.stderr).not.toContain(SECRET);
    expect(ran.stdout + ran.stderr).not.toContain(CLIENT);
  });
  it('--json gives the same stages', async () => {
    const ran = await cli(['sign', '--body', file, '--json'], { COLLECT_SECRET_KEY: SECRET });
    expect(ran.code).toBe(0);
    const out = JSON.parse(ran.stdout);
    const stages = signBody(BODY, SECRET);
    expect(out).toMatchObject({ message: stages.message, signature: stages.signature, pairs: stages.pairs });
    expect(out.authorization).toBeUndefined();
    expect(ran.stdout).not.toContain(SECRET);
  });
  it('exits 2 naming the variable when COLLECT_SECRET_KEY is not set', async () => {
    const ran = await cli(['sign', '--body', file]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('COLLECT_SECRET_KEY');
    expect(ran.stdout).toBe('');
  });
  it('has no option that takes the secret', async () => {
    const ran = await cli(['sign', '--body', file, '--secret', SECRET], { COLLECT_SECRET_KEY: SECRET });
    expect(ran.code).toBe(2);
    expect(ran.stdout + ran.stderr).not.toContain(SECRET);
  });
  it('exits 2 on a body that is not a JSON object', async () => {
    const bad = join(work, 'bad.json');
    writeFileSync(bad, '[1,2]');
    const ran = await cli(['sign', '--body', bad], { COLLECT_SECRET_KEY: SECRET });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('not an object');
  });
  it('exits 2 on a body that is not UTF-8, instead of signing U+FFFD for the bytes sent', async () => {
    const latin1 = join(work, 'latin1.json');
    writeFileSync(latin1, Buffer.from('{"name":"caf\xe9"}', 'latin1'));
    const ran = await cli(['sign', '--body', latin1], { COLLECT_SECRET_KEY: SECRET });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('not UTF-8');
    expect(ran.stdout).toBe('');
  });
});
