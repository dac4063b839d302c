// receiver.outcome (§4.3, §6 Semantics): SUCCESS and FAILED are applied as sent; a status
// other than exactly SUCCESS/FAILED and an unknown transaction_id change nothing (DESIGN.md:
// any 2xx or 4xx answer is accepted there).
import type { ResolvedReceiverTarget } from '../../targets/index.ts';
import type { CaseOutcome, ConformanceCase } from '../model.ts';
import { answerText, describeReading, expectAppliedOnce, untouched, FAILED_MESSAGE, receiverCase, SUCCESS_MESSAGE, type ReceiverProbe } from './kit.ts';
import { isSuccess } from '../../http/index.ts';

function acceptableForNoAction(status: number): boolean {
  return isSuccess(status) || (status >= 400 && status <= 499);
}

/**
 * A PASS rests on the effect: "nothing changed" proves something only beside a valid callback
 * that changed its record. A FAIL whose only finding is the answer (the records show nothing
 * acted on) rests on the answer: beside a valid callback that got no 2xx either it is ERROR
 * (harness/preflight/guard.ts): a receiver that answers 500 to every callback fails the valid
 * one too, and that is the finding.
 */
function noActionOutcome(probe: ReceiverProbe, problems: string[], answerWrong: boolean): CaseOutcome {
  if (problems.length === 0) return { ...probe.pass(), restsOn: 'effect' };
  const failed = probe.fail(problems);
  return answerWrong && problems.length === 1 ? { ...failed, restsOn: 'answer' } : failed;
}

/** How a callback that must change nothing is spoilt, and why nothing may change. */
interface NoActionCallback {
  status: string;
  omit?: 'transaction_id' | 'status';
  /** Names the callback in labels and reasons: `with status=PENDING`, `without status`. */
  what: string;
  why: string;
}

/** Seeds a record, sends the spoilt callback: any 2xx or 4xx answer (DESIGN.md), the record unchanged. */
async function changesNothing(probe: ReceiverProbe, sent: NoActionCallback): Promise<CaseOutcome> {
  const id = probe.ctx.newTransactionId();
  await probe.seed(id);
  const answer = await probe.callback(
    { transaction_id: id, status: sent.status, message: 'Status update' },
    { label: `callback ${sent.what}`, ...(sent.omit ? { omit: sent.omit } : {}) },
  );
  const problems: string[] = [];
  const answerWrong = !acceptableForNoAction(answer.answer.status);
  if (answerWrong) {
    problems.push(`answered ${answerText(answer.answer, probe.ctx.redactor)} to a callback ${sent.what}; any 2xx or 4xx is accepted there (DESIGN.md), a 5xx makes the service retry`);
  }
  const after = await probe.settledReading(id, false);
  if (!untouched(after)) {
    problems.push(`the record changed to ${describeReading(after)} on a callback ${sent.what}: ${sent.why}, so nothing is to change`);
  }
  return noActionOutcome(probe, problems, answerWrong);
}

function unknownStatusChangesNothing(probe: ReceiverProbe, status: string): Promise<CaseOutcome> {
  return changesNothing(probe, {
    status, what: `with status=${status}`,
    why: `status ${JSON.stringify(status)} is neither SUCCESS nor FAILED (the only values §4.3 lists)`,
  });
}

function missingParamChangesNothing(probe: ReceiverProbe, omit: 'transaction_id' | 'status'): Promise<CaseOutcome> {
  return changesNothing(probe, {
    status: 'SUCCESS', omit, what: `without ${omit}`,
    why: omit === 'status' ? 'with no status there is no outcome to apply (§4.3, §6 Parameters)' : 'with no transaction_id there is no record to apply it to (§4.3, §6 Parameters)',
  });
}

export const OUTCOME_CASES: ConformanceCase<ResolvedReceiverTarget>[] = [
  receiverCase(
    { id: 'receiver.outcome.success-applied', title: 'a SUCCESS callback is applied as SUCCESS', specRef: '§6 Semantics', level: 'MUST', needs: ['records', 'seed'] },
    async (probe) => {
      const id = probe.ctx.newTransactionId();
      await probe.seed(id);
      const sent = await probe.callback({ transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE });
      return expectAppliedOnce(probe, id, [sent], 'SUCCESS', '§6 Semantics');
    },
  ),
  receiverCase(
    { id: 'receiver.outcome.failed-applied', title: 'a FAILED callback is applied as FAILED', specRef: '§6 Semantics', level: 'MUST', needs: ['records', 'seed'] },
    async (probe) => {
      const id = probe.ctx.newTransactionId();
      await probe.seed(id);
      const sent = await probe.callback({ transaction_id: id, status: 'FAILED', message: FAILED_MESSAGE });
      return expectAppliedOnce(probe, id, [sent], 'FAILED', '§6 Semantics');
    },
  ),
  receiverCase(
    { id: 'receiver.outcome.unknown-status-pending', title: 'status=PENDING changes nothing', specRef: '§4.3, §6 Parameters', level: 'MUST', needs: ['records', 'seed'], negative: 'refusal' },
    (probe) => unknownStatusChangesNothing(probe, 'PENDING'),
  ),
  receiverCase(
    // SHOULD: applying `success` as SUCCESS after case-folding breaks no sentence of the spec;
    // status values are exact upper case (§4.3), so the suite recommends refusing it.
    { id: 'receiver.outcome.unknown-status-lowercase', title: 'status=success (lower case) changes nothing', specRef: '§4.3, §6 Parameters', level: 'SHOULD', needs: ['records', 'seed'], negative: 'refusal' },
    (probe) => unknownStatusChangesNothing(probe, 'success'),
  ),
  receiverCase(
    { id: 'receiver.outcome.missing-status', title: 'a callback without status changes nothing', specRef: '§4.3, §6 Parameters', level: 'MUST', needs: ['records', 'seed'], negative: 'refusal' },
    (probe) => missingParamChangesNothing(probe, 'status'),
  ),
  receiverCase(
    { id: 'receiver.outcome.missing-transaction-id', title: 'a callback without transaction_id changes nothing', specRef: '§4.3, §6 Parameters', level: 'MUST', needs: ['records', 'seed'], negative: 'refusal' },
    (probe) => missingParamChangesNothing(probe, 'transaction_id'),
  ),
  receiverCase(
    { id: 'receiver.outcome.unknown-id', title: 'a callback for an unknown transaction_id creates nothing', specRef: '§6 rule 2', level: 'MUST', needs: ['records'], negative: 'refusal' },
    async (probe) => {
      const id = probe.ctx.newTransactionId();
      const before = await probe.read(id);
      probe.readings.before = before ?? '404 (no such record)';
      if (before) throw probe.error(`the receiver already holds ${JSON.stringify(id)}, an id this run never seeded`);
      const sent = await probe.callback({ transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE }, { label: 'callback for an id never seeded' });
      const problems: string[] = [];
      const answerWrong = !acceptableForNoAction(sent.answer.status);
      if (answerWrong) {
        problems.push(`answered ${answerText(sent.answer, probe.ctx.redactor)}; for an unknown transaction_id any 2xx or 4xx is accepted (DESIGN.md), a 5xx makes the service retry`);
      }
      const after = await probe.settledReading(id, false);
      if (after) problems.push(`the receiver now holds a record for the unknown id (${describeReading(after)}): an unknown transaction_id must change nothing`);
      return noActionOutcome(probe, problems, answerWrong);
    },
  ),
];
