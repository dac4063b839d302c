// The command as a user runs it, in a child process: the package's bin, installed (.installed/,
// kept up to date by the globalSetup suites/support/installed.ts, so it runs the compiled
// JavaScript), with only PATH and HOME from this environment (nothing a developer exported leaks
// into a test) plus `env`. The checkout's own bin (which runs that same copy, or the sources
// through tsx when they do not compile) is CHECKOUT_BIN; the README rehearsals run that one, as
// the README shows it.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INSTALLED } from './installed.ts';

export const BIN = join(INSTALLED, 'bin/collect-conformance.js');
export const CHECKOUT_BIN = fileURLToPath(new URL('../../bin/collect-conformance.js', import.meta.url));

export interface Ran { code: number | null; stdout: string; stderr: string }

export interface BinOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Killed (SIGKILL) after this long; its result then has code null. */
  timeoutMs?: number;
}

/** `argv`: another program than the command (a fixture server that also prints `listening on <URL>`). */
function spawnBin(args: readonly string[], options: BinOptions, argv: readonly string[] = [process.execPath, BIN]): ChildProcess {
  return spawn(argv[0]!, [...argv.slice(1), ...args], {
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the command to its end. */
export function runBin(args: readonly string[], options: BinOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawnBin(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
    const killer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A command that serves until it is stopped (`receiver`, `simulate`). */
export interface Started {
  child: ChildProcess;
  /** The URL of its one `listening on <URL>` line; rejects if it exits first. */
  url: Promise<string>;
  stdout(): string;
  stderr(): string;
  /** Its exit status, once both pipes are drained. */
  exit: Promise<number | null>;
}

const started: ChildProcess[] = [];

/**
 * Starts the command (or `argv`, another program that prints `listening on <URL>`); `stopAll`
 * (in an afterAll) kills whatever a failed test left running.
 */
export function startBin(args: readonly string[], options: BinOptions = {}, argv?: readonly string[]): Started {
  const child = spawnBin(args, options, argv);
  started.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => { err += chunk.toString(); });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening on (\S+)\n/m.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before listening: ${err}`)));
  });
  url.catch(() => {});
  // 'close' comes after 'exit' and after both pipes are drained.
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, url, exit, stdout: () => out, stderr: () => err };
}

export function stopAll(): void {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** stderr and stdout are separate pipes: what was written first may arrive second. */
export async function stderrMatching(run: Started, pattern: RegExp): Promise<RegExpExecArray> {
  for (let i = 0; i < 200; i++) {
    const match = pattern.exec(run.stderr());
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`stderr never matched ${pattern}: ${run.stderr()}`);
}

/** Resolves once a run started with startBin has printed its first case result (it is then in the middle of its cases). */
export function firstResultLine(run: Started, limitMs = 30_000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no result line within ${limitMs / 1000} s: ${run.stderr()}`)), limitMs);
    const check = () => {
      if (/^(PASS|FAIL|WARN|SKIP|ERROR) /m.test(run.stdout())) {
        clearTimeout(timer);
        run.child.stdout!.off('data', check);
        resolve();
      }
    };
    run.child.stdout!.on('data', check);
    check();
  });
}
