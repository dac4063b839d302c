// The receiver's preflight: one valid callback (the configured token) for a freshly seeded
// record, or without hooks for a fresh id. It is the positive control of every negative
// receiver case, and when it does not hold it names what it saw: the route refuses GET, the
// path answers 404, the token is refused, the outcome is applied and then answered 5xx, the
// connection is refused or TLS fails. A valid callback for a seeded record that gets neither 2xx
// nor a plain refusal is compared with three answers of the receiver's own (the same callback
// with a wrong token, a valid callback for an id never seeded, the same callback on a path that
// cannot exist), which tell a refused token and a record the receiver does not know from a route
// that does not exist.
import {
  answerText, describeReading, receiverCase, ReceiverProbe, SUCCESS_MESSAGE, type ConformanceCase,
} from '../cases/index.ts';
import type { RecordReading } from '../observe/index.ts';
import type { ResolvedReceiverTarget } from '../targets/index.ts';
import type { Control, Finding, Preflight } from './model.ts';
import { confirmationCheck } from './confirm.ts';
import { isSuccess, TOKEN_HEADER, type HttpResult } from '../http/index.ts';

const WHAT_HOOKS = 'the preflight\'s valid callback (configured token) for a freshly seeded record';
const WHAT_BLACK_BOX = 'the preflight\'s valid callback (configured token) for a fresh id';

/** How the two findings that leave the other cases unjudged open (the run's first line says it). */
export const TOKEN_REFUSED = 'the configured token was refused';
export const RECORD_UNKNOWN = 'the receiver does not know the record the kit seeded';

/** What to check when the receiver does not know the seeded records. */
const RECORD_ADVICE = 'check that the receiver and the target file\'s hooksUrl or observe use the same records (collect-conformance observe-check sends one callback for a seeded record and shows each step)';

/** The case that judges the configured token itself: it FAILs on its own evidence when the token is refused. */
const TOKEN_JUDGED_BY = ['receiver.token.valid'];

/** Every case that needs a valid callback to get through is not exercised: said once, in each blocking finding. */
const NOT_EXERCISED = 'every case that needs a valid callback to get through is ERROR (not exercised)';

function header(result: HttpResult & { ok: true }, name: string): string | undefined {
  const value = result.answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** An answer as the receiver's own words: its status and body, with the call's id and path put aside. */
function answerShape(result: HttpResult, id: string, path: string): string | undefined {
  if (!result.ok) return undefined;
  const body = result.answer.body.split(id).join('{id}').split(encodeURIComponent(id)).join('{id}').split(path).join('{path}');
  return `${result.answer.status} ${body.trim()}`;
}

/** The callback URL with its last path segment replaced: a path the receiver cannot have a route for. */
export function noSuchPath(callbackUrl: string, tag: string): string {
  const url = new URL(callbackUrl);
  url.pathname = url.pathname.replace(/[^/]*$/, `cc-no-such-route-${tag}`);
  url.search = '';
  return url.toString();
}

/** What the receiver answered to the three comparisons, each beside the valid callback's answer. */
interface Comparisons {
  wrongToken: boolean;
  unknownId: boolean;
  noSuchPath: boolean;
  shown: { wrongToken: string; unknownId: string; noSuchPath: string };
}

/**
 * The valid callback for a seeded record compared with (a) the same callback carrying a wrong
 * token, (b) a valid callback for an id never seeded and (c) the same callback on a path that
 * cannot exist. Sent only when the valid callback was neither applied nor plainly refused.
 */
async function compare(probe: ReceiverProbe, id: string, sent: HttpResult & { ok: true }): Promise<Comparisons> {
  const params = (txn: string) => ({ transaction_id: txn, status: 'SUCCESS' as const, message: SUCCESS_MESSAGE });
  const path = new URL(probe.target.callbackUrl).pathname;
  const wrong = `cc-wrong-token-${probe.ctx.newTag()}`;
  const badToken = await probe.callback(params(id), {
    label: 'preflight: the same callback with a wrong token (the receiver\'s own refusal, to compare)',
    token: { headers: [{ name: TOKEN_HEADER, value: wrong, shown: wrong }], describe: 'a wrong token, to compare' },
  }, true);
  const unseeded = probe.ctx.newTransactionId();
  const unknown = await probe.callback(params(unseeded), { label: 'preflight: a valid callback for an id never seeded (the receiver\'s own "unknown id", to compare)' }, true);
  const elsewhere = noSuchPath(probe.target.callbackUrl, probe.ctx.newTag());
  const nowhere = await probe.callback(params(id), { label: 'preflight: the same callback on a path that cannot exist (the answer of no route, to compare)', callbackUrl: elsewhere }, true);
  const valid = answerShape(sent, id, path);
  const shown = (r: HttpResult) => (r.ok ? answerText(r.answer, probe.ctx.redactor) : `no answer (${r.failure.message})`);
  return {
    wrongToken: answerShape(badToken, id, path) === valid,
    unknownId: answerShape(unknown, unseeded, path) === valid,
    noSuchPath: answerShape(nowhere, id, new URL(elsewhere).pathname) === valid,
    shown: { wrongToken: shown(badToken), unknownId: shown(unknown), noSuchPath: shown(nowhere) },
  };
}

/** Names the cause of an answer that is not what a valid callback should get. */
async function findingFor(probe: ReceiverProbe, id: string, sent: HttpResult, after: RecordReading | null | undefined): Promise<Finding | undefined> {
  const evidence = () => probe.evidence();
  if (!sent.ok) {
    const error = sent.failure.message;
    const tls = sent.failure.code === 'tls';
    return {
      id: tls ? 'receiver.tls-failed' : 'receiver.no-answer',
      summary: tls
        ? `the preflight's valid callback failed in the TLS handshake (${error}): likely the receiver's certificate is not trusted (target file "ca") or the URL's scheme is wrong`
        : `the preflight's valid callback got no usable answer (${error}); every case that sends a callback will likely see the same`,
      symptom: { kind: 'failure', code: sent.failure.code },
      evidence: evidence(),
    };
  }
  const status = sent.answer.status;
  const applied = after !== undefined && after !== null && after.state !== 'pending';
  const shownAnswer = answerText(sent.answer, probe.ctx.redactor);
  const tokenAdvice = `check that the target file's callbackToken (${probe.tokenEnv}) is the receiver's token`;
  const tokenRefused = (how: string): Finding => (probe.target.callbackToken === undefined
    ? {
      id: 'receiver.token-refused',
      summary: `a valid callback without X-Callback-Token (the target file names no callbackToken) was answered ${shownAnswer}${how}: the receiver checks a token, so name it in the target file ("callbackToken": {"env": "…"}); ${NOT_EXERCISED}`,
      symptom: { kind: 'status', status }, evidence: evidence(),
      blocking: { headline: 'the receiver refused a callback without a token', advice: 'name the receiver\'s token in the target file ("callbackToken": {"env": "…"})', judgedBy: [] },
    }
    : {
      id: 'receiver.token-refused',
      summary: `${TOKEN_REFUSED}: a valid callback carrying the configured X-Callback-Token was answered ${shownAnswer}${how}: ${tokenAdvice}; ${NOT_EXERCISED}, and receiver.token.valid FAILs on its own evidence`,
      symptom: { kind: 'status', status }, evidence: evidence(),
      blocking: { headline: TOKEN_REFUSED, advice: tokenAdvice, judgedBy: TOKEN_JUDGED_BY },
    });
  if (status === 405) {
    const allow = header(sent, 'allow');
    return {
      id: 'receiver.route-refuses-get',
      summary: `the callback route answered 405${allow ? ` (Allow: ${allow})` : ''} to a valid callback: it does not accept GET, the method every callback uses (§6 Delivery); the cases named here got the same 405, so they likely fail for this reason and say nothing yet about the rule each checks`,
      symptom: { kind: 'status', status: 405 }, evidence: evidence(),
    };
  }
  if (status >= 500 && applied) {
    return {
      id: 'receiver.server-error-after-applying',
      summary: `a valid callback was applied (the record reads ${describeReading(after ?? null)}) but answered ${status}: the service counts any non-2xx as not delivered (§4.3), so it would retry this callback, likely until it gives up`,
      symptom: { kind: 'server-error' }, evidence: evidence(),
    };
  }
  if (status === 401 || status === 403) return tokenRefused('');
  if (status >= 500) {
    return {
      id: 'receiver.server-error',
      summary: `a valid callback was answered ${status}${after !== undefined ? ` and the record reads ${describeReading(after)}` : ''}`,
      symptom: { kind: 'server-error' }, evidence: evidence(),
    };
  }
  if (after === undefined || applied) return undefined;
  if (isSuccess(status)) {
    // Its symptom is a record left unapplied, not the status: a bad token answered with the
    // same 2xx is a finding of its own (accepted), not this cause.
    return {
      id: 'receiver.valid-callback-not-applied',
      summary: `a valid SUCCESS callback for a freshly seeded record was answered ${status}, and the record still reads ${describeReading(after)}: the cases named here expect a valid callback applied, and likely fail for this reason`,
      symptom: { kind: 'stated', cause: 'not-applied' }, evidence: evidence(),
    };
  }
  // A seeded record refused otherwise: the receiver's own answers tell what it meant.
  const seen = await compare(probe, id, sent);
  if (seen.noSuchPath) {
    return {
      id: 'receiver.callback-path-not-found',
      summary: `a valid callback for a record the kit seeded (${describeReading(after)}) was answered ${shownAnswer}, the same answer as the same callback on a path that cannot exist: likely the callback path (callbackUrl) is not the receiver's callback route`,
      symptom: { kind: 'status', status }, evidence: evidence(),
    };
  }
  if (seen.wrongToken) {
    return tokenRefused(`, the same answer as the kit's own callback with a wrong token${seen.unknownId
      ? ' (and as a valid callback for an id never seeded: a receiver that looks the id up before the token answers so too when it does not know the seeded record; observe-check shows which)'
      : ` (not the receiver's answer to an id never seeded, ${seen.shown.unknownId})`}`);
  }
  if (seen.unknownId) {
    return {
      id: 'receiver.seeded-record-unknown',
      summary: `${RECORD_UNKNOWN}: a valid callback for it was answered ${shownAnswer}, as a valid callback for an id never seeded was, not as the same callback on a path that cannot exist (${seen.shown.noSuchPath}) nor with a wrong token (${seen.shown.wrongToken}): `
        + `likely the receiver reads other records than the ones the kit seeds (another database or file; an observe command starts in the target file's folder, so a relative path there starts from it); ${RECORD_ADVICE}; ${NOT_EXERCISED}`,
      symptom: { kind: 'status', status }, evidence: evidence(),
      blocking: { headline: RECORD_UNKNOWN, advice: RECORD_ADVICE, judgedBy: [] },
    };
  }
  return {
    id: 'receiver.callback-path-not-found',
    summary: `a valid callback for a record the kit seeded (${describeReading(after)}) was answered ${shownAnswer} and changed nothing: likely the callback path (callbackUrl) is not the receiver's callback route (a path that cannot exist got ${seen.shown.noSuchPath}, an id never seeded ${seen.shown.unknownId}, a wrong token ${seen.shown.wrongToken})`,
    symptom: { kind: 'status', status }, evidence: evidence(),
  };
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
    const answered = isSuccess(status);
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
      const repliedAt = performance.now();
      const after = hooks && sent.ok ? await probe.settledReading(id, true) : undefined;
      const what = hooks ? WHAT_HOOKS : WHAT_BLACK_BOX;
      const generic = await findingFor(probe, id, sent, after);
      // A confirming receiver (§6 rule 5): its queries for this callback are a control of their own;
      // a cause they show (no query, a refused one) explains the rest, so it is named instead.
      const confirmation = await confirmationCheck(probe.target, probe.ctx.resources, id, sentAt, sent, after, generic !== undefined, probe.evidence(), repliedAt);
      const finding = confirmation?.finding ?? generic;
      // The kit's status answer came too late for the receiver: the callback's control is not judged either.
      const control: Control = confirmation?.kitLate
        ? { state: 'not-run', what, observed: confirmation.control.observed, halves: { answer: 'not-run', effect: 'not-run' } }
        : probe.target.callbackToken === undefined && !hooks
          ? { state: 'not-run', what, observed: 'the target names no callback token and has no hooks, so nothing shows the receiver acting', halves: { answer: 'not-run', effect: 'not-run' } }
          : controlOf(sent, after, what, hooks);
      out.preflight = { side: 'receiver', controls: { refusal: control, ...(confirmation ? { confirmation: confirmation.control } : {}) }, findings: finding ? [finding] : [] };
      // The line states what was seen; the cause it suggests is named once, as a shared cause,
      // but a finding that leaves the other cases unjudged opens the line: the run's first words.
      if (control.state === 'held' && confirmation?.control.state === 'failed') {
        return { verdict: 'FAIL', reason: `${confirmation.control.what}: ${confirmation.control.observed}`, evidence: probe.evidence() };
      }
      if (confirmation?.kitLate) return probe.statusAnswerLate(confirmation.control.observed, undefined);
      if (control.state === 'held' && !finding) return probe.pass();
      const opens = finding?.blocking && control.state === 'failed' ? `${finding.blocking.headline}: ${finding.blocking.advice}; the cases that need a valid callback to get through are not exercised (ERROR). Seen: ` : '';
      return { verdict: 'FAIL', reason: `${opens}${control.what}: ${control.observed}`, evidence: probe.evidence() };
    },
  );
}
