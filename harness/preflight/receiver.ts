// The receiver's preflight: one valid callback (the configured token) for a freshly seeded
// record, or without hooks for a fresh id. It is the positive control of every negative
// receiver case, and when it does not hold it names what it saw: the route refuses GET, the
// path answers 404, the token is refused, the outcome is applied and then answered 5xx, the
// connection is refused or TLS fails.
import {
  describeReading, receiverCase, ReceiverProbe, SUCCESS_MESSAGE, type ConformanceCase, type HttpResult,
} from '../cases/index.ts';
import type { RecordReading } from '../observe/index.ts';
import type { Evidence } from '../results/index.ts';
import type { ResolvedReceiverTarget } from '../targets/index.ts';
import type { Control, Finding, Preflight } from './model.ts';
import { confirmationCheck } from './confirm.ts';

const WHAT_HOOKS = 'the preflight\'s valid callback (configured token) for a freshly seeded record';
const WHAT_BLACK_BOX = 'the preflight\'s valid callback (configured token) for a fresh id';

function header(result: HttpResult & { ok: true }, name: string): string | undefined {
  const value = result.answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Names the cause of an answer that is not what a valid callback should get. */
function findingFor(sent: HttpResult, after: RecordReading | null | undefined, evidence: Evidence): Finding | undefined {
  if (!sent.ok) {
    const error = sent.failure.message;
    const tls = sent.failure.code === 'tls';
    return {
      id: tls ? 'receiver.tls-failed' : 'receiver.no-answer',
      summary: tls
        ? `the preflight's valid callback failed in the TLS handshake (${error}): likely the receiver's certificate is not trusted (target file "ca") or the URL's scheme is wrong`
        : `the preflight's valid callback got no usable answer (${error}); every case that sends a callback will likely see the same`,
      symptom: { kind: 'failure', code: sent.failure.code },
      evidence,
    };
  }
  const status = sent.answer.status;
  const applied = after !== undefined && after !== null && after.state !== 'pending';
  if (status === 405) {
    const allow = header(sent, 'allow');
    return {
      id: 'receiver.route-refuses-get',
      summary: `the callback route answered 405${allow ? ` (Allow: ${allow})` : ''} to a valid callback: it does not accept GET, the method every callback uses (§6 Delivery); the cases named here got the same 405, so they likely fail for this reason and say nothing yet about the rule each checks`,
      symptom: { kind: 'status', status: 405 }, evidence,
    };
  }
  if (status >= 500 && applied) {
    return {
      id: 'receiver.server-error-after-applying',
      summary: `a valid callback was applied (the record reads ${describeReading(after ?? null)}) but answered ${status}: the service counts any non-2xx as not delivered (§4.3), so it would retry this callback, likely until it gives up`,
      symptom: { kind: 'server-error' }, evidence,
    };
  }
  if (status === 401 || status === 403) {
    return {
      id: 'receiver.token-refused',
      summary: `a valid callback carrying the configured X-Callback-Token was answered ${status}: likely the target file's callbackToken is not the receiver's token`,
      symptom: { kind: 'status', status }, evidence,
    };
  }
  if (status === 404 && after !== undefined) {
    return {
      id: 'receiver.callback-path-not-found',
      summary: `a valid callback for a record the receiver holds (${describeReading(after)}) was answered 404 and changed nothing: likely the callback path (callbackUrl) is not the receiver's callback route`,
      symptom: { kind: 'status', status: 404 }, evidence,
    };
  }
  if (status >= 500) {
    return {
      id: 'receiver.server-error',
      summary: `a valid callback was answered ${status}${after !== undefined ? ` and the record reads ${describeReading(after)}` : ''}`,
      symptom: { kind: 'server-error' }, evidence,
    };
  }
  if (after !== undefined && !applied) {
    // Its symptom is a record left unapplied, not the status: a bad token answered with the
    // same 2xx is a finding of its own (accepted), not this cause.
    return {
      id: 'receiver.valid-callback-not-applied',
      summary: `a valid SUCCESS callback for a freshly seeded record was answered ${status}, and the record still reads ${describeReading(after)}: the cases named here expect a valid callback applied, and likely fail for this reason`,
      symptom: { kind: 'stated', cause: 'not-applied' }, evidence,
    };
  }
  return undefined;
}

/**
 * The control, in two halves (DESIGN.md "A positive control has two halves"). With hooks: the
 * answer half holds when the valid callback got 2xx, the effect half when its record changed.
 * Without: the answer half holds when it was answered and not refused (the id is unknown to the
 * receiver, so a 4xx other than a refusal is an answer too); nothing shows the effect.
 */
function controlOf(sent: HttpResult, after: RecordReading | null | undefined, what: string, seeded: boolean): Control {
  // `seeded`, not `after !== undefined`: the record is read only after an answer, so a callback
  // that got none would never fail the effect half of a receiver whose records the harness sees.
  if (!sent.ok) {
    return { state: 'failed', what, observed: `it got no answer (${sent.failure.message})`, halves: { answer: 'failed', effect: seeded ? 'failed' : 'not-run' } };
  }
  const status = sent.answer.status;
  // With hooks the record is read after every answer.
  if (after !== undefined) {
    const observed = `it was answered ${status} and the record reads ${describeReading(after)}`;
    // The record changed: the receiver acts on valid callbacks, so "nothing changed" means something.
    const applied = after !== null && after.state !== 'pending';
    const answered = status >= 200 && status <= 299;
    return {
      state: applied && answered ? 'held' : 'failed', what, observed,
      halves: { answer: answered ? 'held' : 'failed', effect: applied ? 'held' : 'failed' },
    };
  }
  const refused = status === 401 || status === 403 || status === 405 || status >= 500;
  const answer = refused ? 'failed' : 'held';
  return { state: answer, what, observed: `it was answered ${status}`, halves: { answer, effect: 'not-run' } };
}

export function receiverPreflightCase(out: { preflight?: Preflight }): ConformanceCase<ResolvedReceiverTarget> {
  return receiverCase(
    { id: 'preflight.receiver', title: 'a valid callback is accepted and applied', specRef: '§6', level: 'MUST', needs: [] },
    async (probe: ReceiverProbe) => {
      const id = probe.ctx.newTransactionId();
      // A record to watch: seeded through the hooks, the receiver's database or a command.
      const hooks = probe.seeds;
      if (hooks) await probe.seed(id);
      const sentAt = performance.now();
      const sent = await probe.callback({ transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE }, { label: 'preflight: valid callback' }, true);
      const after = hooks && sent.ok ? await probe.settledReading(id, true) : undefined;
      const what = hooks ? WHAT_HOOKS : WHAT_BLACK_BOX;
      const control: Control = probe.target.callbackToken === undefined && !hooks
        ? { state: 'not-run', what, observed: 'the target names no callback token and has no hooks, so nothing shows the receiver acting', halves: { answer: 'not-run', effect: 'not-run' } }
        : controlOf(sent, after, what, hooks);
      const generic = findingFor(sent, after, probe.evidence());
      // A confirming receiver (§6 rule 5): its queries for this callback are a control of their own;
      // a cause they show (no query, a refused one) explains the rest, so it is named instead.
      const confirmation = await confirmationCheck(probe.target, probe.ctx.resources, id, sentAt, sent, after, generic !== undefined, probe.evidence());
      const finding = confirmation?.finding ?? generic;
      out.preflight = { side: 'receiver', controls: { refusal: control, ...(confirmation ? { confirmation: confirmation.control } : {}) }, findings: finding ? [finding] : [] };
      // The line states what was seen; the cause it suggests is named once, as a shared cause.
      if (control.state === 'held' && confirmation?.control.state === 'failed') {
        return { verdict: 'FAIL', reason: `${confirmation.control.what}: ${confirmation.control.observed}`, evidence: probe.evidence() };
      }
      return control.state === 'held' && !finding
        ? probe.pass()
        : { verdict: 'FAIL', reason: `${control.what}: ${control.observed}`, evidence: probe.evidence() };
    },
  );
}
