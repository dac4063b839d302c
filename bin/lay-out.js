// The checkout's package laid out as `npm install` lays it out (bin/, dist/, package.json,
// vectors/, reports/schema/), in .installed/ at the checkout's root (git-ignored), compiled from
// the sources of harness/. The checkout's bin runs it, as do the tests that run the command in a
// child process: compiled JavaScript starts about 0.4 s sooner than the sources through tsx's
// loader. Rebuilt (about two seconds) whenever a file it is made from is newer than the last
// build, so no one meets stale compiled code.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const LAID_OUT = join(ROOT, '.installed');
const STAMP = join(LAID_OUT, '.built');

/** What the laid-out copy is made from: a change to any of them rebuilds it. */
const SOURCES = ['harness', 'bin/collect-conformance.js', 'bin/precompile-schemas.js', 'bin/lay-out.js', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

function newestMtimeMs(path) {
  const stat = statSync(path);
  let newest = stat.mtimeMs;
  if (!stat.isDirectory()) return newest;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

/** True when .installed/ was built after every file it is made from last changed (a few ms). */
export function upToDate() {
  if (!existsSync(STAMP)) return false;
  const built = statSync(STAMP).mtimeMs;
  return SOURCES.every((source) => newestMtimeMs(join(ROOT, source)) < built);
}

/**
 * harness/ as the package ships it in dist/: each .ts transpiled alone (isolatedModules holds,
 * so this is what tsc emits, without the type check and the declarations, in a second instead of
 * tsc's seven), every other run-time file copied. A syntax error fails the build (tsx then runs
 * the sources and names it).
 */
function compile(ts, from, to, options) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) compile(ts, source, join(to, entry.name), options);
    else if (entry.name.endsWith('.md') || entry.name.endsWith('.test.ts')) continue;
    else if (entry.name.endsWith('.ts')) {
      const { outputText, diagnostics = [] } = ts.transpileModule(readFileSync(source, 'utf8'), { compilerOptions: options, fileName: source, reportDiagnostics: true });
      // The file's own (syntax) errors; the options' remarks (module with NodeNext) are not.
      const error = diagnostics.find((d) => d.file !== undefined);
      if (error) throw new Error(`${source}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
      writeFileSync(join(to, entry.name.replace(/\.ts$/, '.js')), outputText);
    } else cpSync(source, join(to, entry.name));
  }
}

function buildOptions(ts) {
  const file = join(ROOT, 'tsconfig.build.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, file);
  // transpileModule cannot see package.json's "type": "module", so NodeNext would give CommonJS.
  return { ...options, module: ts.ModuleKind.ESNext, declaration: false };
}

/** Builds into a fresh folder and moves it into place, so a reader never sees half a build. */
async function build() {
  const ts = (await import('typescript')).default;
  const next = `${LAID_OUT}.${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  try {
    compile(ts, join(ROOT, 'harness'), join(next, 'dist'), buildOptions(ts));
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
    rmSync(LAID_OUT, { recursive: true, force: true });
    renameSync(next, LAID_OUT);
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

const LOCK = `${LAID_OUT}.lock`;
/** A lock older than this was left by a process that was killed while building. */
const STALE_LOCK_MS = 60_000;

/**
 * One build at a time (vitest's workers and projects start at once; a user may start
 * `receiver &` and `run` together): whoever takes the lock (an atomic mkdir) builds; the others
 * wait, then find it up to date.
 */
async function withLock(work) {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** .installed/ up to date, built first if needed; resolves with its folder. Throws if it cannot be built. */
export async function layOut() {
  if (!upToDate()) {
    await withLock(async () => {
      if (!upToDate()) await build();
    });
  }
  return LAID_OUT;
}
