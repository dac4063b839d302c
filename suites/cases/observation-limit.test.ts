// The observation a run opens for a receiver target gets the run's limits: an observe command
// that never answers a read is given up on after its answer limit (MIN_COMMAND_ANSWER_MS, or the
// per-request limit when longer), and the case says so, instead of waiting out the case limit.
// The command is a bridge to the embedded receiver's test hooks (suites/observe/fixtures).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import { MIN_COMMAND_ANSWER_MS } from '../../harness/observe/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { runCases } from '../../harness/runner/index.ts';

const BRIDGE = fileURLToPath(new URL('../observe/fixtures/hooks-observer.mjs', import.meta.url));

it(`an observe command that hangs on a read: ERROR after its answer limit (${MIN_COMMAND_ANSWER_MS} ms), not the case limit`, async () => {
  const embedded = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 1000 });
  const dir = mkdtempSync(join(tmpdir(), 'cc-hung-'));
  try {
    // The first read is the one right after seeding: it never gets an answer.
    const hung = join(dir, 'hung');
    const target: ResolvedReceiverTarget = { ...embedded.target, observe: { kind: 'command', command: `node ${BRIDGE} ${embedded.receiver.hooksUrl} --hang-on-read 1 ${hung}` } };
    const [r] = await runCases({ cases: RECEIVER_CASES, target, seed: 1, only: 'receiver.outcome.success-applied', caseTimeoutMs: MIN_COMMAND_ANSWER_MS + 4000 });
    expect(r!.verdict).toBe('ERROR');
    expect(r!.reason).toContain(`no answer within ${MIN_COMMAND_ANSWER_MS} ms`);
  } finally {
    await embedded.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 20_000);
