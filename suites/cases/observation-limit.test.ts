// The observation a run opens for a receiver target gets the run's limits: an observe command
// that never answers a read is given up on after its answer limit (MIN_COMMAND_ANSWER_MS, or the
// per-request limit when longer), and the case says so, instead of waiting out the case limit.
// The command is a bridge to the embedded receiver's test hooks (suites/observe/fixtures). The
// run's floor is scaled down here (minObserverAnswerMs), so the hang is not waited out for 5 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import { commandAnswerLimitMs, MIN_COMMAND_ANSWER_MS } from '../../harness/observe/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { runCases } from '../../harness/runner/index.ts';

const BRIDGE = fileURLToPath(new URL('../observe/fixtures/hooks-observer.mjs', import.meta.url));

/**
 * The run's floor for a command's answer, scaled down: above the per-request limit given (1000 ms),
 * so the floor is what applies; room for the command's start-up on a loaded machine, which counts
 * within its first answer (the seed's).
 */
const FLOOR_MS = 2000;

describe('an observer command\'s answer limit', () => {
  it(`by default the per-request limit, but never less than ${MIN_COMMAND_ANSWER_MS} ms (a JVM takes a second to start); a run's floor replaces that`, () => {
    expect(commandAnswerLimitMs(1000)).toBe(MIN_COMMAND_ANSWER_MS);
    expect(commandAnswerLimitMs(MIN_COMMAND_ANSWER_MS + 3000)).toBe(MIN_COMMAND_ANSWER_MS + 3000);
    expect(commandAnswerLimitMs(1000, FLOOR_MS)).toBe(FLOOR_MS);
    expect(commandAnswerLimitMs(FLOOR_MS + 500, FLOOR_MS)).toBe(FLOOR_MS + 500);
  });

  it(`an observe command that hangs on a read: ERROR after its answer limit (the run's floor, ${FLOOR_MS} ms here), not the case limit`, async () => {
    const embedded = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 1000 });
    const dir = mkdtempSync(join(tmpdir(), 'cc-hung-'));
    try {
      // The first read is the one right after seeding: it never gets an answer.
      const hung = join(dir, 'hung');
      const target: ResolvedReceiverTarget = { ...embedded.target, observe: { kind: 'command', command: `node ${BRIDGE} ${embedded.receiver.hooksUrl} --hang-on-read 1 ${hung}` } };
      const [r] = await runCases({
        cases: RECEIVER_CASES, target, seed: 1, only: 'receiver.outcome.success-applied',
        perRequestTimeoutMs: 1000, minObserverAnswerMs: FLOOR_MS, caseTimeoutMs: FLOOR_MS + 4000,
      });
      expect(r!.verdict).toBe('ERROR');
      // The read hung (not the seed before it), and the limit that ran out is the floor.
      expect(r!.reason).toMatch(new RegExp(`gave no usable answer to read "[^"]+" \\(timeout\\): no answer within ${FLOOR_MS} ms`));
    } finally {
      await embedded.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
