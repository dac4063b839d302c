// The receiver preflight's confirmation half (receiver.confirm, §6 rule 5): for a target that
// says it confirms, the preflight's valid SUCCESS callback is answered SUCCESS by the harness's
// status endpoint; the control holds when the receiver asked about that transaction with a query
// the service accepts, applied the outcome and answered 2xx. The negative confirm cases ("nothing
// was fulfilled") rest on it. When it does not hold, what the queries show is the shared cause:
// no query at all, queries the service refuses (their signature, named as any signer's), a query
// off the endpoint's route or naming another id. A query the endpoint answered only after the
// receiver had given up on it (a loaded machine) leaves the control unjudged (not-run), the
// kit's endpoint named as the cause: the receiver is not blamed for the kit's delay.
import { NO_STATUS_QUERY, type RunResources } from '../cases/index.ts';
import type { RecordReading } from '../observe/index.ts';
import type { Evidence } from '../results/index.ts';
import { lateAnswerWords, lateForReceiver, REFERENCE_STATUS_FORM, spell, type ReceivedQuery, type StatusForm } from '../status/index.ts';
import type { ResolvedReceiverTarget } from '../targets/index.ts';
import type { Control, Finding } from './model.ts';
import { isSuccess, type HttpResult } from '../http/index.ts';

const WHAT = 'the preflight\'s valid SUCCESS callback, which the harness\'s status endpoint confirms';

export interface ConfirmationCheck {
  control: Control;
  finding?: Finding;
  /** The harness's status endpoint answered too late for the receiver: the preflight's callback was not judged. */
  kitLate?: true;
}

function route(q: ReceivedQuery): string {
  return `${q.method} ${q.target.split('?')[0]}`;
}

/**
 * A guess, worded as one, for a record left pending with an answer: a receiver that reads the
 * status in one letter case only does just this. The evidence for each form is in docs/positions.md; the target file can state its
 * service's form.
 */
function formGuess(form: StatusForm): string {
  const other = form.letterCase === 'lower' ? 'upper' : 'lower';
  return `likely it does not read the answer's "status": ${JSON.stringify(spell('SUCCESS', form.letterCase))} (${form.letterCase} case, ${form.letterCase === REFERENCE_STATUS_FORM.letterCase ? 'as the real service\'s clients read it' : 'as confirms.statusForm states'}: docs/positions.md, status.answer-values); a receiver that reads either letter case confirms against both forms, and a service known to answer ${other} case is stated as "confirms": {"statusForm": {"letterCase": "${other}"}}`;
}

/**
 * The confirmation control of a confirming target (undefined for one that does not confirm).
 * `callbackFailed`: the valid callback met a cause the preflight names (refused, not routed, no
 * answer, a 5xx); without any query, that cause is named, not "it does not confirm".
 * `repliedAt`: performance.now() once the callback's reply (or failure) came.
 */
export async function confirmationCheck(
  target: ResolvedReceiverTarget, resources: RunResources, id: string, sentAt: number, sent: HttpResult, after: RecordReading | null | undefined, callbackFailed: boolean, evidence: Evidence,
  repliedAt: number,
): Promise<ConfirmationCheck | undefined> {
  const held = await resources.statusEndpoints.of(target);
  if (!held) return undefined;
  // The callback itself errs then (harness/cases kit), and the preflight names the reason.
  if (!held.ok) return { control: { state: 'failed', what: WHAT, observed: held.reason } };
  // Without a seeded record the callback names an id the receiver does not hold: nothing to confirm.
  if (after === undefined && sent.ok && !callbackFailed) {
    return { control: { state: 'not-run', what: WHAT, observed: 'without a seeded record (no hooks, or an observe that cannot seed) the preflight\'s callback is for an id the receiver does not hold, so there was nothing to confirm' } };
  }
  const endpoint = held.endpoint;
  // A query already sent when the callback's reply was taken is read first (a kit whose loop was blocked).
  await endpoint.settled(id);
  const named = endpoint.queriesFor(id);
  const stray = endpoint.strayQueries(sentAt);
  const url = `${endpoint.url}${endpoint.endpoint.path}`;
  const fail = (observed: string, finding?: Omit<Finding, 'evidence'>): ConfirmationCheck => ({
    control: { state: 'failed', what: WHAT, observed },
    ...(finding ? { finding: { ...finding, evidence } } : {}),
  });
  const good = named.filter((q) => !q.problem);
  if (good.length > 0) {
    const applied = after !== undefined && after !== null && after.state === 'SUCCESS';
    const answered2xx = sent.ok && isSuccess(sent.answer.status);
    if (applied && answered2xx) return { control: { state: 'held', what: WHAT, observed: 'the receiver asked the status endpoint, was answered SUCCESS, and applied it' } };
    const late = lateForReceiver(named, sent.ok ? { at: repliedAt, acknowledged: answered2xx } : undefined);
    if (late) {
      const observed = lateAnswerWords(late, sent.ok ? `answered its callback ${sent.answer.status}` : 'gave no reply');
      return {
        control: { state: 'not-run', what: WHAT, observed },
        finding: {
          id: 'receiver.status-answer-late',
          summary: `${WHAT}: ${observed}; the confirm cases rest on it (not run), and the cases whose own status queries were answered too late are ERROR: a run on a quieter machine judges them`,
          symptom: { kind: 'stated', cause: 'status-answer-late' },
          evidence,
        },
        kitLate: true,
      };
    }
    // The generic preflight finding names why a confirmed valid callback was not applied or not 2xx.
    return fail(`the receiver asked the status endpoint and was answered SUCCESS, but ${sent.ok ? `answered ${sent.answer.status}` : 'gave no answer'} and the record reads ${after ? `${after.state}, actions ${after.actions}` : 'nothing'}${sent.ok && after?.state === 'pending' ? `; ${formGuess(endpoint.form)}` : ''}`);
  }
  if (named.length > 0) {
    const problem = named[0]!.problem!;
    return fail(`its status query was refused as the service would refuse it: ${problem.detail}`, {
      id: 'receiver.confirm.query-refused',
      summary: `the receiver's status query (${route(named[0]!)}) for the preflight's valid callback was refused as the service would refuse it: ${problem.detail}; a receiver whose queries are refused can confirm nothing, so every SUCCESS it should fulfil stays pending: the cases named here likely fail or prove nothing for this one cause`,
      symptom: { kind: 'whole-side' },
    });
  }
  const offRoute = stray.find((q) => q.problem?.kind === 'route');
  if (offRoute) {
    return fail(`the receiver called ${route(offRoute)}, not the status endpoint`, {
      id: 'receiver.confirm.query-off-route',
      summary: `the receiver called ${route(offRoute)} on the status endpoint's listener, where the target's status endpoint is ${endpoint.endpoint.method} ${endpoint.endpoint.path}: likely its service's endpoint differs from the suite's position, which the target file then states as "status": {"method", "path", "pointer"}; until then every confirmation fails, so the cases named here likely fail for this one cause`,
      symptom: { kind: 'whole-side' },
    });
  }
  const otherId = stray.find((q) => q.askedId !== undefined);
  if (otherId) {
    return fail(`its status query named ${JSON.stringify(otherId.askedId)}, not the callback's ${JSON.stringify(id)}`, {
      id: 'receiver.confirm.query-other-id',
      summary: `the receiver's status query for the preflight's valid callback named ${JSON.stringify(otherId.askedId)}, not the callback's transaction_id ${JSON.stringify(id)}: the harness knows no such transaction (404), so nothing can be confirmed; the cases named here likely fail for this one cause`,
      symptom: { kind: 'whole-side' },
    });
  }
  if (callbackFailed) return fail(`${NO_STATUS_QUERY} for it, and the valid callback met another cause, which the preflight names`);
  const did = after && after.state !== 'pending' ? `applied it (the record reads ${after.state}, actions ${after.actions})` : `answered ${sent.ok ? sent.answer.status : 'nothing'}`;
  return fail(`${NO_STATUS_QUERY} for it; the receiver ${did}`, {
    id: 'receiver.confirm.never-queried',
    summary: `the target says the receiver confirms outcomes ("confirms"), but ${NO_STATUS_QUERY} (${url}) for the preflight's valid SUCCESS callback, and the receiver ${did}: likely it does not confirm, or calls another address than confirms.listener; the cases named here state the same and likely share this one cause`,
    symptom: { kind: 'stated', cause: 'no-status-query' },
  });
}
