// receiver.idempotence (§6 rule 2): the receiver acts only while the record is pending, so
// duplicates (in sequence, concurrent, after the outcome, with the other outcome) are answered
// 2xx and change nothing.
import type { ResolvedReceiverTarget } from '../../targets/index.ts';
import type { ConformanceCase } from '../model.ts';
import { answerText, appliedOnce, describeReading, expectAppliedOnce, expectedOnce, FAILED_MESSAGE, receiverCase, SUCCESS_MESSAGE } from './kit.ts';
import { isSuccess } from '../../http/index.ts';

const MESSAGES = { SUCCESS: SUCCESS_MESSAGE, FAILED: FAILED_MESSAGE } as const;

/** The other outcome after one was applied: the record keeps the first, with one action. */
function conflictingCase(leaf: string, first: 'SUCCESS' | 'FAILED', second: 'SUCCESS' | 'FAILED'): ConformanceCase<ResolvedReceiverTarget> {
  return receiverCase(
    { id: `receiver.idempotence.${leaf}`, title: `a ${second} callback after ${first} was applied changes nothing`, specRef: '§6 rule 2, §3', level: 'MUST', needs: ['records', 'seed'] },
    async (probe) => {
      const id = probe.ctx.newTransactionId();
      await probe.seed(id);
      const sent = await probe.callback({ transaction_id: id, status: first, message: MESSAGES[first] });
      await probe.settledReading(id, true);
      const later = await probe.callback({ transaction_id: id, status: second, message: MESSAGES[second] }, { label: `callback ${second}, after ${first}` });
      const problems: string[] = [];
      if (!isSuccess(sent.answer.status)) problems.push(`the ${first} callback was answered ${answerText(sent.answer, probe.ctx.redactor)}, expected 2xx`);
      // The record is no longer pending: the receiver takes no action, and answers 2xx like any
      // repeated callback (§6 rule 3): a 409 or a 5xx only makes the service retry it (§4.3).
      if (!isSuccess(later.answer.status)) {
        problems.push(`the late ${second} callback was answered ${answerText(later.answer, probe.ctx.redactor)}: any non-2xx makes the service retry (§4.3) a callback that can never apply; §6 rule 3: the receiver replies 200`);
      }
      const after = await probe.settledReading(id, false);
      const applied = appliedOnce(after, first);
      if (!applied) {
        problems.push(`the record reads ${describeReading(after)}, expected ${expectedOnce(after, first)} (§6 rule 2: acts only while pending; §3: ${first} is terminal, final like every terminal state)`);
      }
      return problems.length ? probe.fail(problems, undefined, !applied && after?.state === 'pending' ? ['not-applied'] : []) : probe.pass();
    },
  );
}

/** Ten at once: enough for a check-then-set race to show on loopback. */
export const CONCURRENT_DUPLICATES = 10;

export const IDEMPOTENCE_CASES: ConformanceCase<ResolvedReceiverTarget>[] = [
  receiverCase(
    { id: 'receiver.idempotence.sequential-duplicate', title: 'the same callback twice in a row is applied once', specRef: '§6 rule 2', level: 'MUST', needs: ['records', 'seed', 'actions'] },
    async (probe) => {
      const id = probe.ctx.newTransactionId();
      await probe.seed(id);
      const params = { transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE };
      const first = await probe.callback(params, { label: 'callback 1 of 2' });
      const second = await probe.callback(params, { label: 'callback 2 of 2 (duplicate)' });
      return expectAppliedOnce(probe, id, [first, second], 'SUCCESS');
    },
  ),
  receiverCase(
    { id: 'receiver.idempotence.concurrent-duplicates', title: `${CONCURRENT_DUPLICATES} concurrent duplicates are applied once, all 2xx`, specRef: '§6 rule 2', level: 'MUST', needs: ['records', 'seed', 'actions'] },
    async (probe) => {
      const id = probe.ctx.newTransactionId();
      await probe.seed(id);
      const params = { transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE };
      // The race needs the wire to itself; the settle wait and the reading afterwards do not.
      const results = await probe.ctx.wire.alone(() => Promise.all(Array.from({ length: CONCURRENT_DUPLICATES }, (_, i) =>
        probe.callback(params, { label: `concurrent callback ${i + 1} of ${CONCURRENT_DUPLICATES}` }))), { burst: CONCURRENT_DUPLICATES });
      return expectAppliedOnce(probe, id, results, 'SUCCESS');
    },
  ),
  receiverCase(
    { id: 'receiver.idempotence.after-applied', title: 'the callback repeated after it was applied changes nothing', specRef: '§6 rule 2', level: 'MUST', needs: ['records', 'seed', 'actions'] },
    async (probe) => {
      const id = probe.ctx.newTransactionId();
      await probe.seed(id);
      const params = { transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE };
      const first = await probe.callback(params, { label: 'callback' });
      const applied = await probe.settledReading(id, true);
      if (!applied || applied.state !== 'SUCCESS') {
        return probe.fail(`the first callback was not applied (the record reads ${describeReading(applied)}), so a repeat cannot be judged`, undefined, applied?.state === 'pending' ? ['not-applied'] : []);
      }
      probe.notes.push(`after the first callback: ${describeReading(applied)}`);
      const again = await probe.callback(params, { label: 'the same callback, after it was applied' });
      return expectAppliedOnce(probe, id, [first, again], 'SUCCESS');
    },
  ),
  conflictingCase('conflicting-after-applied', 'SUCCESS', 'FAILED'),
  // FAILED is terminal too (§3): a receiver that treats only SUCCESS as final credits the
  // customer when a SUCCESS follows a FAILED.
  conflictingCase('success-after-failed', 'FAILED', 'SUCCESS'),
];
