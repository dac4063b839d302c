// The Python example (standard library only) runs the vectors outside TypeScript: proof that
// the files are usable by an SDK in another language, in both of its modes. The three runs at
// once (none rests on timing): each python3 start waits on its own (a version manager's shim
// takes about a second on a loaded machine), not one after the other.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FILES, VECTORS_DIR, signatureFile } from './load.ts';

const SCRIPT = fileURLToPath(new URL('examples/python/collect_vectors.py', VECTORS_DIR));

interface PythonRun { status: number | null; stdout: string; stderr: string }

/** Each test's limit: a backstop, beyond the script's own. */
const RUN_LIMIT = { timeout: 60_000 };

/**
 * The script with `args`, `input` on its stdin; killed after 50 s (its status then null), within
 * each test's own limit (RUN_LIMIT): three at once on a machine at load 27 took over 20 s each.
 */
function python(args: string[], input = ''): Promise<PythonRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [SCRIPT, ...args], { stdio: ['pipe', 'pipe', 'pipe'], timeout: 50_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe.concurrent('vectors/examples/python: default mode checks every valid vector', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'vectors-py-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('exits 0 and reports every valid vector passing', RUN_LIMIT, async () => {
    const run = await python([]);
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    const file = signatureFile();
    const valid = file.tests.filter((t) => t.result === 'valid').length;
    expect(run.stdout).toContain(`signature.json: ${valid}/${valid} valid vectors pass`);
    expect(run.stdout).toContain('all valid vectors pass');
  });

  it('exits 1 and names the vector when a committed message is wrong', RUN_LIMIT, async () => {
    for (const f of FILES) copyFileSync(new URL(f.name, VECTORS_DIR), join(scratch, f.name));
    const file = signatureFile();
    const target = file.tests.find((t) => t.result === 'valid')!;
    target.message += '&x=1';
    writeFileSync(join(scratch, 'signature.json'), JSON.stringify(file));
    const run = await python(['--vectors', scratch]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`FAIL vectors.signature.${target.tcId}`);
  });
});

describe.concurrent('vectors/examples/python: --serve answers the signer line protocol', () => {
  const file = signatureFile();
  const byId = (id: number) => file.tests.find((t) => t.tcId === id)!;

  it('answers one line per request with the suite message and signature, or an error', RUN_LIMIT, async () => {
    const picks = [byId(1), byId(16), byId(41), byId(66), byId(86)];
    const lines = picks.map((t) => JSON.stringify({ id: `vectors.signature.${t.tcId}`, body: t.body, secret: t.secret }));
    lines.push('this is not json');
    const run = await python(['--serve'], lines.join('\n') + '\n');
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
