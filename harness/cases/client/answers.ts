// client.answers: how an SDK reports the service's answer (§4.1, §7; the rejection shapes of
// DESIGN.md). The answers are scripted, whatever the request: the SDK's reading is judged, not
// its request. An accepted answer reads as accepted; a refusal (4xx, 2xx with success: false,
// 2xx with an error_code) as rejected; a 5xx or no answer within the SDK's own time limit as an
// error or a rejection, never as accepted. An SDK that throws on a refusal reports it too (many
// HTTP clients raise on 4xx): that is not "accepted", so it passes, and the reason says how.
// An SDK that reports nothing at all on an answer (its promise settles only on some answers)
// fails the case: its caller never learns the outcome (call.ts `silence`).
// Levels: MUST where HTTP's own status semantics decide (2xx success, 4xx refusal, 5xx failure,
// no answer no acceptance); SHOULD where a 2xx body is read as a refusal (the service's body
// shapes are not shown, §4.1, §7: DESIGN.md's rejection judgement is the suite's reading).
import type { ServiceScript } from '../../sdk/index.ts';
import type { CaseOutcome } from '../model.ts';
import { reported, silence, type SdkCall } from './call.ts';
import { clientCase, fail, pass, type ClientCase } from './define.ts';

const json = (status: number, body: unknown): ServiceScript => ({ kind: 'answer', status, contentType: 'application/json', body: JSON.stringify(body) });

/** The service accepted the call (the reference service's accepted shape, whatever the request). */
export const ACCEPTED_ANSWER = json(200, { success: true, status: 'PENDING', message: 'Transaction accepted for processing' });

/** Reported accepted: the control of the refusal cases (the preflight makes the same call). */
export function acceptedReported(o: SdkCall): CaseOutcome {
  if (o.answer.kind === 'outcome' && o.answer.outcome === 'accepted') return pass(o);
  const quiet = silence(o);
  if (quiet !== undefined) return fail(o, quiet);
  return fail(o, `the service answered 200 {"success": true, "status": "PENDING"}; the SDK reported ${reported(o)}`);
}

function notAccepted(what: string, how: string) {
  return (o: SdkCall): CaseOutcome => {
    // Kept waiting for ever is not "never accepted": its caller never learns it was refused.
    const quiet = silence(o);
    if (quiet !== undefined) return fail(o, quiet);
    if (o.answer.kind === 'outcome' && o.answer.outcome === 'accepted') {
      return fail(o, `the service answered ${what}; the SDK reported ${reported(o)}: ${how}`);
    }
    return pass(o, [`the service answered ${what}; the SDK reported ${reported(o)}`]);
  };
}

export const ANSWERS_CASES: readonly ClientCase[] = [
  clientCase({
    id: 'client.answers.accepted', title: 'an accepted answer is reported as accepted', specRef: '§4.1', level: 'MUST',
    script: ACCEPTED_ANSWER, check: acceptedReported, judgesReport: true,
  }),
  clientCase({
    id: 'client.answers.client-error', title: 'a 4xx answer is reported as rejected, never accepted', specRef: '§4.1, §7', level: 'MUST',
    negative: 'refusal', judgesReport: true,
    script: json(401, { message: 'Unauthenticated.' }),
    check: notAccepted('401 {"message": "Unauthenticated."}', 'a 4xx answer is a refusal whatever its body says'),
  }),
  clientCase({
    id: 'client.answers.success-false', title: 'a 2xx answer with success: false is reported as rejected', specRef: '§4.1, §7 (interpretive)', level: 'SHOULD',
    negative: 'refusal', judgesReport: true,
    script: json(200, { success: false, message: 'Insufficient balance' }),
    check: notAccepted('200 {"success": false, "message": "Insufficient balance"}', 'a body saying success: false is a refusal whatever the status'),
  }),
  clientCase({
    id: 'client.answers.error-code', title: 'a 2xx answer carrying an error_code is reported as rejected', specRef: '§4.1, §7 (interpretive)', level: 'SHOULD',
    negative: 'refusal', judgesReport: true,
    script: json(200, { error_code: 'E102', message: 'Number not whitelisted' }),
    check: notAccepted('200 {"error_code": "E102", "message": "Number not whitelisted"}', 'a body carrying a non-null error_code is a refusal (the shape real clients of the service check)'),
  }),
  clientCase({
    id: 'client.answers.server-error', title: 'a 5xx answer is an error or a rejection, never accepted', specRef: '§4.1, §7', level: 'MUST',
    negative: 'refusal', judgesReport: true,
    script: { kind: 'answer', status: 503, contentType: 'text/html', body: '<html><body>503 Service Unavailable</body></html>' },
    check: notAccepted('503 (an HTML page)', 'the service failed; nothing says the collection was accepted'),
  }),
  clientCase({
    id: 'client.answers.no-answer', title: 'no answer within the SDK\'s time limit is never accepted', specRef: '§4.1, §8 (interpretive)', level: 'MUST',
    negative: 'refusal', judgesReport: true,
    script: { kind: 'silent' },
    check: notAccepted('nothing (the harness held the request open)', 'an unanswered call may or may not have been taken; it is not an acceptance'),
  }),
];
