// The package as a registry user gets it: `npm pack` (which builds dist/ through `prepack`), the
// tarball installed in an empty folder, and everything below run from that folder against the
// installed copy only. One pack and one install serve every check (about 30 s on an idle
// machine). `npm install` reaches the npm registry for the runtime dependencies (served from
// npm's cache when `npm ci` ran before); it is bounded by the hook's timeout, and nothing here
// skips: a failed install fails the suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePage } from '../docs/markdown.ts';
import { rehearse } from '../docs/rehearse.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const PAGE = readFileSync(join(REPO_ROOT, 'docs/command-line.md'), 'utf8');
/** The TypeScript examples of docs/ci.md (the vitest and node:test files, the library call), type-checked as a consumer's. */
const CI_EXAMPLES = [...readFileSync(join(REPO_ROOT, 'docs/ci.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]!);

/** The code block of the given language under the heading "Using the library" of docs/command-line.md. */
function pageExample(language: 'js' | 'ts'): string {
  const section = PAGE.slice(PAGE.indexOf('### Using the library'));
  const block = new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```').exec(section)?.[1];
  expect(block, `docs/command-line.md "Using the library" has a ${language} block`).toBeDefined();
  return block!;
}
/** The install-size goal of the package without Pact (issue 12). */
const MAX_INSTALL_KB = 25 * 1024;

/** What the tarball may hold: compiled code and types, data, docs. Anything else fails. */
const ALLOWED: readonly RegExp[] = [
  /^package\.json$/, /^README\.md$/, /^LICENSE$/,
  // The pages the README links to.
  /^docs\/[^/]+\.md$/,
  /^bin\/collect-conformance\.js$/,
  /^dist\/.+\.(js|d\.ts|json)$/,
  // The start-up schemas' checks, compiled by the build (bin/precompile-schemas.js).
  /^dist\/.+\.schema\.check\.cjs$/,
  // The reference receiver's tables, created on start when it keeps its records in a database.
  /^dist\/receiver\/sql\/[^/]+\.sql$/,
  /^vectors\/[^/]+\.(json|md)$/,
  /^vectors\/(schemas|pacts)\/[^/]+\.(json|md)$/,
  /^vectors\/examples\/.+\.(py|md|json)$/,
  /^reports\/README\.md$/, /^reports\/schema\/[^/]+\.json$/,
];
/** What a user needs and must find. */
const REQUIRED = [
  'LICENSE', 'README.md', 'docs/README.md', 'package.json', 'bin/collect-conformance.js', 'dist/index.js', 'dist/index.d.ts',
  'dist/cli/index.js', 'dist/contracts/index.js', 'dist/targets/target.schema.json', 'dist/runner/waivers.schema.json',
  'dist/targets/target.schema.check.cjs', 'dist/runner/waivers.schema.check.cjs',
  'vectors/signature.json', 'reports/README.md', 'reports/schema/report.schema.json',
];
/** Build and test tooling, and Pact (an optional peer), must not be installed with the package. */
const NOT_INSTALLED = ['tsx', 'esbuild', 'fast-check', 'typescript', 'vitest', '@pact-foundation/pact', 'pg', 'mysql2', 'express', 'graphql', 'axios'];

interface Ran { code: number | null; stdout: string; stderr: string }

/** npm's own variables from an enclosing `npm test` would steer the nested npm; keep only where its cache and registry are. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_') || /^npm_config_(cache|registry|userconfig)$/i.test(key)) env[key] = value;
  }
  return { ...env, NO_COLOR: '1', PACT_DO_NOT_TRACK: 'true', ...extra };
}

function run(command: string, args: readonly string[], cwd: string, options: { env?: Record<string, string>; timeout?: number } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: childEnv(options.env), timeout: options.timeout ?? 60_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Disk use in KiB, as a user measures it (`du -sk`). */
function duKb(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);
}

let work: string;
let app: string;
let packed: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'collect-conformance-package-'));
  app = join(work, 'app');
  const pack = await run('npm', ['pack', '--json', '--pack-destination', work], REPO_ROOT, { timeout: 240_000 });
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = info!.files.map((f) => f.path);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, info!.filename)], app, { timeout: 240_000 });
  expect(install.code, install.stderr).toBe(0);
}, 480_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarball holds what a user needs and nothing else', () => {
  it('every file matches the allow-list', () => {
    expect(packed.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)))).toEqual([]);
  });
  it('the files a user needs are there', () => {
    expect(REQUIRED.filter((path) => !packed.includes(path))).toEqual([]);
  });
  it('no TypeScript source, test, vector generator or tsx runner ships', () => {
    expect(packed.filter((p) => (/\.ts$/.test(p) && !p.endsWith('.d.ts')) || p.startsWith('vectors/generate/') || p.includes('run-ts') || p.startsWith('suites/'))).toEqual([]);
  });
  it('LICENSE is the MIT licence that package.json names', () => {
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/collect-conformance/package.json'), 'utf8')) as { license: string };
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(app, 'node_modules/collect-conformance/LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  });
});

describe('the install is lean', () => {
  it(`node_modules without Pact is at most ${MAX_INSTALL_KB / 1024} MB`, () => {
    const kb = duKb(join(app, 'node_modules'));
    expect(kb).toBeGreaterThan(0);
    expect(kb).toBeLessThanOrEqual(MAX_INSTALL_KB);
  });
  it('no build or test tooling and no Pact is installed with it', () => {
    expect(NOT_INSTALLED.filter((name) => existsSync(join(app, 'node_modules', name)))).toEqual([]);
  });
});

/**
 * A team's own vitest suite, with the packed tarball and vitest installed and nothing else: a test
 * file starts the reference receiver in beforeAll and hands its URL to describeConformance. The
 * checkout's vitest is linked in (as Pact and pg are below), after the checks above that it is not
 * installed with the package; one vitest process runs a correct receiver's file and a faulty one's.
 */
const CONFORMANCE_TEST = (faults: string[], only: string) => `
import { afterAll, beforeAll } from 'vitest';
import { generateTestToken, startReceiver, type ReceiverFault, type RunningReceiver } from 'collect-conformance';
import { describeConformance } from 'collect-conformance/vitest';

const token = generateTestToken();
let receiver: RunningReceiver;
beforeAll(async () => {
  const faults: ReceiverFault[] = ${JSON.stringify(faults)};
  receiver = await startReceiver({ callbackToken: token, hooks: true, timeScale: 0.02, faults, log: () => {} }, { host: '127.0.0.1', port: 0 });
});
afterAll(() => receiver.close());

describeConformance({
  side: 'receiver',
  only: ${JSON.stringify(only)},
  env: { RECEIVER_TOKEN: token },
  target: () => ({
    side: 'receiver', callbackUrl: receiver.callbackUrl, hooksUrl: receiver.hooksUrl,
    callbackToken: { env: 'RECEIVER_TOKEN' }, timing: { replyDeadlineMs: 1000 },
  }),
});
`;
/** Every receiver case but the confirm group's (they need a confirming receiver: SKIP, with their reason, for this one). */
const NOT_CONFIRMING = 'receiver.token.*,receiver.idempotence.*,receiver.outcome.*,receiver.latency.*,receiver.params.*';

describe('collect-conformance/vitest in a team\'s own vitest suite (vitest linked in after the lean-install checks)', () => {
  let ran: Ran;
  let results: Array<{ name: string; assertionResults: Array<{ fullName: string; title: string; status: string; failureMessages: string[] }> }>;
  beforeAll(async () => {
    symlinkSync(join(REPO_ROOT, 'node_modules/vitest'), join(app, 'node_modules/vitest'), 'dir');
    const suite = join(app, 'conformance');
    mkdirSync(suite);
    writeFileSync(join(suite, 'correct.test.ts'), CONFORMANCE_TEST([], NOT_CONFIRMING));
    writeFileSync(join(suite, 'faulty.test.ts'), CONFORMANCE_TEST(['case-insensitive-token'], 'receiver.token.*'));
    ran = await run(process.execPath, [join(app, 'node_modules/vitest/vitest.mjs'), 'run', '--root', suite, '--reporter=default', '--reporter=json', '--outputFile.json=results.json'], suite, { timeout: 120_000 });
    results = (JSON.parse(readFileSync(join(suite, 'results.json'), 'utf8')) as { testResults: typeof results }).testResults;
  }, 150_000);
  const file = (name: string) => results.find((r) => r.name.endsWith(name))!.assertionResults;

  it('a correct receiver: every case a passing test, named by case id and title, grouped by side and case group', () => {
    const tests = file('correct.test.ts');
    // The first failure's own message: once, under the busy group's load, every test was not passed and nothing said why.
    const firstFailure = tests.find((t) => t.status !== 'passed');
    expect(tests.filter((t) => t.status !== 'passed').map((t) => t.fullName), `${firstFailure?.status}: ${firstFailure?.failureMessages.join('\n').slice(0, 2000)}\n${ran.stderr.slice(-2000)}`).toEqual([]);
    // The shared causes first, then one test per case of the five groups.
    expect(tests[0]!.title).toMatch(/^shared causes/);
    expect(tests.length).toBeGreaterThan(20);
    expect(tests.map((t) => t.fullName)).toContain('collect-conformance receiver receiver.token receiver.token.valid: the configured token is accepted and the outcome applied');
  });
  it('a receiver fault switch on: the case that catches it is a failing test named by its case id, the reason in vitest\'s output; vitest exits 1', () => {
    expect(ran.code, ran.stderr).toBe(1);
    const failed = file('faulty.test.ts').filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.title)).toEqual(['receiver.token.different-case: the token in swapped letter case gets 403, no action']);
    expect(failed[0]!.failureMessages.join('\n')).toContain('FAIL receiver.token.different-case (§6 rule 1, MUST): answered 200');
    const output = ran.stdout + ran.stderr;
    expect(output).toMatch(/FAIL .*receiver\.token\.different-case: the token in swapped letter case gets 403/);
    expect(output).toContain('§6 rule 1 says 403');
    expect(output).toMatch(/curl -sS -i .*RECEIVER_TOKEN/);
  });
});

describe('the installed command', () => {
  it('npx collect-conformance run (embedded, a few cases) passes', async () => {
    const reports = join(work, 'reports');
    const ran = await run('npx', ['--no', 'collect-conformance', 'run', '--only', 'receiver.token.*,service.auth.valid-accepted', '--report-dir', reports], app);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/receiver\.token\.valid/);
    expect(ran.stdout).toMatch(/service\.auth\.valid-accepted/);
    expect(readdirSync(reports)).toContain('report.json');
    // npx, the installed package's start and 8 cases: under 10 s idle, over 30 s seen beside a mutation run.
  }, 90_000);
  it('npx collect-conformance vectors passes with the shipped vectors', async () => {
    const ran = await run('npx', ['--no', 'collect-conformance', 'vectors', '--report-dir', join(work, 'vector-reports')], app);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/vectors\.signature\.1\b/);
  });
  it('--help lists every subcommand', async () => {
    const ran = await run(join(app, 'node_modules/.bin/collect-conformance'), ['--help'], app);
    expect(ran.code, ran.stderr).toBe(0);
    for (const name of ['run', 'simulate', 'receiver', 'vectors', 'sign', 'pact']) expect(ran.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });
  it('the background-server block of docs/command-line.md runs as written in the project: SIGTERM to its pid stops it, exit status 0', async () => {
    const block = parsePage(PAGE).commands.find((b) => b.text.startsWith('node node_modules/.bin/collect-conformance simulate'));
    expect(block, 'docs/command-line.md shows how to stop a background server by its pid').toBeDefined();
    // Marked not run for the docs' rehearsals (it needs the package installed); run here instead.
    expect(block!.marker).toMatchObject({ kind: 'not-run', reason: expect.stringContaining('suites/package/tarball.test.ts') });
    const ran = await rehearse(block!.text, { cwd: app, timeoutMs: 60_000 });
    expect(ran.serversDown).toEqual([]);
    expect(ran.commands.map((c) => [c.command, c.status])).toEqual([['kill "$pid"; wait "$pid"     # exit status 0', 0]]);
    expect(ran.leftRunning).toEqual([]);
  });
  it('pact verify without Pact installed: exit 2 naming the install command', async () => {
    const ran = await run(join(app, 'node_modules/.bin/collect-conformance'), ['pact', 'verify', '--side', 'receiver', '--base-url', 'http://127.0.0.1:9'], app, { env: { COLLECT_CALLBACK_TOKEN: 'a-token-for-the-test' } });
    expect(ran.code, ran.stdout + ran.stderr).toBe(2);
    expect(ran.stderr).toContain('npm install --save-dev @pact-foundation/pact@^16.5');
    expect(ran.stderr).not.toContain('a-token-for-the-test');
  });
});

/**
 * A receiver target whose observe names a database of `scheme` (nothing listens at its port 9),
 * and something listening at its callbackUrl, so the run gets as far as opening the observation.
 */
async function databaseTarget(scheme: string): Promise<{ file: string; env: Record<string, string>; close(): Promise<void> }> {
  const receiver: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  const file = join(work, `observe-${scheme}.json`);
  writeFileSync(file, JSON.stringify({
    side: 'receiver', callbackUrl: `http://127.0.0.1:${port}/callback`, callbackToken: { env: 'COLLECT_CALLBACK_TOKEN' },
    observe: { database: { env: 'RECEIVER_DATABASE_URL' }, read: 'SELECT status AS state FROM orders WHERE ref = :transaction_id' },
  }));
  return {
    file,
    env: { COLLECT_CALLBACK_TOKEN: 'a-token-for-the-test', RECEIVER_DATABASE_URL: `${scheme}://app:driver-Secret-7@127.0.0.1:9/shop` },
    close: () => new Promise((resolve) => receiver.close(() => resolve())),
  };
}

describe('observing a receiver through its database: the drivers are optional peers', () => {
  for (const [scheme, install] of [['postgresql', 'npm install --save-dev pg@^8.23'], ['mariadb', 'npm install --save-dev mysql2@^3.24']] as const) {
    it(`a ${scheme}:// observe without its driver installed: exit 2 naming \`${install}\`, the password nowhere`, async () => {
      const target = await databaseTarget(scheme);
      try {
        const ran = await run(join(app, 'node_modules/.bin/collect-conformance'), ['run', '--target', target.file, '--report-dir', join(work, `observe-${scheme}`)], app, { env: target.env });
        expect(ran.code, ran.stdout + ran.stderr).toBe(2);
        expect(ran.stderr).toContain(`/observe/database: a ${scheme === 'postgresql' ? 'PostgreSQL' : 'MySQL/MariaDB'} database needs the driver ${scheme === 'postgresql' ? 'pg' : 'mysql2'}, an optional peer dependency that is not installed: run \`${install}\``);
        expect(ran.stdout + ran.stderr).not.toContain('driver-Secret-7');
      } finally {
        await target.close();
      }
    });
  }
});

describe('the installed library', () => {
  // The first signature vector, signed by the installed library, must give the vector's answer.
  const SIGN_FIRST_VECTOR = `
    const vectors = JSON.parse(readFileSync(require.resolve('collect-conformance/vectors/signature.json'), 'utf8'));
    const t = vectors.tests[0];
    console.log(JSON.stringify({ got: lib.signBody(t.body, t.secret).signature, want: t.signature, cases: lib.allCases().length }));`;

  it('imports from plain ESM (node, no loader), with the schemas found from the compiled code', async () => {
    const script = `
      import * as lib from 'collect-conformance';
      import schema from 'collect-conformance/schemas/target.schema.json' with { type: 'json' };
      import { readFileSync } from 'node:fs';
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      for (const name of ['target', 'waivers', 'simulator-config', 'receiver-config', 'report']) {
        const { default: schema } = await import(\`collect-conformance/schemas/\${name}.schema.json\`, { with: { type: 'json' } });
        if (typeof schema !== 'object' || schema === null) throw new Error(\`no \${name} schema\`);
      }
      if (typeof schema !== 'object') throw new Error('no target schema');
      ${SIGN_FIRST_VECTOR}`;
    writeFileSync(join(app, 'esm.mjs'), script);
    const ran = await run(process.execPath, ['esm.mjs'], app);
    expect(ran.code, ran.stderr).toBe(0);
    const { got, want, cases } = JSON.parse(ran.stdout) as { got: string; want: string; cases: number };
    expect(got).toBe(want);
    expect(cases).toBeGreaterThan(0);
  });

  it("docs/command-line.md's JavaScript example runs", async () => {
    writeFileSync(join(app, 'readme.mjs'), `${pageExample('js')}\nconsole.log(JSON.stringify({ message, signature, authorization }));\n`);
    const ran = await run(process.execPath, ['readme.mjs'], app, { env: { COLLECT_SECRET_KEY: 'readme-secret', COLLECT_CLIENT_KEY: 'readme-client' } });
    expect(ran.code, ran.stderr).toBe(0);
    const { message, signature, authorization } = JSON.parse(ran.stdout) as Record<string, string>;
    expect(message).toBe('amount=15.0&client_id=2&transaction_id=TX-1');
    expect(signature).toBe(createHmac('sha256', 'readme-secret').update(message!).digest('hex'));
    expect(authorization).toBe(`HMAC readme-client:${signature}`);
  });

  it('loads from CommonJS through require()', async () => {
    writeFileSync(join(app, 'cjs.cjs'), `
      const lib = require('collect-conformance');
      const { readFileSync } = require('node:fs');
      ${SIGN_FIRST_VECTOR}`);
    const ran = await run(process.execPath, ['cjs.cjs'], app);
    expect(ran.code, ran.stderr).toBe(0);
    const { got, want } = JSON.parse(ran.stdout) as { got: string; want: string };
    expect(got).toBe(want);
  });

  it('a strict TypeScript consumer (nodenext, ESM and CommonJS files) compiles with 0 errors', async () => {
    const consumer = join(app, 'ts');
      mkdirSync(consumer);
    writeFileSync(join(consumer, 'esm.mts'), `
      import { signBody, Redactor, allCases, startSimulator, type SigningStages, type ConformanceCase, type RunningSimulator } from 'collect-conformance';
      const stages: SigningStages = signBody('{"amount": 1}', 'secret');
      const signature: string = stages.signature;
      const cases: readonly ConformanceCase[] = allCases();
      const redacted: string = new Redactor(['secret']).text(signature);
      const started: Promise<RunningSimulator> = startSimulator();
      export { cases, redacted, started };
    `);
    writeFileSync(join(consumer, 'cjs.cts'), `
      import lib = require('collect-conformance');
      export const signature: string = lib.signBody('{"amount": 1}', 'secret').signature;
    `);
    writeFileSync(join(consumer, 'readme.mts'), `${pageExample('ts')}\nexport {};\n`);
    // The run as a library and the vitest integration, typed (vitest is linked in above).
    writeFileSync(join(consumer, 'run.mts'), `
      import { exitStatusOf, runConformance, type RunConformanceOptions, type RunReport, type RunReporter } from 'collect-conformance';
      import { describeConformance, type DescribeConformanceOptions } from 'collect-conformance/vitest';
      const seen: RunReporter = { onCaseResult: (result) => { console.log(result.id, result.verdict); } };
      const options: RunConformanceOptions = { side: 'receiver', only: ['receiver.token.*'], seed: 7, reporters: [seen] };
      export async function status(): Promise<number> {
        const report: RunReport = await runConformance(options);
        return exitStatusOf(report);
      }
      const inVitest: DescribeConformanceOptions = { target: async () => ({ side: 'receiver', callbackUrl: 'http://127.0.0.1:8081/cb' }), only: 'receiver.token.*' };
      export const register = (): void => describeConformance(inVitest);
    `);
    expect(CI_EXAMPLES).toHaveLength(4);
    CI_EXAMPLES.forEach((example, i) => writeFileSync(join(consumer, `ci-${i}.mts`), `${example}\nexport {};\n`));
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: true, noEmit: true,
        types: ['node'], typeRoots: [join(REPO_ROOT, 'node_modules/@types')],
      },
      files: ['esm.mts', 'cjs.cts', 'readme.mts', 'run.mts', ...CI_EXAMPLES.map((_, i) => `ci-${i}.mts`)],
    }));
    const ran = await run(process.execPath, [TSC, '-p', join(consumer, 'tsconfig.json')], consumer, { timeout: 120_000 });
    expect(ran.stdout + ran.stderr).toBe('');
    expect(ran.code).toBe(0);
  });
});

describe('with the optional Pact peer installed (last: the checks above run without it)', () => {
  // The checkout's own copy, linked in: its dependencies resolve from where it really lives.
  beforeAll(() => {
    mkdirSync(join(app, 'node_modules/@pact-foundation'), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'node_modules/@pact-foundation/pact'), join(app, 'node_modules/@pact-foundation/pact'), 'dir');
  });
  it('pact verify gets past loading Pact: an unreachable provider is exit 3, not 2', async () => {
    const ran = await run(join(app, 'node_modules/.bin/collect-conformance'), ['pact', 'verify', '--side', 'receiver', '--base-url', 'http://127.0.0.1:9'], app, { env: { COLLECT_CALLBACK_TOKEN: 'a-token-for-the-test' } });
    expect(ran.stderr).toContain('cannot connect');
    expect(ran.code, ran.stdout + ran.stderr).toBe(3);
  });
  it("'collect-conformance/contracts' imports from plain ESM", async () => {
    const ran = await run(process.execPath, ['--input-type=module', '-e', "import { verifyProvider } from 'collect-conformance/contracts'; console.log(typeof verifyProvider);"], app);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.trim()).toBe('function');
  });
});

describe('with the optional pg peer installed (last: the checks above run without it)', () => {
  beforeAll(() => {
    symlinkSync(join(REPO_ROOT, 'node_modules/pg'), join(app, 'node_modules/pg'), 'dir');
  });
  it('a postgresql:// observe gets past loading the driver: nothing listens at the URL, exit 2 saying so', async () => {
    const target = await databaseTarget('postgresql');
    try {
      const ran = await run(join(app, 'node_modules/.bin/collect-conformance'), ['run', '--target', target.file, '--report-dir', join(work, 'observe-pg-linked')], app, { env: target.env });
      expect(ran.code, ran.stdout + ran.stderr).toBe(2);
      expect(ran.stderr).toMatch(/\/observe\/database: cannot connect to the database: PostgreSQL at postgresql:\/\/app:\*\*\*@127\.0\.0\.1:9\/shop: connect ECONNREFUSED/);
      expect(ran.stdout + ran.stderr).not.toContain('driver-Secret-7');
    } finally {
      await target.close();
    }
  });
});
