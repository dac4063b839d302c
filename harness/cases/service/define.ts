// Case definitions as data plus a check that runs inside a ServiceSession, and the judgements
// several groups share (rejected, accepted, a callback that must arrive).
import { performance } from 'node:perf_hooks';
import type { CollectAnswer } from '../../client/index.ts';
import type { ListenerDelivery } from '../../listener/index.ts';
import type { ResolvedServiceTarget } from '../../targets/index.ts';
import { CaseError } from '../model.ts';
import type { CaseOutcome, ConformanceCase } from '../model.ts';
import { describeAnswer, failureOf, ServiceSession } from './session.ts';

export type ServiceCase = ConformanceCase<ResolvedServiceTarget>;

export interface ServiceCaseSpec extends Omit<ServiceCase, 'side' | 'run'> {
  check(session: ServiceSession): Promise<CaseOutcome>;
}

export function serviceCase(spec: ServiceCaseSpec): ServiceCase {
  const { check, ...data } = spec;
  return { ...data, side: 'service', run: (ctx) => ServiceSession.with(ctx, check) };
}

/**
 * DESIGN.md "rejected": not 2xx, or 2xx with a body that says so (`success: false`, a non-null
 * `error_code`, or the target's `rejection` rules), and no callback for it within
 * timing.callbackTimeoutMs. `noAnswerRejects`: a source the service does not whitelist may be
 * dropped at the network (refused, reset), which is a rejection too; the caller has checked
 * that the service does answer the whitelisted source (the control).
 */
export async function expectRejected(
  s: ServiceSession, answer: CollectAnswer, tag: string, what: string,
  options: { noAnswerRejects?: boolean; obligation?: 'must' | 'should' } = {},
): Promise<CaseOutcome> {
  if (answer.judgement === 'accepted') return acceptedWhereRejected(s, answer, tag, what, options.obligation ?? 'must');
  if (answer.judgement === 'no-answer') {
    if (answer.routeError) throw new CaseError(`${answer.routeError}: the request never reached the service, so its whitelist could not be tested`, s.evidence());
    if (!options.noAnswerRejects) throw s.unanswered('the collect request', answer);
    s.note(`${what}: no HTTP answer (${failureOf(answer)}), counted as a rejection at the network`);
  }
  const watchMs = s.target.timing.callbackTimeoutMs;
  s.ctx.progress(`answered ${describeAnswer(answer).slice(0, 40)}; watching ${watchMs} ms that no callback arrives`);
  const seen = await s.waitFor({ tag }, { timeoutMs: watchMs });
  if (seen.length > 0) {
    return s.fail(`${what} was answered ${describeAnswer(answer)}${readAs(answer)}, ${PROCESSED_AFTER_REFUSAL} after ${atMs(s, seen[0]!)} ms: ${PROCESSED}`, undefined, ['processed', 'processed-after-refusal']);
  }
  // A session note, so a case judging two refusals shows both (service.auth.ip-not-whitelisted).
  s.note(`${what}: ${describeAnswer(answer)}; no callback within ${watchMs} ms`);
  return s.pass();
}

/**
 * An answer that reads as accepted where a rejection was due. A callback settles it; without one
 * the answer may be a rejection in a shape the harness does not read, so the reason says so.
 */
async function acceptedWhereRejected(
  s: ServiceSession, answer: CollectAnswer, tag: string, what: string, obligation: 'must' | 'should',
): Promise<CaseOutcome> {
  const watchMs = s.target.timing.callbackTimeoutMs;
  s.ctx.progress(`answered ${describeAnswer(answer).slice(0, 40)} (reads as accepted); watching ${watchMs} ms for its callback`);
  const [callback] = await s.waitFor({ tag }, { count: 1, timeoutMs: watchMs });
  const read = `${what} was answered ${describeAnswer(answer)}, which reads as accepted (2xx, and the body meets no rejection rule: ${rejectionRulesText(s)})`;
  if (callback) return s.fail(`${read}, and its callback arrived after ${atMs(s, callback)} ms: ${PROCESSED}; it ${obligation} be rejected`, undefined, ['processed']);
  return s.fail(`${read}; no callback came within ${watchMs} ms. It ${obligation} be rejected: either the service accepted it (and calls back later or never), or ${UNREAD_REJECTION}; if so, state that shape as "rejection" in the target file`, undefined, ['rejections-unread']);
}

/** In the reason of a case whose request was refused, and acted on all the same (harness/diagnoses names it once). */
export const PROCESSED_AFTER_REFUSAL = 'yet a callback for it arrived';

/** In the reason of a case whose request, due to be rejected, was acted on: its callback arrived. */
export const PROCESSED = 'the service processed it';

/** In the reason of a case whose due rejection may have been one the harness cannot read (harness/diagnoses names it once). */
export const UNREAD_REJECTION = 'it rejects in a shape the harness does not read';

function rejectionRulesText(s: ServiceSession): string {
  const rules = s.target.rejection;
  if (!rules) return 'no "success": false, no non-null "error_code"';
  return `the target's "rejection" ${JSON.stringify(rules)}`;
}

/** DESIGN.md "accepted": 2xx, and the body meets no rejection rule. */
export function expectAccepted(s: ServiceSession, answer: CollectAnswer, what: string, why = ''): CaseOutcome {
  if (answer.judgement === 'accepted') return s.pass({ notes: [`${what}: ${describeAnswer(answer)}`] });
  return s.fail(`${what} was not accepted: ${describeAnswer(answer)}${readAs(answer)}${why ? `; ${why}` : ''}`);
}

/** `(read as rejected: error_code 403)` when a 2xx body made it a rejection. */
export function readAs(answer: CollectAnswer): string {
  return answer.rejectedBy ? ` (read as rejected: ${answer.rejectedBy})` : '';
}

/** A precondition of a callback case: the valid request must be accepted, or the case cannot judge. */
export function requireAccepted(s: ServiceSession, answer: CollectAnswer): void {
  if (answer.judgement !== 'accepted') {
    throw new CaseError(`precondition: a correctly signed collect request was not accepted (${describeAnswer(answer)}${readAs(answer)}), so no callback can be checked; see service.auth.valid-accepted`, s.evidence());
  }
}

/** Waits for the first callback of a tag; undefined after timing.callbackTimeoutMs. */
export async function firstCallback(s: ServiceSession, tag: string, settleMs = 0): Promise<ListenerDelivery[]> {
  s.ctx.progress(`waiting up to ${s.target.timing.callbackTimeoutMs} ms for the callback`);
  return s.waitFor({ tag }, { count: 1, timeoutMs: s.target.timing.callbackTimeoutMs, settleMs });
}

/** What is left of timing.retryWindowMs, counted from the first delivery (DESIGN.md: how long deliveries are watched). */
export function windowLeft(first: ListenerDelivery, retryWindowMs: number): number {
  return Math.max(0, Math.round(first.receivedAt + retryWindowMs - performance.now()));
}

export function atMs(s: ServiceSession, d: ListenerDelivery): number {
  return Math.round(d.receivedAt - (s.t0 ?? d.receivedAt));
}

export function noCallback(s: ServiceSession): CaseOutcome {
  return s.fail(`no callback arrived within timing.callbackTimeoutMs (${s.target.timing.callbackTimeoutMs} ms) of an accepted transaction (§3: reaching a terminal state triggers one callback)`, undefined, ['no-callback']);
}
