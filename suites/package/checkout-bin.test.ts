// The checkout's bin (README "No build step in a checkout"): it runs the sources compiled into
// .installed/, rebuilt whenever a source is newer, so an edit is never met by stale code; a
// source that does not compile runs through tsx, which names the error. Proven on a copy of the
// checkout in a temporary folder (the real .installed/ serves the other suites meanwhile).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let checkout: string;

interface Ran { code: number; stdout: string; stderr: string }

function runCheckoutBin(args: readonly string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(checkout, 'bin/collect-conformance.js'), ...args], {
      // NODE_DEBUG=esm writes a line or more per module loaded: above execFile's 1 MB default.
      cwd: checkout, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_DEBUG: 'esm' }, timeout: 60_000, maxBuffer: 32 * 1024 * 1024,
    }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });
}

/** Sets a source file's text (its mtime becomes now, newer than the last build). */
function edit(path: string, change: (text: string) => string): void {
  const file = join(checkout, path);
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), 'collect-conformance-checkout-'));
  for (const part of ['harness', 'bin', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) cpSync(join(ROOT, part), join(checkout, part), { recursive: true });
  for (const part of ['node_modules', 'vectors']) symlinkSync(join(ROOT, part), join(checkout, part));
  cpSync(join(ROOT, 'reports/schema'), join(checkout, 'reports/schema'), { recursive: true });
});

afterAll(() => {
  rmSync(checkout, { recursive: true, force: true });
});

// 90 s a test: each compiles the whole harness (about 20 s alone), beside the busy tier's other files.
describe('the checkout bin runs the sources compiled, never stale', { timeout: 90_000 }, () => {
  it('first run: builds .installed/ and runs its dist/, not the sources through tsx', async () => {
    const ran = await runCheckoutBin(['--version']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(existsSync(join(checkout, '.installed/dist/cli/index.js'))).toBe(true);
    expect(existsSync(join(checkout, '.installed/dist/targets/target.schema.check.cjs'))).toBe(true);
    expect(ran.stderr).toContain(join(checkout, '.installed/dist/cli/index.js'));
    expect(ran.stderr).not.toContain('tsx');
  });

  it('a source edited since: rebuilt before it runs, and the edit shows', async () => {
    edit('harness/tool/version.ts', (text) => text.replace('return cached;', "return `${cached}-edited`;"));
    const ran = await runCheckoutBin(['--version']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.trim()).toMatch(/-edited$/);
    expect(ran.stderr).not.toContain('tsx');
  });

  it('a source with a syntax error: run through tsx, which names the file', async () => {
    edit('harness/tool/version.ts', (text) => `${text}\nexport const broken = (;\n`);
    const ran = await runCheckoutBin(['--version']);
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain('harness/tool/version.ts');
    expect(ran.stderr).toContain('tsx');
  });
});
