// collect-conformance/node-test under Node's own runner (a child process: the runner is the
// point), on the package as installed (.installed/, kept up to date by the globalSetup
// suites/support/installed.ts; compiled, so no TypeScript loader starts): a receiver fault switch on, the case that catches it is a failing test named by its
// case id with the reason, the others pass, and `node --test` exits 1.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('collect-conformance/node-test', () => {
  it('a faulty receiver\'s token cases: receiver.token.different-case fails with its reason, the rest pass, exit 1', async () => {
    const ran = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(process.execPath, ['--test', '--test-reporter=tap', 'suites/run/fixtures/node-test-receiver.mjs'], {
        cwd: ROOT, env: { ...process.env, RECEIVER_FAULT: 'case-insensitive-token' }, timeout: 60_000,
      }, (error, stdout) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout }));
    });
    expect(ran.code, ran.stdout).toBe(1);
    expect(ran.stdout).toMatch(/^ *not ok \d+ - receiver\.token\.different-case: the token in swapped letter case gets 403, no action$/m);
    expect(ran.stdout).toContain('FAIL receiver.token.different-case (§6 rule 1, MUST): answered 200');
    expect(ran.stdout).toMatch(/^ *ok \d+ - receiver\.token\.valid: /m);
    expect(ran.stdout).toMatch(/^ *ok \d+ - shared causes/m);
    expect(ran.stdout.match(/^ *not ok \d+ - receiver\.[a-z.-]+: /gm)).toHaveLength(1);
  }, 60_000);
});
