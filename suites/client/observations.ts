// What a client case's check reads, built by hand for known-answer tests: the call's
// observation (credentials, the fields passed, the requests the service stand-in received, the
// SDK's report) and a request as received. Only the parts the checks and evidenceOf read.
import { CLIENT_CASES, type ClientCase, type SdkCall } from '../../harness/cases/index.ts';
import type { RawField, ReceivedRequest } from '../../harness/sdk/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';

export interface Credentials {
  secretKey: string;
  clientKey: string;
}

export const ACCEPTED: SdkCall['answer'] = { kind: 'outcome', outcome: 'accepted', line: '' };

/** An observation of one call; the SDK reported accepted unless `answer` says otherwise. */
export function observationOf(credentials: Credentials, call: { fields?: readonly RawField[]; requests?: ReceivedRequest[]; answer?: SdkCall['answer']; line?: string } = {}): SdkCall {
  return {
    ctx: { target: { ...credentials, clientId: 2 }, redactor: new Redactor([credentials.secretKey, credentials.clientKey]) },
    bench: { service: { baseUrl: 'http://127.0.0.1:1' } },
    fields: call.fields ?? [], script: { kind: 'reference' }, requests: call.requests ?? [],
    answer: call.answer ?? ACCEPTED, line: call.line ?? '{"id":"c1","op":"collect"}',
  } as unknown as SdkCall;
}

/** A request as the service stand-in received it, answered 200 {"success":true} unless `answer` says otherwise (undefined: held unanswered). */
export function receivedRequest(request: Omit<Partial<ReceivedRequest>, 'body'> & { body?: Buffer | string } = {}): ReceivedRequest {
  const headers = request.headers ?? {};
  return {
    atMs: 1, method: 'POST', target: '/api/v1.0/collect/', bodyTruncated: false,
    rawHeaders: Object.entries(headers).flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v])),
    answer: { status: 200, contentType: 'application/json', body: '{"success":true}', by: 'script', durationMs: 2 },
    ...request,
    headers,
    body: Buffer.from(request.body ?? ''),
  } as ReceivedRequest;
}

/** The outcome client case `id` gives `o` (its judge: what a call showed, without an adapter). */
export async function judgedBy(id: string, o: SdkCall): Promise<Awaited<ReturnType<ClientCase['judge']>>> {
  const found = CLIENT_CASES.find((c) => c.id === id);
  if (!found) throw new Error(`no client case ${id}`);
  return found.judge(o);
}
