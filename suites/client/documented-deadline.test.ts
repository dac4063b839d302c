// Issue 22, point 3 at full scale: a correct SDK whose own time limit is the documented example's
// answerDeadlineMs (10 s both). client.answers.no-answer waits the deadline and its grace (about
// 13 s), so this runs in the end-to-end tier; suites/client/no-answer.test.ts proves the
// same on a scaled clock.
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { runClient, verdicts } from './run-client.ts';

describe('a correct SDK whose own time limit is the deadline, at full scale', () => {
  it('the documented target file (examples/sdk-adapters/node/client.json, answerDeadlineMs 10000) with the SDK\'s limit at 10 s: every case PASS, exit 0', { timeout: 120_000 }, async () => {
    const run = await runClient('examples/sdk-adapters/node/client.json', { COLLECT_SDK_TIMEOUT_MS: '10000' });
    expect(run.code, run.stdout).toBe(0);
    expect(verdicts(run)).toEqual(Object.fromEntries(CLIENT_CASES.map((c) => [c.id, 'PASS'])));
  });
});
