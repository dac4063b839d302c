// The client's preflight: one plain call through the adapter, answered as the service accepts
// a collection. It is the positive control of the client.answers refusal cases (an SDK that
// reports every answer as rejected would pass them all), and names what it saw when the
// adapter gives no usable answer (every case will likely see the same).
import {
  ACCEPTED_ANSWER, acceptedReported, BODY_NOT_JSON, bodyNotJsonCause, callSdk, clientCase, evidenceOf, fieldsOf, NOT_SIGNED_AS_SENT, readSentBody, signatureProblem,
  type ConformanceCase,
} from '../cases/index.ts';
import type { ResolvedClientTarget } from '../targets/index.ts';
import type { Control, Finding, Preflight } from './model.ts';

const WHAT = 'the preflight\'s plain call, answered 200 {"success": true} (accepted)';

export function clientPreflightCase(out: { preflight?: Preflight }): ConformanceCase<ResolvedClientTarget> {
  return {
    ...clientCase({ id: 'preflight.client', title: 'a plain call answered as accepted is reported accepted', specRef: '§4.1', level: 'MUST', check: acceptedReported }),
    async run(ctx) {
      try {
        // Decisive: when the SDK gives no usable answer to the plain call, no other call is sent.
        const o = await callSdk(ctx, await fieldsOf(ctx), ACCEPTED_ANSWER, { decisive: true });
        const outcome = acceptedReported(o);
        const control: Control = outcome.verdict === 'PASS'
          ? { state: 'held', what: WHAT, observed: 'the SDK reported it accepted' }
          : { state: 'failed', what: WHAT, observed: outcome.reason ?? 'the SDK did not report it accepted' };
        // A body that is not JSON (a form) is not JSON on every call: named once, first, with
        // the body quoted, as the cause of every rule that reads its JSON or its signature (issue 22).
        // Otherwise a signer wrong on the plain call is wrong on every call: named once, as the
        // cause of every signature FAIL, instead of one FAIL after another with no cause (issue 9).
        const request = o.requests[0];
        const body = request ? readSentBody(request) : undefined;
        const problem = request && body?.kind === 'json' ? signatureProblem(o, request) : undefined;
        const findings: Finding[] = [];
        if (request && body && body.kind !== 'json') {
          findings.push({
            id: 'client.body-not-json',
            summary: bodyNotJsonCause(request, body, (text) => ctx.redactor.text(text)),
            symptom: { kind: 'reason', text: BODY_NOT_JSON },
            evidence: evidenceOf(o),
          });
        } else if (problem) {
          findings.push({
            id: 'client.signature-mismatch',
            summary: `on the preflight's plain call (string amount, six fields) ${problem}; every call the SDK signs likely goes wrong the same way, so the cases named here share this one cause`,
            symptom: { kind: 'reason', text: NOT_SIGNED_AS_SENT },
            evidence: evidenceOf(o),
          });
        }
        out.preflight = { side: 'client', controls: { refusal: control }, findings };
        return outcome.verdict === 'PASS' ? outcome : { ...outcome, reason: `${WHAT}: ${control.observed}` };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        out.preflight = {
          side: 'client',
          controls: { refusal: { state: 'failed', what: WHAT, observed: `the adapter gave no usable answer (${message})` } },
          findings: [{
            id: 'client.adapter-failed',
            summary: `the adapter gave no usable answer to a plain call (${message}); the cases named here likely fail for the same reason and say nothing yet about the SDK`,
            symptom: { kind: 'transport', error: message.split(':')[0]! },
          }],
        };
        throw error;
      }
    },
  };
}
