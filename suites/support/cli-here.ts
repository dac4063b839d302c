// The command in this process: main() with stdout and stderr captured and the environment
// extended for the call (restored after). No loader start-up, and the harness's own sources run,
// so StrykerJS's mutants are reached (a child process runs the installed, compiled copy).
// Tests in one file run one after another; the spies and environment are never shared by two calls.
// The `run` command alone also without spies (runFlagsHere): its output and environment are
// its own, so concurrent tests may call it.
import { vi } from 'vitest';
import { runFromFlags, type RunOptions } from '../../harness/cli/commands/run.ts';
import { main } from '../../harness/cli/index.ts';
import { printable } from '../../harness/report/index.ts';
import { TargetUnreachableError, UsageError } from '../../harness/tool/index.ts';
import type { Ran } from './cli-process.ts';

/** `env`: added to this process's environment for the call (an `undefined` value removes the name). */
export async function runHere(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  set(env);
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { stdout += String(chunk); return true; });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { stderr += String(chunk); return true; });
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    set(saved);
  }
}

/**
 * runHere with the kit's own variables as a child started by runBin sees them (cli-process.ts:
 * only PATH and HOME): every COLLECT_* of this process unset for the call, but those `env` gives.
 */
export function runHereWithoutKitEnv(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  const unset = Object.fromEntries(Object.keys(process.env).filter((k) => k.startsWith('COLLECT_')).map((k) => [k, undefined]));
  return runHere(args, { ...unset, ...env });
}

/**
 * The command's `run` with these flags, in this process, its output and environment its own (no
 * spy, no process.env), so that concurrent tests share neither: runFromFlags with its terminal
 * captured, the exit status as the command's (main() ends on a usage error with 2, on an
 * unreachable target with 3, the message on stderr). Its environment is PATH and HOME, as
 * runBin's child has it, plus `env`; it runs in `cwd`. Commands the run starts (an SDK adapter, an
 * observer command) are started as ever: in this process's working directory and environment.
 */
export async function runFlagsHere(options: RunOptions, cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (t: string) => { stdout += t; },
    stderr: (t: string) => { stderr += t; },
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    cwd, color: false, progress: false,
  };
  try {
    const code = await runFromFlags(options, io);
    return { code, stdout, stderr };
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof TargetUnreachableError)) throw error;
    return { code: error.exitCode, stdout, stderr: `${stderr}collect-conformance: ${printable(error.message)}\n` };
  }
}
