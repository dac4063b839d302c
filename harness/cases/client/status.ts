// client.status: an SDK's status query (§4.2, as the suite takes it: harness/status,
// docs/status.md), driven through the adapter's `op: "status"`. The request is judged like a
// collect (method, path, headers, body, the signature over the bytes sent); the answers are
// scripted, and the SDK reports each status as answered, a refusal, an unknown id, a 5xx or a 2xx
// it cannot read never as a status. An adapter that answers `error` to every status request does
// not implement it: its cases are SKIP, not ERROR.
import { readRawJsonObject, SigningError, signBody, type RawMember } from '../../signing/index.ts';
import type { ServiceScript } from '../../sdk/index.ts';
import { statusAnswerBody, STATUS_POSITION, unknownIdAnswerBody, type StatusValue } from '../../status/index.ts';
import type { Stated } from '../../results/index.ts';
import { CaseError } from '../http.ts';
import type { CaseOutcome } from '../model.ts';
import type { ClientBench } from './bench.ts';
import { bodyText, callSdkStatus, evidenceOf, header, reported, signatureProblem, type ClientContext, type Observation } from './call.ts';
import { fail, pass, type ClientCase } from './define.ts';

/** How the reason of a status case begins when the adapter gave no usable answer to a plain status call (the preflight names it once). */
export const STATUS_CALL_FAILED = 'the adapter gave no usable answer to a plain status call';

const AUTHORIZATION = /^HMAC ([^:\s]+):([0-9a-fA-F]{64})$/;

const json = (status: number, body: string): ServiceScript => ({ kind: 'answer', status, contentType: 'application/json', body });

/** The answer every request case gets: PENDING, readable by any SDK that implements the call. */
const pending = (id: string) => json(200, statusAnswerBody(id, 'PENDING'));

/**
 * The plain status call of a bench: answered 200 SUCCESS. It is the preflight's status query and
 * tells the cases whether the adapter implements status; made once per bench, whoever asks first.
 */
export type PlainStatusCall =
  /**
   * `pendingReported`: the plain call's answer was an error, and one more query, answered PENDING,
   * reported a status: the SDK has a status call, which failed on SUCCESS (not "no status call").
   */
  | { kind: 'answered'; o: Observation; pendingReported?: Observation }
  /** `stated`: what the failed call's error stated (the rest not sent, the run having given up on the adapter). */
  | { kind: 'failed'; reason: string; stated?: Stated };

const plainCalls = new WeakMap<ClientBench, Promise<PlainStatusCall>>();

export async function plainStatusCall(ctx: ClientContext): Promise<PlainStatusCall> {
  const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
  let call = plainCalls.get(bench);
  if (!call) {
    const id = ctx.newTransactionId();
    call = callSdkStatus(ctx, id, json(200, statusAnswerBody(id, 'SUCCESS'))).then(
      async (o): Promise<PlainStatusCall> => {
        if (o.answer.kind !== 'error') return { kind: 'answered', o };
        // An error to SUCCESS alone, or to every status query? One answered PENDING tells.
        const other = ctx.newTransactionId();
        const pendingCall = await callSdkStatus(ctx, other, pending(other)).catch(() => undefined);
        return { kind: 'answered', o, ...(pendingCall?.answer.kind === 'status' ? { pendingReported: pendingCall } : {}) };
      },
      (error: unknown): PlainStatusCall => ({
        kind: 'failed', reason: error instanceof Error ? error.message : String(error),
        ...(error instanceof CaseError && error.stated ? { stated: error.stated } : {}),
      }),
    );
    plainCalls.set(bench, call);
  }
  return call;
}

/** Reported as answered: the control of the refusal cases (an SDK reporting every answer otherwise would pass them). */
export function successReported(o: Observation): CaseOutcome {
  if (o.answer.kind === 'status' && o.answer.status === 'SUCCESS') return pass(o);
  return fail(o, `the service answered 200 {"success": true, "status": "SUCCESS"}; the SDK reported ${reported(o)}`);
}

interface StatusCaseSpec extends Omit<ClientCase, 'side' | 'run' | 'needs' | 'judge'> {
  /** The service's answer, for the id the call asks about. */
  script: (transactionId: string) => ServiceScript;
  check(o: Observation): CaseOutcome;
}

function statusCase(spec: StatusCaseSpec): ClientCase {
  const { check, script, ...data } = spec;
  return {
    ...data,
    side: 'client',
    needs: [],
    judge: check,
    async run(ctx) {
      const plain = await plainStatusCall(ctx);
      if (plain.kind === 'failed') {
        // Not sent because the run gave up on the adapter (its plain collect call): that cause, as it is worded.
        if (plain.stated?.causes?.includes('given-up')) throw new CaseError(plain.reason, undefined, plain.stated);
        throw new CaseError(`${STATUS_CALL_FAILED} (${plain.reason}): likely it does not know "op": "status"; an adapter whose SDK has no status call answers {"id", "error"} (harness/sdk/README.md)`, undefined, { causes: ['status-call-failed'], ...(plain.stated?.failure ? { failure: plain.stated.failure } : {}) });
      }
      const id = ctx.newTransactionId();
      const o = await callSdkStatus(ctx, id, script(id));
      if (o.answer.kind === 'error' && plain.o.answer.kind === 'error' && !plain.pendingReported) {
        return {
          verdict: 'SKIP',
          reason: `not exercised: the adapter answered error to this status call (${o.answer.error}) and to plain ones answered 200 SUCCESS and 200 PENDING (${plain.o.answer.error}): the SDK likely has no status call`,
          evidence: evidenceOf(o),
        };
      }
      return check(o);
    },
  };
}

/** The first request of the call, or the FAIL that says none came. */
function onRequest(judge: (o: Observation) => CaseOutcome) {
  return (o: Observation): CaseOutcome => {
    if (o.requests.length === 0) return fail(o, `no request reached the service; the SDK reported ${reported(o)}`);
    return judge(o);
  };
}

/** The pairs a GET carries in its query, as the JSON body they would make signs them (harness/status signedStatusQuery). */
function queryBody(target: string): string | undefined {
  const at = target.indexOf('?');
  if (at === -1) return undefined;
  const params = new URLSearchParams(target.slice(at + 1));
  const clientId = params.get('client_id');
  return JSON.stringify({ transaction_id: params.get('transaction_id'), client_id: clientId !== null && /^\d+$/.test(clientId) ? Number(clientId) : clientId });
}

/** The one member of the body a signature covers alone (a signer with its own field list), if it is that. */
function signedOverFewer(o: Observation): string | undefined {
  const [auth] = header(o.requests[0]!, 'authorization');
  const body = bodyText(o.requests[0]!);
  let found: RawMember[];
  try {
    found = readRawJsonObject(body);
  } catch {
    return undefined;
  }
  // Each member as a body of its own is JSON read once already: it can be signed.
  return found.find((m) => found.length > 1 && auth?.endsWith(`:${signBody(`{${JSON.stringify(m.key)}:${m.value.raw}}`, o.ctx.target.secretKey).signature}`))?.key;
}

function members(o: Observation, body: string): RawMember[] | CaseOutcome {
  try {
    return readRawJsonObject(body);
  } catch (error) {
    if (error instanceof SigningError) return fail(o, `the body sent is not a JSON object: ${error.message}`);
    throw error;
  }
}

/** Reported as anything but a status: a refusal or an error (MUST: the answer carries no status). */
function noStatus(what: string, how: string) {
  return onRequest((o: Observation): CaseOutcome => {
    if (o.answer.kind === 'status') return fail(o, `the service answered ${what}; the SDK reported ${reported(o)}: ${how}`);
    return pass(o, [`the service answered ${what}; the SDK reported ${reported(o)}`]);
  });
}

function reportsCase(status: StatusValue, why: string): ClientCase {
  return statusCase({
    id: `client.status.reports-${status.toLowerCase()}`,
    title: `a status answered ${status} is reported ${status}`,
    specRef: '§4.2, §6 rule 5',
    level: 'MUST',
    script: (id) => json(200, statusAnswerBody(id, status)),
    // A status reported without asking (from the SDK's own cache) was not read from the service's answer.
    check: onRequest((o) => {
      if (o.answer.kind === 'status' && o.answer.status === status) return pass(o);
      return fail(o, `the service answered 200 {"success": true, "status": "${status}"}; the SDK reported ${reported(o)}: ${why}`);
    }),
  });
}

const PATH = STATUS_POSITION.path;

export const STATUS_CASES: readonly ClientCase[] = [
  statusCase({
    id: 'client.status.method-path', title: `the status query is a POST to ${PATH}`, specRef: '§4.2 (the suite\'s position)', level: 'MUST',
    script: pending,
    check: onRequest((o) => {
      const r = o.requests[0]!;
      const path = r.target.split('?')[0];
      if (r.method === 'POST' && path === PATH) return pass(o);
      const get = r.method === 'GET' && r.target.includes('?') ? ', its parameters in the query' : '';
      return fail(o, `the SDK sent ${r.method} ${JSON.stringify(r.target)}${get}; the status query is POST ${PATH} under the base URL with a JSON body, signed as collect (the suite's position on §4.2, which shows no method or path)`);
    }),
  }),
  statusCase({
    id: 'client.status.headers', title: 'the status query carries Authorization and, with its body, JSON', specRef: '§4, §5.2', level: 'MUST',
    script: pending,
    check: onRequest((o) => {
      const r = o.requests[0]!;
      const auth = header(r, 'authorization');
      if (auth.length !== 1) return fail(o, `the status query carried ${auth.length} Authorization headers; every request to the service carries one (§4, §5.2)`);
      const match = AUTHORIZATION.exec(auth[0]!);
      if (!match) return fail(o, `the Authorization header ${JSON.stringify(auth[0])} is not "HMAC {client_key}:{64 hex digits}"`);
      if (match[1] !== o.ctx.target.clientKey) return fail(o, 'the Authorization header does not carry the client key the SDK was given');
      const types = header(r, 'content-type');
      if (r.body.length > 0 && (types.length !== 1 || types[0]!.split(';')[0]!.trim().toLowerCase() !== 'application/json')) {
        return fail(o, `Content-Type was ${types.length === 0 ? 'not sent' : types.map((v) => JSON.stringify(v)).join(' and ')}; the body is JSON (§4)`);
      }
      return pass(o);
    }),
  }),
  statusCase({
    id: 'client.status.body', title: 'the body is {transaction_id, client_id}: the id as given, an integer', specRef: '§2.1, §4.2 (the suite\'s position)', level: 'MUST',
    script: pending,
    check: onRequest((o) => {
      const r = o.requests[0]!;
      if (r.body.length === 0) {
        return fail(o, `the status query has no body (${r.method} ${JSON.stringify(r.target)}); it carries {"transaction_id", "client_id"} as JSON (the suite's position on §4.2)`);
      }
      const found = members(o, bodyText(r));
      if (!Array.isArray(found)) return found;
      const given = JSON.parse(new Map(o.fields).get('transaction_id')!) as string;
      const problems: string[] = [];
      for (const name of ['transaction_id', 'client_id']) {
        const count = found.filter((m) => m.key === name).length;
        if (count !== 1) problems.push(`${name} sent ${count} times`);
      }
      const id = found.find((m) => m.key === 'transaction_id');
      if (id && (id.value.kind !== 'string' || id.value.value !== given)) problems.push(`transaction_id sent as ${id.value.raw}, given ${JSON.stringify(given)}`);
      const client = found.find((m) => m.key === 'client_id');
      if (client && (client.value.kind !== 'number' || client.value.raw !== String(o.ctx.target.clientId))) {
        problems.push(`client_id sent as ${client.value.raw}; §2.1 types it as an integer (${o.ctx.target.clientId})`);
      }
      return problems.length > 0 ? fail(o, `the status query's body does not carry the fields as due: ${problems.join('; ')}`) : pass(o);
    }),
  }),
  statusCase({
    id: 'client.status.signature', title: 'the status query is signed over the bytes sent', specRef: '§5.1, §5.2', level: 'MUST',
    script: pending,
    check: onRequest((o) => {
      const r = o.requests[0]!;
      // A GET carries its pairs in the query: signed over the JSON body they would make.
      const body = r.body.length === 0 ? queryBody(r.target) : undefined;
      if (body !== undefined) {
        const [auth] = header(r, 'authorization');
        const expected = signBody(body, o.ctx.target.secretKey).signature;
        if (auth !== undefined && auth.endsWith(`:${expected}`)) return pass(o, ['no body: the signature is the one over the query\'s pairs']);
        return fail(o, `the status query (no body) is not signed over its query's pairs: expected ${expected}, got ${JSON.stringify(auth ?? null)}`);
      }
      const problem = signatureProblem(o, r);
      if (!problem) return pass(o);
      const fewer = signedOverFewer(o);
      return fail(o, { ...problem, text: `the status query: ${problem.text}${fewer ? `; it is the signature over ${fewer} alone: every field of the body is signed (§5.1 step 1)` : ''}` });
    }),
  }),
  reportsCase('PENDING', 'a transaction still pending is not paid (an SDK that reads only "success" calls it SUCCESS)'),
  reportsCase('SUCCESS', 'the status is reported as the service answered it'),
  reportsCase('FAILED', 'a FAILED transaction reported otherwise is fulfilled or retried wrongly'),
  statusCase({
    id: 'client.status.refusal', title: 'a refused status query is never reported as a status', specRef: '§4.2, §7', level: 'MUST',
    negative: 'status-refusal',
    script: () => json(401, JSON.stringify({ success: false, error_code: 'INVALID_SIGNATURE', error_message: 'the signature does not match the body' })),
    check: noStatus('401 {"success": false, "error_code": "INVALID_SIGNATURE"}', 'a refusal says nothing about the transaction'),
  }),
  statusCase({
    id: 'client.status.unknown-id', title: 'an unknown id (404) is never reported as a status', specRef: '§4.2, §7', level: 'MUST',
    negative: 'status-refusal',
    script: (id) => json(404, unknownIdAnswerBody(id)),
    check: noStatus('404 {"success": false, "error_code": 404}', 'the service does not know the transaction; FAILED would cancel an order that may still be paid'),
  }),
  statusCase({
    id: 'client.status.server-error', title: 'a 5xx answer is never reported as a status', specRef: '§4.2, §7', level: 'MUST',
    negative: 'status-refusal',
    script: () => ({ kind: 'answer', status: 503, contentType: 'text/html', body: '<html><body>503 Service Unavailable</body></html>' }),
    check: noStatus('503 (an HTML page)', 'the service failed; it said nothing about the transaction'),
  }),
  statusCase({
    id: 'client.status.unreadable', title: 'a 2xx answer without a status is never reported as one', specRef: '§4.2', level: 'MUST',
    negative: 'status-refusal',
    script: (id) => json(200, JSON.stringify({ success: true, transaction_id: id })),
    check: noStatus('200 {"success": true} with no "status"', 'the answer holds no status to report'),
  }),
];
