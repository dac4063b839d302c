// The Python example (standard library only) runs the vectors outside TypeScript: proof that
// the files are usable by an SDK in another language, in both of its modes.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FILES, VECTORS_DIR, signatureFile } from './load.ts';

const SCRIPT = fileURLToPath(new URL('examples/python/collect_vectors.py', VECTORS_DIR));

function python(args: string[], input?: string) {
  const run = spawnSync('python3', [SCRIPT, ...args], { input, encoding: 'utf8', timeout: 20_000 });
  if (run.error) throw run.error;
  return run;
}

describe('vectors/examples/python: default mode checks every valid vector', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'vectors-py-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('exits 0 and reports every valid vector passing', () => {
    const run = python([]);
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    const file = signatureFile();
    const valid = file.tests.filter((t) => t.result === 'valid').length;
    expect(run.stdout).toContain(`signature.json: ${valid}/${valid} valid vectors pass`);
    expect(run.stdout).toContain('all valid vectors pass');
  });

  it('exits 1 and names the vector when a committed message is wrong', () => {
    for (const f of FILES) copyFileSync(new URL(f.name, VECTORS_DIR), join(scratch, f.name));
    const file = signatureFile();
    const target = file.tests.find((t) => t.result === 'valid')!;
    target.message += '&x=1';
    writeFileSync(join(scratch, 'signature.json'), JSON.stringify(file));
    const run = python(['--vectors', scratch]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`FAIL vectors.signature.${target.tcId}`);
  });
});

describe('vectors/examples/python: --serve answers the signer line protocol', () => {
  const file = signatureFile();
  const byId = (id: number) => file.tests.find((t) => t.tcId === id)!;

  it('answers one line per request with the suite message and signature, or an error', () => {
    const picks = [byId(1), byId(16), byId(41), byId(66), byId(86)];
    const lines = picks.map((t) => JSON.stringify({ id: `vectors.signature.${t.tcId}`, body: t.body, secret: t.secret }));
    lines.push('this is not json');
    const run = python(['--serve'], lines.join('\n') + '\n');
    expect(run.status).toBe(0);
    const answers = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(answers).toHaveLength(lines.length);
    for (const [i, t] of [byId(1), byId(16), byId(41)].entries()) {
      expect(answers[i], `tcId ${t.tcId}`).toEqual({ id: `vectors.signature.${t.tcId}`, message: t.message, signature: t.signature });
    }
    // A nested object: refusing is allowed for an acceptable vector.
    expect(answers[3]).toMatchObject({ id: 'vectors.signature.66', error: expect.stringContaining('nested') });
    // An invalid vector: the signer's signature differs from the presented one.
    expect(answers[4]!.signature).toBe(byId(86).signature);
    expect(answers[4]!.signature).not.toBe(byId(86).presentedSignature);
    expect(answers[5]).toMatchObject({ id: null, error: expect.stringContaining('bad request line') });
  });
});
