#!/usr/bin/env node
// `npm run build` (and `npm pack`/`npm publish` through `prepack`): compiles everything under
// harness/ to dist/ with declarations, then copies harness/'s other run-time files (JSON schemas,
// example targets, any asset a folder adds) beside the compiled code, where the code finds them
// with `new URL('./x.json', import.meta.url)`. No hand-kept file list: a new folder ships as is.
// dist/ is removed first so that a deleted source never ships as a stale .js.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const harness = `${root}harness`;
const dist = `${root}dist`;

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

// Sources, tests and the folder walk-throughs stay in the checkout.
const notShipped = /\.(ts|md)$/;
cpSync(harness, dist, {
  recursive: true,
  filter: (source) => !notShipped.test(source) || source.endsWith('.d.ts'),
});

// The schemas checked at start-up, compiled now rather than on every start.
const precompiled = spawnSync(process.execPath, [`${root}bin/precompile-schemas.js`, dist], { stdio: 'inherit' });
if (precompiled.status !== 0) process.exit(precompiled.status ?? 1);
