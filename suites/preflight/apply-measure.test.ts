// A receiver's preflight measures how late the receiver applies a valid callback
// (harness/preflight/index.ts, harness/cases/receiver/apply-times.ts): the cases start beside it,
// and one that expects no change waits for that measure before it reads the record, so a receiver
// that answers first and applies from a queue is read as late as it acts; a preflight that
// measured nothing (its callback got no answer) holds no case waiting. Against the reference
// receiver behind a front that answers at once and applies 300 ms later (suites/receiver/rules-fronts.ts).
import { describe, expect, it } from 'vitest';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import { runChecked } from '../../harness/preflight/index.ts';
import { startFront, type CallbackHandler } from './front.ts';
import { queued } from '../receiver/rules-fronts.ts';
import { startedForDescribe } from '../support/per-describe.ts';

const reference = startedForDescribe(() => startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 1000 }));
const LATE_NOTE = /^late actions were waited for \d+ ms before the record was read: this receiver took up to \d+ ms in this run to apply a valid callback after answering it$/;

async function checkedBehind(only: string, onCallback: CallbackHandler) {
  const front = await startFront(reference(), onCallback);
  try {
    return await runChecked({ target: front.target, seed: 7, cases: RECEIVER_CASES, only });
  } finally {
    await front.close();
  }
}

describe('a receiver that answers at once and applies 300 ms later: the cases read as late as the preflight measured', () => {
  it('PENDING applied as SUCCESS, late: receiver.outcome.unknown-status-pending FAILs on the record, noting the wait', async () => {
    const { preflight, results } = await checkedBehind('receiver.outcome.unknown-status-pending', queued({ rewrite: (q) => { if (q.get('status') === 'PENDING') q.set('status', 'SUCCESS'); } }));
    expect(preflight.result.verdict).toBe('PASS');
    const [r] = results;
    expect(r).toMatchObject({ id: 'receiver.outcome.unknown-status-pending', verdict: 'FAIL', reason: expect.stringMatching(/^the record changed to state SUCCESS/) });
    expect(r!.evidence?.notes).toContainEqual(expect.stringMatching(LATE_NOTE));
  });
  it('the preflight\'s callback dropped, so nothing measured: the case is not held waiting for a measure, it reads after the settle time', async () => {
    let first = true;
    const queue = queued();
    const { preflight, results } = await checkedBehind('receiver.outcome.unknown-status-pending', (req, res, pass) => {
      if (first) { first = false; return void req.socket.destroy(); }
      queue(req, res, pass);
    });
    expect(preflight.findings.map((f) => f.id)).toEqual(['receiver.no-answer']);
    // Judged beside the control that did not hold (not held until its time limit), and read without a wait for late actions.
    expect(results).toMatchObject([{ id: 'receiver.outcome.unknown-status-pending', verdict: 'ERROR', reason: expect.stringMatching(/^the target refused or did nothing, but that proves nothing here: the positive control .* did not hold: it got no answer/) }]);
    expect(results[0]!.evidence?.notes ?? []).not.toContainEqual(expect.stringMatching(LATE_NOTE));
  });
});
