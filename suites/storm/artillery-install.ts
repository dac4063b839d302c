// Artillery for the end-to-end tier: Node 22 and Artillery from the npm registry, pinned, in a
// cache folder of their own (never the kit's dependencies: Artillery needs Node >= 22.18 and
// brings about 460 packages, 645 MB). Installed once, reused while the versions match. Where the
// registry cannot be reached, the tests that need it skip naming why, and fail under CI=true (as
// suites/support/programs.ts does for Debian programs).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { requiredInCi } from '../support/programs.ts';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;

/** The registry's newest Node 22 at the time of writing (22.23.5 does not exist there). */
export const NODE_VERSION = '22.23.3';
export const ARTILLERY_VERSION = '2.0.34';
export const ARTILLERY_CACHE = process.env.COLLECT_ARTILLERY_CACHE ?? join(ROOT, 'node_modules', '.cache', 'collect-artillery');
export const INSTALL_COMMAND = `PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm i --prefix ${ARTILLERY_CACHE} node@${NODE_VERSION} artillery@${ARTILLERY_VERSION}`;

export interface ArtilleryInstall {
  node: string;
  artillery: string;
}

const bin = (name: string) => join(ARTILLERY_CACHE, 'node_modules', '.bin', name);

function installedVersion(pkg: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(ARTILLERY_CACHE, 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function present(): boolean {
  return existsSync(bin('node')) && existsSync(bin('artillery')) && installedVersion('node') === NODE_VERSION && installedVersion('artillery') === ARTILLERY_VERSION;
}

/** The pinned Node 22 and Artillery, installed into the cache when missing; or why they cannot be. */
export async function ensureArtillery(): Promise<ArtilleryInstall | { missing: string }> {
  if (!present()) {
    mkdirSync(ARTILLERY_CACHE, { recursive: true });
    try {
      await run('npm', ['i', '--prefix', ARTILLERY_CACHE, '--no-audit', '--no-fund', `node@${NODE_VERSION}`, `artillery@${ARTILLERY_VERSION}`], {
        env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ARTILLERY_DISABLE_TELEMETRY: 'true' }, timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const text = `${(error as { stderr?: string }).stderr ?? ''}${(error as Error).message}`;
      const line = text.split('\n').find((l) => /npm error (code|network|notarget)|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/.test(l)) ?? text.split('\n')[0];
      return { missing: `Artillery could not be installed from the npm registry (${line?.trim()}): ${INSTALL_COMMAND}` };
    }
    if (!present()) return { missing: `the install left no node ${NODE_VERSION} and artillery ${ARTILLERY_VERSION} in ${ARTILLERY_CACHE}: ${INSTALL_COMMAND}` };
  }
  return { node: bin('node'), artillery: bin('artillery') };
}

/** A describe block that needs Artillery: run when installed, else skipped naming why, or under CI=true one failing test. */
export function describeWithArtillery(install: ArtilleryInstall | { missing: string }, title: string, body: (install: ArtilleryInstall) => void): void {
  if ('missing' in install) {
    if (requiredInCi()) {
      describe(`${title} [needs Artillery]`, () => {
        it('requires Artillery under CI=true', () => {
          throw new Error(install.missing);
        });
      });
    } else {
      describe.skip(`${title} [needs Artillery: ${install.missing}]`, () => {
        it('skipped', () => {});
      });
    }
    return;
  }
  describe(title, () => body(install));
}

/** `artillery run --output FILE SCRIPT` under Node 22, the token in its variable; what it printed. */
export async function artilleryRun(install: ArtilleryInstall, script: string, output: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return run(install.node, [install.artillery, 'run', '--output', output, script], {
    env: { PATH: `${join(ARTILLERY_CACHE, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp', ARTILLERY_DISABLE_TELEMETRY: 'true', ...env },
    timeout: 180_000, maxBuffer: 64 * 1024 * 1024,
  });
}
