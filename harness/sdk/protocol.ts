// The SDK adapter line protocol (DESIGN.md "Client SDKs"; README.md beside this file): one
// JSON object per line each way. A request is a collect or a status query (§4.2):
//   harness → adapter  {"id": "client.collect.signature", "op": "collect", "baseUrl": "http://127.0.0.1:PORT",
//                       "credentials": {"clientId": 2, "clientKey": "…", "secretKey": "…"}, "fields": {…}}
//   adapter → harness  {"id": …, "outcome": "accepted" | "rejected", "detail": "…"}  or  {"id": …, "error": "…"}
//   harness → adapter  {"id": …, "op": "status", "baseUrl": …, "credentials": {…}, "transaction_id": "…"}
//   adapter → harness  {"id": …, "status": "PENDING" | "SUCCESS" | "FAILED", "detail"?: "…"},
//                      {"id": …, "outcome": "rejected", "detail": "…"}  or  {"id": …, "error": "…"}
// `fields` is written from raw JSON texts, so a number reaches the adapter as the case wrote it
// (`15.0`, `3.3000000000000003`, `1e3`) and its own JSON parser makes of it what that language
// makes. Every answer line is checked here; anything else is a protocol error with a precise reason.
import { excerpt, parseObjectLine, toLine, type ParsedAnswer } from '../line-protocol/index.ts';
import { isStatusValue, type StatusValue } from '../status/index.ts';

export interface AdapterCredentials {
  clientId: number;
  clientKey: string;
  secretKey: string;
}

/** One field the caller passes: its name and its value as raw JSON text (`"15.0"` or `15.0`). */
export type RawField = readonly [name: string, json: string];

export interface CollectCall {
  /** The case id (echoed back by the adapter). */
  id: string;
  /** The service root: the SDK posts to `{baseUrl}/api/v1.0/collect/`. */
  baseUrl: string;
  credentials: AdapterCredentials;
  /** In the order the caller passes them. */
  fields: readonly RawField[];
}

/** A status query (§4.2) the caller makes for one transaction. */
export interface StatusCall {
  id: string;
  /** The service root: the SDK queries `{baseUrl}/api/v1.0/transaction_status/` (the suite's position). */
  baseUrl: string;
  credentials: AdapterCredentials;
  transactionId: string;
}

/** What the harness asks the adapter: a collect, or a status query. */
export type AdapterRequest = ({ op: 'collect' } & CollectCall) | ({ op: 'status' } & StatusCall);
export type AdapterOp = AdapterRequest['op'];

export type AdapterAnswerLine =
  | { id: string; outcome: 'accepted' | 'rejected'; detail?: string }
  /** Only to a status request. */
  | { id: string; status: StatusValue; detail?: string }
  | { id: string; error: string };

export const OUTCOMES = ['accepted', 'rejected'] as const;

/** The request line of either op. */
export function encodeRequestLine(request: AdapterRequest): string {
  if (request.op === 'collect') return encodeCollectLine(request);
  return encodeStatusLine(request);
}

/** The request line: `fields` from raw JSON texts, everything else through JSON.stringify. */
export function encodeCollectLine(call: CollectCall): string {
  const head = JSON.stringify({ id: call.id, op: 'collect', baseUrl: call.baseUrl, credentials: call.credentials });
  return toLine(`${head.slice(0, -1)},"fields":${fieldsJson(call.fields)}}`);
}

export function encodeStatusLine(call: StatusCall): string {
  return toLine(JSON.stringify({ id: call.id, op: 'status', baseUrl: call.baseUrl, credentials: call.credentials, transaction_id: call.transactionId }));
}

/** The fields as the JSON object text the caller passed: each value its raw text, in order. */
export function fieldsJson(fields: readonly RawField[]): string {
  return `{${fields.map(([name, json]) => `${JSON.stringify(name)}:${json}`).join(',')}}`;
}

/** An answer line to a request of `op` (default collect): anything else is a protocol error with a precise reason. */
export function parseAdapterLine(line: string, op: AdapterOp = 'collect'): ParsedAnswer<AdapterAnswerLine> {
  const parsed = parseObjectLine(line);
  if (!parsed.ok) return parsed;
  const o = parsed.object;
  const { id } = parsed;
  if ('error' in o) {
    if ('outcome' in o || (op === 'status' && 'status' in o)) {
      return { ok: false, problem: `an answer has ${op === 'status' ? '"status", "outcome"' : '"outcome"'} or "error", not both, in ${excerpt(line)}` };
    }
    if (typeof o.error !== 'string') return { ok: false, problem: `"error" must be a string in ${excerpt(line)}` };
    return { ok: true, id, answer: { id, error: o.error } };
  }
  if ('detail' in o && typeof o.detail !== 'string') return { ok: false, problem: `"detail" must be a string in ${excerpt(line)}` };
  const detail = typeof o.detail === 'string' ? { detail: o.detail } : {};
  if (op === 'status') return statusAnswer(o, id, line, detail);
  if (!('outcome' in o)) return { ok: false, problem: `"outcome" is missing (an answer has "outcome": "accepted" or "rejected", or "error") in ${excerpt(line)}` };
  if (o.outcome !== 'accepted' && o.outcome !== 'rejected') {
    const shown = JSON.stringify(o.outcome) ?? String(o.outcome);
    return { ok: false, problem: `"outcome" must be "accepted" or "rejected", not ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}, in ${excerpt(line)}` };
  }
  return { ok: true, id, answer: { id, outcome: o.outcome, ...detail } };
}

/** A status request is answered with a status, a refusal (`"outcome": "rejected"`), or an error. */
function statusAnswer(o: Record<string, unknown>, id: string, line: string, detail: { detail?: string }): ParsedAnswer<AdapterAnswerLine> {
  if ('status' in o && 'outcome' in o) return { ok: false, problem: `a status answer has "status" or "outcome", not both, in ${excerpt(line)}` };
  if ('outcome' in o) {
    if (o.outcome !== 'rejected') {
      return { ok: false, problem: `a status request is answered with "status", "outcome": "rejected" or "error"; "outcome" ${JSON.stringify(o.outcome) ?? String(o.outcome)} is for a collect, in ${excerpt(line)}` };
    }
    return { ok: true, id, answer: { id, outcome: 'rejected', ...detail } };
  }
  if (!('status' in o)) return { ok: false, problem: `"status" is missing (a status answer has "status": "PENDING", "SUCCESS" or "FAILED", "outcome": "rejected", or "error") in ${excerpt(line)}` };
  if (!isStatusValue(o.status)) {
    const shown = JSON.stringify(o.status) ?? String(o.status);
    return { ok: false, problem: `"status" must be "PENDING", "SUCCESS" or "FAILED", not ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}, in ${excerpt(line)}` };
  }
  return { ok: true, id, answer: { id, status: o.status, ...detail } };
}
