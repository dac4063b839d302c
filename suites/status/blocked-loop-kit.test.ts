// The end-to-end tier's heavy-load case, in one process: a confirming receiver asks the kit's
// status endpoint, the kit's WHOLE event loop is then blocked past its limit, the receiver gives
// up (closes its query) and answers the callback 503; once the loop is free the kit reads the
// query and the 503 together. The case (receiver.params.reserved-transaction-id, which printed an
// extra FAIL in the end-to-end tier) is ERROR naming the kit's endpoint (status-answer-late), not
// FAIL. Controls, the same case: the receiver that waits for its answer PASSes; one that closes
// its query as it sends it (it does not wait), the loop not blocked, FAILs: its own act. The
// receiver is the tests' confirming receiver (suites/receiver/fixtures) with its query sent on a
// raw socket; the loop is blocked by a bounded busy-wait of 550 ms (UNREAD_STALL_MS is 500 ms):
// half a second of CPU, so the file is in the end-to-end tier (suites/support/tiers.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { runCases } from '../../harness/runner/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { UNREAD_STALL_MS } from '../../harness/status/index.ts';
import { startConfirmingReceiver, type ConfirmPolicy } from '../receiver/fixtures/confirming-receiver.ts';
import { blockLoop, queryBytes } from './fixtures/blocked.ts';

const CASE = 'receiver.params.reserved-transaction-id';
const BLOCK_MS = UNREAD_STALL_MS + 50;
const sockets: Socket[] = [];
afterAll(() => { for (const s of sockets) s.destroy(); });

/**
 * The case against a confirming receiver whose query for the case's id (the one carrying "#e+f")
 * goes out on a raw socket opened beforehand; `then` runs right after it is written (the receiver
 * gives up: the socket closed), and the receiver, having no answer, leaves the record pending and
 * answers 503. Other ids (the preflight's) are asked as usual.
 */
async function caseWith(then: (socket: Socket) => void): Promise<CaseResult> {
  let raw: Socket | undefined;
  const policy: ConfirmPolicy = {
    queries: (id, signed) => {
      if (!id.includes('#e+f') || !raw) return [signed(id)];
      raw.write(queryBytes(signed(id)));
      then(raw);
      return [];
    },
  };
  const receiver = await startConfirmingReceiver(policy, { timing: { replyDeadlineMs: 1000 } });
  try {
    raw = connect(receiver.target.confirms!.listener!.port, '127.0.0.1');
    sockets.push(raw);
    raw.on('error', () => {});
    await new Promise<void>((resolve) => raw!.once('connect', () => resolve()));
    const results = await runCases({ cases: RECEIVER_CASES, target: receiver.target, seed: 11, only: CASE, perRequestTimeoutMs: 5000 });
    return results.find((r) => r.id === CASE)!;
  } finally {
    await receiver.close();
  }
}

describe('receiver.params.reserved-transaction-id beside a confirming receiver, the kit\'s whole event loop blocked while its query waits', () => {
  it('the receiver gave up (closed its query) while the loop was blocked 550 ms, then answered 503: ERROR naming the kit\'s endpoint (status-answer-late), not FAIL', async () => {
    const r = await caseWith((socket) => {
      blockLoop(BLOCK_MS);
      socket.destroy();
    });
    expect(r.verdict, r.reason).toBe('ERROR');
    expect(r.stated?.causes).toEqual(['status-answer-late']);
    expect(r.reason).toMatch(/^the harness's status endpoint read the receiver's status query only after its own event loop had been blocked \d+ ms, and by then the receiver had closed the connection \(given up on its query\) and answered its callback 503: the delay is the kit's/);
    const blocked = Number(/blocked (\d+) ms/.exec(r.reason ?? '')![1]);
    expect(blocked).toBeGreaterThanOrEqual(UNREAD_STALL_MS);
    expect(r.reason).toContain('(the case saw: ');
  });
  it('control: the receiver closed its query as it sent it, the loop not blocked: answered at once, and the record left pending FAILs (its own act)', async () => {
    const r = await caseWith((socket) => socket.destroy());
    expect(r.verdict, r.reason).toBe('FAIL');
    expect(r.stated?.causes ?? []).not.toContain('status-answer-late');
  });
  it('control: the same receiver asking as usual has its answer and applies it: PASS', async () => {
    const receiver = await startConfirmingReceiver({}, { timing: { replyDeadlineMs: 1000 } });
    try {
      const [r] = (await runCases({ cases: RECEIVER_CASES, target: receiver.target, seed: 11, only: CASE, perRequestTimeoutMs: 5000 })).filter((x) => x.id === CASE);
      expect(r?.verdict, r?.reason).toBe('PASS');
    } finally {
      await receiver.close();
    }
  });
});
