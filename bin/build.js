#!/usr/bin/env node
// `npm run build` (and `npm pack`/`npm publish` through `prepack`): compiles everything under
// harness/ to dist/ with declarations, then copies harness/'s other run-time files (JSON schemas,
// example targets, any asset a folder adds) beside the compiled code, where the code finds them
// with `new URL('./x.json', import.meta.url)`. No hand-kept file list: a new folder ships as is.
// The output folder is removed first so that a deleted source never ships as a stale .js.
//
// `--out DIR --no-declarations`: the same compiled code elsewhere, without .d.ts files (the test
// run's installed copy, suites/support/installed.ts). DIR must sit at dist/'s depth below a root
// holding package.json, vectors/ and reports/schema/, which the compiled code finds relative to itself.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const harness = `${root}harness`;
const { values } = parseArgs({ options: { out: { type: 'string' }, 'no-declarations': { type: 'boolean' } } });
const dist = values.out === undefined ? `${root}dist` : resolve(values.out);

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const declarations = values['no-declarations'] ? ['--declaration', 'false'] : [];
const compiled = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`, '--outDir', dist, ...declarations], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

// Sources, tests and the folder walk-throughs stay in the checkout.
const notShipped = /\.(ts|md)$/;
cpSync(harness, dist, {
  recursive: true,
  filter: (source) => !notShipped.test(source) || source.endsWith('.d.ts'),
});
