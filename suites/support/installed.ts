// vitest globalSetup: the package laid out as `npm install` lays it out (bin/, dist/,
// package.json, vectors/, reports/schema/), in .test-install/ at the checkout's root, for the
// tests that run the command in a child process. The bin finds no sources beside it there, so
// it runs the compiled JavaScript, as an installed package does, instead of starting tsx's
// loader in every child (about 0.4 s of CPU each, a third of the suite's CPU time).
// Rebuilt only when a file it is made from is newer than the last build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const INSTALLED = join(ROOT, '.test-install');
const STAMP = join(INSTALLED, '.built');

/** What the installed copy is made from: a change to any of them rebuilds it. */
const SOURCES = ['harness', 'bin/collect-conformance.js', 'bin/build.js', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

function newestMtimeMs(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

function upToDate(): boolean {
  if (!existsSync(STAMP)) return false;
  const built = statSync(STAMP).mtimeMs;
  return SOURCES.every((source) => newestMtimeMs(join(ROOT, source)) < built);
}

/** Builds into a fresh folder and moves it into place, so a reader never sees half a build. */
function build(): void {
  const next = `${INSTALLED}.${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(join(next, 'bin'), { recursive: true });
  const compiled = spawnSync(process.execPath, [join(ROOT, 'bin/build.js'), '--out', join(next, 'dist'), '--no-declarations'], { stdio: 'inherit' });
  if (compiled.status !== 0) throw new Error(`bin/build.js --out ${next}/dist exited ${compiled.status}`);
  cpSync(join(ROOT, 'bin/collect-conformance.js'), join(next, 'bin/collect-conformance.js'));
  cpSync(join(ROOT, 'package.json'), join(next, 'package.json'));
  // Read-only data the compiled code finds relative to itself: linked, not copied.
  symlinkSync(join(ROOT, 'vectors'), join(next, 'vectors'));
  mkdirSync(join(next, 'reports'));
  symlinkSync(join(ROOT, 'reports/schema'), join(next, 'reports/schema'));
  writeFileSync(join(next, '.built'), `${new Date().toISOString()}\n`);
  rmSync(INSTALLED, { recursive: true, force: true });
  renameSync(next, INSTALLED);
}

export default function setup(): void {
  if (!upToDate()) build();
}
