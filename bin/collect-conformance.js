#!/usr/bin/env node
// The package's command. Installed, it runs the compiled dist/ (no sources ship). In a checkout
// (harness/ sources beside this file) it runs them compiled into .installed/ (bin/lay-out.js:
// rebuilt whenever a source is newer, so a source edit is never met by stale code, and no build
// step to remember), which starts 0.4 s sooner than the sources through tsx. When they cannot be
// compiled there (a syntax error, a read-only checkout), it runs them through tsx, which names
// the error.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const source = new URL('../harness/cli/index.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { layOut } = await import('./lay-out.js');
  const laidOut = await layOut().catch(() => undefined);
  if (laidOut !== undefined) {
    ({ main } = await import(pathToFileURL(join(laidOut, 'dist/cli/index.js')).href));
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    ({ main } = await import(source.href));
  }
} else {
  ({ main } = await import('../dist/cli/index.js'));
}
const code = await main(process.argv.slice(2));
// The command's work is done: end now, once stdout and stderr are flushed, whatever is left
// holding the event loop open (a pipe a daemonised grandchild of an adapter or signer still
// holds, a case an interrupted run left waiting). Waiting for it would never end.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => {
  if (stream.destroyed || !stream.writable) resolve();
  else stream.write('', () => resolve());
})));
process.exit(code);
