// One collect call through the SDK: the request line to the adapter, what arrived at the
// harness's service meanwhile, and the adapter's answer; then the evidence every client verdict
// carries (the raw request as received, its canonical message and expected signature stage by
// stage as `sign` prints them, the adapter's line, a curl line reproducing the request).
import { judgeAnswer } from '../../client/index.ts';
import type { Evidence, Exchange, ExchangeFailure, SigningEvidence, Stated, StatedCause } from '../../results/index.ts';
import { encodeCollectLine, encodeStatusLine, fieldsJson, type AdapterAnswer, type RawField, type ReceivedRequest, type ServiceScript } from '../../sdk/index.ts';
import { describeDiagnosis, diagnoseSignature, parseAuthorizationHeader, readRawJsonObject, signBody, signedVersusSent, SigningError } from '../../signing/index.ts';
import type { ResolvedClientTarget } from '../../targets/index.ts';
import { CaseError } from '../model.ts';
import type { CaseContext, CaseOutcome } from '../model.ts';
import type { ClientBench } from './bench.ts';
import { BODY_NOT_JSON, notJsonBecause, pairsAsJson, readSentBody, type SentBody } from './body.ts';
import { curlCommand } from '../../http/index.ts';

export type ClientContext = CaseContext<ResolvedClientTarget>;

/**
 * What the SDK told its caller: an outcome, a status (a status query) or its error; or nothing
 * at all within the time allowed, although the service had answered (the adapter was stopped).
 * A failed exchange (a crash, garbage, a hang before any request) never gets here: ERROR.
 */
export type SdkReport =
  | Extract<AdapterAnswer, { kind: 'outcome' | 'status' | 'error' }>
  | { kind: 'nothing'; waitedMs: number; line: '' };

/** What one call showed: the fields passed, the requests that arrived, what the adapter said. */
export interface SdkCall {
  ctx: ClientContext;
  bench: ClientBench;
  /** A collect's fields; for a status query, the members its body carries (transaction_id, client_id). */
  fields: readonly RawField[];
  script: ServiceScript;
  requests: ReceivedRequest[];
  /** The SDK's report. */
  answer: SdkReport;
  /** The request line the adapter was sent (credentials redacted by the runner). */
  line: string;
}

/**
 * The case whose service never answers races the SDK's own time limit, which is often the very
 * deadline of the target file (10 s both): it waits this long beyond answerDeadlineMs, a quarter
 * of it and at least 2 s, for the SDK to report its own time-out.
 */
export function noAnswerGraceMs(answerDeadlineMs: number): number {
  return Math.max(2000, Math.round(answerDeadlineMs / 4));
}

/** How a call's time reads in a reason: `850 ms`, `10 s`. */
function duration(ms: number): string {
  return ms >= 10_000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** In the reason of every call the service refused and the SDK never reported (harness/diagnoses names it once). */
export const SILENT_AFTER_REFUSAL = 'the SDK reported nothing after the service refused';

export interface CallOptions {
  /** The plain call every case rests on (the preflight's): when the adapter gives no usable answer to it, the rest are not sent. */
  decisive?: true;
}

/** Makes the call through the target's bench; an adapter that gave no usable answer throws (ERROR). */
export async function callSdk(ctx: ClientContext, fields: readonly RawField[], script: ServiceScript = { kind: 'reference' }, options: CallOptions = {}): Promise<SdkCall> {
  const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
  const call = { ...callBase(ctx, bench), fields };
  const decisive = options.decisive ? { decisive: 'the plain call (string amount, six fields, answered as accepted)' } : {};
  return observe(ctx, bench, fields, script, encodeCollectLine(call), (exchange) => bench.adapter.collect(call, { ...exchange, ...decisive }));
}

/** A status query (§4.2) for `transactionId` through the SDK; the same rules as a collect call. */
export async function callSdkStatus(ctx: ClientContext, transactionId: string, script: ServiceScript): Promise<SdkCall> {
  const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
  const call = { ...callBase(ctx, bench), transactionId };
  const members: RawField[] = [['transaction_id', JSON.stringify(transactionId)], ['client_id', String(ctx.target.clientId)]];
  return observe(ctx, bench, members, script, encodeStatusLine(call), (exchange) => bench.adapter.status(call, exchange));
}

function callBase(ctx: ClientContext, bench: ClientBench) {
  return {
    id: ctx.newTag(),
    baseUrl: bench.service.baseUrl,
    credentials: { clientId: ctx.target.clientId, clientKey: ctx.target.clientKey, secretKey: ctx.target.secretKey },
  };
}

async function observe(
  ctx: ClientContext, bench: ClientBench, fields: readonly RawField[], script: ServiceScript, requestLine: string,
  send: (exchange: { timeoutMs: number }) => Promise<AdapterAnswer>,
): Promise<SdkCall> {
  const line = requestLine.trimEnd();
  const deadline = ctx.target.timing.answerDeadlineMs;
  const grace = script.kind === 'silent' ? noAnswerGraceMs(deadline) : 0;
  const exchange = { timeoutMs: deadline + grace };
  // A call to the SDK is an exchange with the target like any other: it waits while a measurement has the wire.
  const { value: answer, received } = await ctx.wire.exchange(() => bench.service.during(script, () => send(exchange)));
  const partial = { ctx, bench, fields, script, requests: received, line };
  if (answer.kind === 'failed') {
    const timedOut = answer.code === 'ERR_ADAPTER_TIMEOUT' && answer.unsent !== true;
    // The service answered and the SDK kept its caller waiting past the deadline: that is what
    // the SDK did, the case's finding (its promise never settles on that answer), not a failure to run it.
    if (timedOut && received.some((r) => r.answer !== undefined)) return { ...partial, answer: { kind: 'nothing', waitedMs: exchange.timeoutMs, line: '' } };
    const failed = { ...partial, answer: { kind: 'error' as const, error: answer.reason, line: '' } };
    // Typed for the diagnoses: the adapter's failure (the one given up on, for a call not sent).
    const failure: ExchangeFailure = { code: answer.failure, message: answer.reason, ...(answer.limitMs !== undefined ? { limitMs: answer.limitMs } : {}) };
    const stated: Stated = { failure, ...(answer.unsent ? { causes: ['given-up'] } : {}) };
    if (timedOut && script.kind === 'silent') {
      // Not a finding: the SDK's own time limit is longer than the target file allows, or it has none.
      throw new CaseError(
        `${answer.code}: the service held the request unanswered, and the SDK reported nothing within ${exchange.timeoutMs} ms `
        + `(timing.answerDeadlineMs ${deadline} ms and a grace of ${grace} ms for its own time-out); the adapter was stopped. `
        + 'A configuration hint, not a finding: likely the SDK\'s own time limit is longer than answerDeadlineMs, or it has none; '
        + 'set timing.answerDeadlineMs above the SDK\'s own time limit to see what it reports',
        evidenceOf(failed),
        // Its own limit ran out, not a request's: no `limitMs` (not among the requests that timed out).
        { failure: { code: 'timeout', message: answer.reason } },
      );
    }
    throw new CaseError(`${answer.code}: ${answer.reason}`, evidenceOf(failed), stated);
  }
  return { ...partial, answer };
}

/**
 * The SDK kept its caller waiting although the service had answered: "the SDK reported nothing
 * after the service refused in 16 ms (HTTP 400: …): nothing within 10 s, so its caller would
 * wait for ever". Undefined when it did report.
 */
export function silence(o: SdkCall): Problem | undefined {
  if (o.answer.kind !== 'nothing') return undefined;
  const answered = o.requests.find((r) => r.answer !== undefined);
  if (!answered?.answer) return undefined;
  const { status, body, durationMs } = answered.answer;
  const refused = judgeAnswer(status, body) !== 'accepted';
  // Redacted before it is cut (Redactor.clip): a cut secret is no longer found whole.
  const quoted = o.ctx.redactor.clip(body.replace(/\s+/g, ' ').trim(), 90);
  const when = `in ${durationMs} ms (HTTP ${status}${quoted === '' ? '' : ` ${quoted}`})`;
  const text = `${refused ? `${SILENT_AFTER_REFUSAL} ${when}` : `the SDK reported nothing after the service accepted ${when}`}: `
    + `nothing within ${duration(o.answer.waitedMs)}, so its caller would wait for ever`;
  return { text, causes: refused ? ['refusals-unreported'] : [] };
}

/** A finding in words, and the causes it states (harness/diagnoses names one several cases state once). */
export interface Problem {
  text: string;
  causes: StatedCause[];
}

/** The adapter's report in words: `accepted (HTTP 200: …)`, `an error: …`, `nothing within 10 s`. */
export function reported(o: SdkCall): string {
  switch (o.answer.kind) {
    case 'outcome':
      return `${o.answer.outcome}${o.answer.detail ? ` (${o.answer.detail})` : ''}`;
    case 'status':
      return `status ${o.answer.status}${o.answer.detail ? ` (${o.answer.detail})` : ''}`;
    case 'error':
      return `an error (${o.answer.error})`;
    case 'nothing':
      return `nothing within ${duration(o.answer.waitedMs)}`;
  }
}

export function header(request: ReceivedRequest, name: string): string[] {
  return request.headers[name.toLowerCase()] ?? [];
}

export function bodyText(request: ReceivedRequest): string {
  return request.body.toString('utf8');
}

/**
 * Where the body stops being UTF-8 (JSON's encoding, RFC 8259 §8.1): "byte 0xe9 at offset 57
 * (caf…)", or undefined when it is UTF-8. Its text shows such bytes as U+FFFD, which says less.
 */
export function notUtf8(body: Buffer): string | undefined {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return undefined;
  } catch {
    // Not UTF-8: the first sequence whose lead or continuation bytes are wrong.
  }
  let i = 0;
  while (i < body.length) {
    const b = body[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > body.length || ![...body.subarray(i + 1, i + length)].every((c) => (c & 0xc0) === 0x80)) break;
    i += length;
  }
  const at = Math.min(i, body.length - 1);
  const before = body.subarray(Math.max(0, at - 12), at).toString('latin1');
  return `byte 0x${body[at]!.toString(16).padStart(2, '0')} at offset ${at}, after ${JSON.stringify(before)}`;
}

/** The first request that arrived, or the outcome that says none did. */
export function firstRequest(o: SdkCall, skipWhenRefused: boolean): ReceivedRequest | CaseOutcome {
  const [first] = o.requests;
  if (first) return first;
  // An SDK may refuse what its caller passed (a number amount) before sending: as an error or
  // as its own rejection. Only "accepted" with nothing sent is a finding then.
  const refused = o.answer.kind === 'error' || (o.answer.kind === 'outcome' && o.answer.outcome === 'rejected');
  if (skipWhenRefused && refused) {
    return { verdict: 'SKIP', reason: `not exercised: the SDK refused the call before sending anything: it reported ${reported(o)}`, evidence: evidenceOf(o) };
  }
  return { verdict: 'FAIL', reason: `no request reached the service; the SDK reported ${reported(o)}`, evidence: evidenceOf(o) };
}

export function isOutcome(value: ReceivedRequest | CaseOutcome): value is CaseOutcome {
  return 'verdict' in value;
}

/**
 * Whether the Authorization signature is the HMAC over the body bytes sent; when not, which
 * alternative explains it (harness/signing's diagnosis: "signed `amount=15`, the body has `amount=15.0`").
 */
/** How every signature FAIL begins: the client preflight names a wrong signer once by it. */
export const NOT_SIGNED_AS_SENT = 'the signature is not the one over the bytes sent';

export function signatureProblem(o: SdkCall, request: ReceivedRequest): Problem | undefined {
  const [auth] = header(request, 'authorization');
  let presented: string;
  try {
    presented = parseAuthorizationHeader(auth).signature;
  } catch (error) {
    if (error instanceof SigningError) return { text: `${error.message} (got ${auth === undefined ? 'none' : JSON.stringify(auth)})`, causes: ['authorization-unreadable'] };
    throw error;
  }
  const body = readSentBody(request);
  if (body.kind !== 'json') {
    return { text: `${BODY_NOT_JSON}: ${notJsonBecause(body)}, which §5.1's message (over a JSON body) cannot be made from; ${signedOverNotJson(o, body, presented)}`, causes: ['body-not-json'] };
  }
  // readSentBody read this text as JSON with the signer's own reader: it can be signed.
  const diagnosis = diagnoseSignature(bodyText(request), o.ctx.target.secretKey, presented);
  // Upper-case hex is the right signature in another letter case: client.collect.signature-lowercase judges that.
  if (diagnosis.match === 'canonical' || diagnosis.match === 'case') return undefined;
  // What the caller passed is known here: the plainest explanation comes first.
  const caller = signedAsPassed(o, request, presented) ?? signedSixOnly(o, request, presented);
  const notSigned = (text: string): Problem => ({ text: `${NOT_SIGNED_AS_SENT}: ${text}`, causes: ['not-signed-as-sent'] });
  if (caller) return notSigned(caller);
  const encoding = notUtf8(request.body);
  if (encoding) return notSigned(`the body is not UTF-8 (${encoding}; likely ISO-8859-1 or Windows-1252 text), so no signature over its characters can match: JSON is sent as UTF-8 (RFC 8259 §8.1)`);
  return notSigned(describeDiagnosis(diagnosis));
}

/**
 * What the signature of a body that is not JSON was computed over, when a known form explains
 * it: the form's pairs read as the one signer reads a body (harness/signing: sorted by key,
 * joined as key=value, or a labelled alternative of that), or the fields as the caller passed them.
 */
function signedOverNotJson(o: SdkCall, body: Exclude<SentBody, { kind: 'json' }>, presented: string): string {
  const secret = o.ctx.target.secretKey;
  // Both texts are JSON this kit wrote (the pairs of a body decoded as UTF-8, the fields it passed): each can be signed.
  if (body.kind === 'form') {
    const text = pairsAsJson(body);
    const diagnosis = diagnoseSignature(text, secret, presented);
    if (diagnosis.match === 'canonical' || diagnosis.match === 'case') {
      const { message } = signBody(text, secret);
      // The SDK's own values, which may hold a secret it should not send: redacted before the cut.
      const shown = o.ctx.redactor.clip(message, 160);
      return `the signature is the one over the form's pairs (each value decoded), sorted by key and joined as key=value${diagnosis.match === 'case' ? ' (in upper-case hex)' : ''}: \`${shown}\``;
    }
    if (diagnosis.match === 'alternative') return `over the form's pairs, ${describeDiagnosis(diagnosis)}`;
  }
  if (signBody(fieldsJson(o.fields), secret).signature === presented) return 'the signature is the one over the fields as the caller passed them, not over any reading of the body sent';
  return 'no known form of this body explains the signature (neither its pairs sorted and joined as key=value, nor the fields as the caller passed them)';
}

/**
 * An SDK that signs the fields as its caller passed them and then sends them otherwise (its
 * encoder rounds, re-types or re-encodes a value): the signature is the one over the caller's
 * fields. Says which pair was signed and what the body has instead.
 */
function signedAsPassed(o: SdkCall, request: ReceivedRequest, presented: string): string | undefined {
  const stages = signBody(fieldsJson(o.fields), o.ctx.target.secretKey);
  if (stages.signature !== presented) return undefined;
  const sent = signBody(bodyText(request), o.ctx.target.secretKey).pairs;
  return `it is the signature over the fields as the caller passed them, not as the SDK sent them: ${signedVersusSent(sent, stages.pairs)}`;
}

/** The six fields of §2.1. */
export const SIX_FIELDS = ['amount', 'callback_url', 'client_id', 'customer_number', 'network_code', 'transaction_id'] as const;

/**
 * An SDK that sends its caller's extra fields but signs only the six of §2.1 (a model with six
 * properties signed, the request built from the caller's map): the signature is the one over
 * the body without them.
 */
function signedSixOnly(o: SdkCall, request: ReceivedRequest, presented: string): string | undefined {
  const members = readRawJsonObject(bodyText(request));
  const six = members.filter((m) => (SIX_FIELDS as readonly string[]).includes(m.key));
  if (six.length === members.length) return undefined;
  const stages = signBody(`{${six.map((m) => `${JSON.stringify(m.key)}:${m.value.raw}`).join(',')}}`, o.ctx.target.secretKey);
  if (stages.signature !== presented) return undefined;
  const extras = members.filter((m) => !six.includes(m)).map((m) => `\`${m.key}\``);
  return `it is the signature over the six fields of §2.1 alone: it left out ${extras.join(', ')}, which the body carries (§5.1 step 1 signs every field sent)`;
}

/** The stages `collect-conformance sign` prints for the body as received. */
function signingStages(o: SdkCall, request: ReceivedRequest): SigningEvidence {
  try {
    const stages = signBody(bodyText(request), o.ctx.target.secretKey);
    const [auth] = header(request, 'authorization');
    return {
      pairs: stages.pairs.map(([k, v]) => `${k} = ${v}`),
      message: stages.message,
      expectedSignature: stages.signature,
      presentedAuthorization: auth ?? null,
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function exchangeOf(o: SdkCall, request: ReceivedRequest): Exchange {
  // As received: the names in their own case, in their order.
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of request.rawHeaders) {
    const seen = headers[name];
    headers[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  const url = `${o.bench.service.baseUrl}${request.target}`;
  const body = bodyText(request);
  // A body recorded only up to its first bytes may end inside a secret: that start is redacted too.
  const shownBody = request.bodyTruncated ? o.ctx.redactor.cutText(body) : body;
  const curlHeaders: Record<string, string> = {};
  for (const [name, values] of Object.entries(request.headers)) {
    if (!['host', 'content-length', 'connection'].includes(name)) curlHeaders[name] = values.join(', ');
  }
  const secrets = [
    { value: o.ctx.target.clientKey, envName: 'COLLECT_CLIENT_KEY' },
    { value: o.ctx.target.secretKey, envName: 'COLLECT_SECRET_KEY' },
  ];
  return {
    label: `request the SDK sent (${request.atMs} ms into the call)`,
    request: { method: request.method, url, headers, body: request.bodyTruncated ? `${shownBody}… (truncated)` : body },
    ...(request.answer
      ? { response: { status: request.answer.status, ...(request.answer.contentType ? { headers: { 'content-type': request.answer.contentType } } : {}), bodyExcerpt: request.answer.body.slice(0, 500), durationMs: request.answer.durationMs } }
      : { error: 'the harness held the request without answering (the case scripts a service that does not answer)' }),
    curl: curlCommand({ method: request.method, url, headers: curlHeaders, body: shownBody }, secrets),
  };
}

export function evidenceOf(o: SdkCall, notes: string[] = []): Evidence {
  return {
    exchanges: o.requests.map((r) => exchangeOf(o, r)),
    signing: o.requests.map((r) => signingStages(o, r)),
    adapter: { sent: o.line, answered: o.answer.line || null },
    serviceScript: o.script,
    ...(notes.length > 0 ? { notes } : {}),
  };
}
