// The command's `run` in this process (runFromFlags) against a reference receiver with the
// case-insensitive-token fault, through a target file in a temporary folder: the receiver.token
// cases give one FAIL (different-case). For the tests of what a run writes around its report.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runFromFlags, type RunIo, type RunOptions } from '../../harness/cli/commands/run.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';

export interface FaultyReceiverRun {
  /** The temporary folder: the target file's, and the runs' working directory. */
  dir: string;
  /** The callback token (to show it appears nowhere). */
  token(): string;
  run(options: Omit<RunOptions, 'target'>, env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Registers the receiver's start and stop in the calling file's beforeAll and afterAll. */
export function faultyReceiverRun(prefix: string): FaultyReceiverRun {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const target = join(dir, 'receiver.json');
  let receiver: EmbeddedReceiver;
  beforeAll(async () => {
    receiver = await startEmbeddedReceiver({ faults: ['case-insensitive-token'] });
    writeFileSync(target, JSON.stringify({
      side: 'receiver', callbackUrl: receiver.target.callbackUrl, hooksUrl: receiver.receiver.hooksUrl,
      callbackToken: { env: 'MY_TOKEN' }, timing: { replyDeadlineMs: 1000 },
    }));
  });
  afterAll(() => receiver.close());
  return {
    dir,
    token: () => receiver.target.callbackToken!,
    async run(options, env = {}) {
      let stdout = '';
      let stderr = '';
      const io: RunIo = {
        stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; }, cwd: dir, color: false, progress: false,
        env: { MY_TOKEN: receiver.target.callbackToken!, ...env },
      };
      const code = await runFromFlags({ target, ...options }, io);
      return { code, stdout, stderr };
    },
  };
}
