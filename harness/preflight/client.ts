// The client's preflight: one plain call through the adapter, answered as the service accepts
// a collection, and (when a status case runs) one plain status query answered SUCCESS. They are
// the positive controls of the client.answers and client.status refusal cases (an SDK that
// reports every answer as rejected would pass them all), and name what they saw when the
// adapter gives no usable answer (every case will likely see the same).
import {
  ACCEPTED_ANSWER, acceptedReported, bodyNotJsonCause, callSdk, CaseError, clientCase, evidenceOf, fieldsOf, missingFields, plainStatusCall,
  readSentBody, reported, signatureProblem, STATUS_CALL_FAILED, statusNotDeclared, successReported, type CaseOutcome, type ClientContext, type ConformanceCase,
} from '../cases/index.ts';
import { describeGreeting } from '../line-protocol/index.ts';
import type { ResolvedClientTarget } from '../targets/index.ts';
import type { Control, Finding, Preflight } from './model.ts';

const WHAT = 'the preflight\'s plain call, answered 200 {"success": true} (accepted)';
const WHAT_STATUS = 'the preflight\'s plain status query, answered 200 {"success": true, "status": "success"} (or "SUCCESS")';
/** After a plain call with no usable answer nothing more is sent (harness/sdk): no status half to judge. */
const NO_STATUS_QUERY: Control = { state: 'not-run', what: WHAT_STATUS, observed: 'the plain call got no usable answer, so no status query was sent' };

/**
 * The status half: the adapter declares status in its hello (else not judged, named once, the line
 * to add), and the plain status call (shared with the client.status cases) reported SUCCESS in
 * either letter case.
 */
async function statusControl(ctx: ClientContext): Promise<{ control: Control; findings: Finding[] }> {
  const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
  // The run gave up on the adapter at the plain call (its SDK kept the caller waiting although the
  // service had answered): no status query is sent, so none failed (the cases state given-up).
  if (bench.adapter.givenUp) return { control: NO_STATUS_QUERY, findings: [] };
  const undeclared = await statusNotDeclared(ctx);
  if (undeclared !== undefined) {
    return {
      control: { state: 'not-run', what: WHAT_STATUS, observed: undeclared },
      findings: [{ id: 'client.status-not-declared', summary: `not judged on status: ${undeclared}`, symptom: { kind: 'stated', cause: 'status-not-declared' } }],
    };
  }
  // Never rejects: every failure of the call is its {kind: 'failed'} (the bench is the plain collect's).
  const plain = await plainStatusCall(ctx);
  if (plain.kind === 'failed') {
    return {
      control: { state: 'failed', what: WHAT_STATUS, observed: `the adapter gave no usable answer (${plain.reason})` },
      findings: [{
        id: 'client.status-call-failed',
        summary: `${STATUS_CALL_FAILED} (${plain.reason}), though its hello declares "status"; the client.status cases named here share this cause and say nothing yet about the SDK`,
        symptom: { kind: 'stated', cause: 'status-call-failed' },
      }],
    };
  }
  const outcome = successReported(plain.o, plain.other);
  return {
    control: outcome.verdict === 'PASS'
      ? { state: 'held', what: WHAT_STATUS, observed: 'the SDK reported status SUCCESS' }
      : { state: 'failed', what: WHAT_STATUS, observed: outcome.reason ?? `the SDK reported ${reported(plain.o)}` },
    findings: [],
  };
}

export function clientPreflightCase(out: { preflight?: Preflight }, options: { statusQuery: boolean }): ConformanceCase<ResolvedClientTarget> {
  return {
    ...clientCase({ id: 'preflight.client', title: 'a plain call answered as accepted is reported accepted', specRef: '§4.1', level: 'MUST', check: acceptedReported }),
    async run(ctx) {
      const collect = await collectHalf(ctx);
      // The status half: its call is shared with the client.status cases.
      const status = !options.statusQuery ? undefined
        : collect.kind === 'threw' ? { control: NO_STATUS_QUERY, findings: [] }
        : await statusControl(ctx);
      out.preflight = {
        side: 'client',
        controls: { refusal: collect.control, ...(status ? { 'status-refusal': status.control } : {}) },
        findings: [...collect.findings, ...(status?.findings ?? [])],
      };
      if (collect.kind === 'threw') throw collect.error;
      const { outcome } = collect;
      if (outcome.verdict !== 'PASS') return { ...outcome, reason: `${WHAT}: ${collect.control.observed}` };
      // The status call's shape is a position the spec does not state: it never fails the preflight
      // (its control, failed, still takes the status refusal cases' PASS back; harness/positions).
      // What the adapter said it speaks and wraps (its hello) is noted for the report. The plain
      // call was answered, so the run has not given up on the adapter: its hello was read.
      const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
      const note = [
        `the adapter speaks ${describeGreeting((await bench.adapter.capabilities()).greeting)}`,
        ...(status && status.control.state !== 'held' ? [`${WHAT_STATUS}: ${status.control.observed}`] : []),
      ];
      return { ...outcome, evidence: { ...outcome.evidence, notes: [...(outcome.evidence?.notes ?? []), ...note] } };
    },
  };
}

type CollectHalf =
  | { kind: 'answered'; outcome: CaseOutcome; control: Control; findings: Finding[] }
  | { kind: 'threw'; error: unknown; control: Control; findings: Finding[] };

async function collectHalf(ctx: ClientContext): Promise<CollectHalf> {
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
        summary: bodyNotJsonCause(request, body, ctx.redactor),
        symptom: { kind: 'stated', cause: 'body-not-json' },
        evidence: evidenceOf(o),
      });
    } else if (problem?.causes.includes('authorization-unreadable')) {
      findings.push({
        id: 'client.authorization-unreadable',
        summary: `the preflight's plain call carried no readable signature: ${problem.text}; every case that checks the signature FAILs for this one cause (client.collect.authorization says what is wrong with the header)`,
        symptom: { kind: 'stated', cause: 'authorization-unreadable' },
        evidence: evidenceOf(o),
      });
    } else if (problem) {
      findings.push({
        id: 'client.signature-mismatch',
        summary: `on the preflight's plain call (string amount, six fields) ${problem.text}; every call the SDK signs likely goes wrong the same way, so the cases named here share this one cause`,
        symptom: { kind: 'stated', cause: 'not-signed-as-sent' },
        evidence: evidenceOf(o),
      });
    }
    // Fields under other names (an SDK's own model's, camelCase or PascalCase): every case that reads one of them FAILs for this one cause.
    if (body && body.kind !== 'unreadable') {
      const missing = missingFields(body.members);
      if (missing.length > 0) {
        const keys = body.members.map((m) => m.key);
        findings.push({
          id: 'client.fields-missing',
          summary: `the preflight's plain call sent no ${missing.join(', ')} under the names of §2.1; its body's keys were ${ctx.redactor.clip(keys.join(', '), 200)} (likely the SDK's own names for the fields): the cases that read a missing field share this one cause`,
          symptom: { kind: 'stated', cause: 'fields-missing' },
          evidence: evidenceOf(o),
        });
      }
    }
    return { kind: 'answered', outcome, control, findings };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      kind: 'threw', error,
      control: { state: 'failed', what: WHAT, observed: `the adapter gave no usable answer (${message})` },
      findings: [{
        id: 'client.adapter-failed',
        summary: `the adapter gave no usable answer to a plain call (${message}); the cases named here likely fail for the same reason and say nothing yet about the SDK`,
        // The adapter's failure, typed (a time-out, a crash…): the cases whose calls met the same share it.
        symptom: error instanceof CaseError && error.stated?.failure ? { kind: 'failure', code: error.stated.failure.code } : { kind: 'same-error', reason: message },
      }],
    };
  }
}
