// vitest globalSetup: the package laid out as `npm install` lays it out (bin/, dist/,
// package.json, vectors/, reports/schema/), in .test-install/ at the checkout's root, for the
// tests that run the command in a child process. The bin finds no sources beside it there, so
// it runs the compiled JavaScript, as an installed package does, instead of starting tsx's
// loader in every child (about 0.4 s of CPU each, a third of the suite's CPU time).
// Rebuilt only when a file it is made from is newer than the last build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const INSTALLED = join(ROOT, '.test-install');
const STAMP = join(INSTALLED, '.built');

/** What the installed copy is made from: a change to any of them rebuilds it. */
const SOURCES = ['harness', 'bin/collect-conformance.js', 'bin/precompile-schemas.js', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'suites/support/installed.ts'];

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

/**
 * harness/ as the package ships it in dist/: each .ts transpiled alone (isolatedModules holds,
 * so this is what tsc emits, without the type check `npm test` runs first and without
 * declarations, in a second instead of tsc's seven), every other run-time file copied.
 */
function compile(from: string, to: string, options: ts.CompilerOptions): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) compile(source, join(to, entry.name), options);
    else if (entry.name.endsWith('.md') || entry.name.endsWith('.test.ts')) continue;
    else if (entry.name.endsWith('.ts')) {
      const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), { compilerOptions: options, fileName: source });
      writeFileSync(join(to, entry.name.replace(/\.ts$/, '.js')), outputText);
    } else cpSync(source, join(to, entry.name));
  }
}

function buildOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.build.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, file);
  // transpileModule cannot see package.json's "type": "module", so NodeNext would give CommonJS.
  return { ...options, module: ts.ModuleKind.ESNext, declaration: false };
}

/** Builds into a fresh folder and moves it into place, so a reader never sees half a build. */
function build(): void {
  const next = `${INSTALLED}.${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  compile(join(ROOT, 'harness'), join(next, 'dist'), buildOptions());
  mkdirSync(join(next, 'bin'));
  cpSync(join(ROOT, 'bin/collect-conformance.js'), join(next, 'bin/collect-conformance.js'));
  cpSync(join(ROOT, 'package.json'), join(next, 'package.json'));
  // Read-only data the compiled code finds relative to itself: linked, not copied.
  symlinkSync(join(ROOT, 'vectors'), join(next, 'vectors'));
  mkdirSync(join(next, 'reports'));
  symlinkSync(join(ROOT, 'reports/schema'), join(next, 'reports/schema'));
  // As bin/build.js does: the start-up schemas compiled now.
  const precompiled = spawnSync(process.execPath, [join(ROOT, 'bin/precompile-schemas.js'), join(next, 'dist')], { stdio: 'inherit' });
  if (precompiled.status !== 0) throw new Error(`bin/precompile-schemas.js exited ${precompiled.status}`);
  writeFileSync(join(next, '.built'), `${new Date().toISOString()}\n`);
  rmSync(INSTALLED, { recursive: true, force: true });
  renameSync(next, INSTALLED);
}

const LOCK = `${INSTALLED}.lock`;
/** A lock older than this was left by a run that was killed while building. */
const STALE_LOCK_MS = 60_000;

/**
 * One build at a time: `npm test` runs the main and the Pact suites at once, and each asks for
 * the installed copy. Whoever takes the lock (an atomic mkdir) builds; the other waits, then finds
 * it up to date.
 */
async function withLock(work: () => void): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

export default async function setup(): Promise<void> {
  if (upToDate()) return;
  await withLock(() => {
    if (!upToDate()) build();
  });
}
