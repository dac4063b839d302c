#!/usr/bin/env node
// The package's command. Installed, it runs the compiled dist/ (no sources ship). In a checkout
// (harness/ sources beside this file) it runs the sources through tsx, a devDependency, so a
// source edit is never met by stale compiled code and the checkout needs no build step.
import { existsSync } from 'node:fs';

const source = new URL('../harness/cli/index.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import('../dist/cli/index.js'));
}
process.exitCode = await main(process.argv.slice(2));
