// client.status: an SDK's status query (§4.2, as the suite takes it: harness/status,
// docs/status.md), driven through the adapter's `op: "status"`, and only for an adapter whose
// hello declares `status` (protocol 2; a version-1 adapter is never sent it: its cases SKIP naming
// the one line to add). The request is judged like a collect (method, path, headers, body, the
// signature over the bytes sent); the answers are scripted, in both forms the evidence shows
// (harness/positions: status values in either letter case, an unknown id as 404 or 421), and the
// SDK reports each status as answered, a refusal, an unknown id, a 5xx or a 2xx it cannot read
// never as a status. An `error` to a valid answer in a form the SDK reads is a misreport.
import { readRawJsonObject, SigningError, signBody, type RawMember } from '../../signing/index.ts';
import { codeEvidence } from '../../positions/index.ts';
import { HELLO_UPGRADE, type ServiceScript } from '../../sdk/index.ts';
import {
  LETTER_CASES, REFERENCE_STATUS_FORM, spell, statusAnswerBody, STATUS_POSITION, STATUS_VALUES, UNKNOWN_ID_FORMS, unknownIdAnswer,
  type LetterCase, type StatusValue,
} from '../../status/index.ts';
import type { Stated, StatedCause } from '../../results/index.ts';
import { CaseError } from '../model.ts';
import type { CaseOutcome } from '../model.ts';
import type { ClientBench } from './bench.ts';
import { bodyText, callSdkStatus, evidenceOf, header, reported, signatureProblem, type ClientContext, type SdkCall } from './call.ts';
import { fail, pass, type ClientCase } from './define.ts';

/** How the reason of a status case begins when the adapter gave no usable answer to a plain status call (the preflight names it once). */
export const STATUS_CALL_FAILED = 'the adapter gave no usable answer to a plain status call';

const AUTHORIZATION = /^HMAC ([^:\s]+):([0-9a-fA-F]{64})$/;

const json = (status: number, body: string): ServiceScript => ({ kind: 'answer', status, contentType: 'application/json', body });

/** The form the reference service answers in first (the best evidence), and the other one. */
const FIRST_CASE: LetterCase = REFERENCE_STATUS_FORM.letterCase;
const OTHER_CASE: LetterCase = FIRST_CASE === 'lower' ? 'upper' : 'lower';

/** An answer with `status` in `letterCase`. */
const answered = (id: string, status: StatusValue, letterCase: LetterCase = FIRST_CASE) => json(200, statusAnswerBody(id, status, letterCase));

/** The answer every request case gets: pending, in the reference form. */
const pending = (id: string) => answered(id, 'PENDING');

/** A status answer's body in words: `200 {"success": true, "status": "success"}`. */
const answerWords = (status: StatusValue, letterCase: LetterCase) => `200 {"success": true, "status": "${spell(status, letterCase)}"}`;

/** What speaks for a letter case (docs/positions.md status.answer-values), for a WARN that names it. */
export function letterCaseEvidence(letterCase: LetterCase): string {
  return letterCase === 'lower'
    ? codeEvidence('status.answer-values')
    : 'the spec spells SUCCESS and FAILED in upper case in callbacks (§6), and a service may answer its status as it calls back (docs/positions.md, status.answer-values)';
}

/**
 * Why the status cases are not exercised: the adapter did not declare `status` in its hello
 * (protocol 1 never does). Undefined when it did.
 */
export async function statusNotDeclared(ctx: ClientContext): Promise<string | undefined> {
  const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
  const { greeting, status } = await bench.adapter.capabilities();
  if (status) return undefined;
  if (greeting.protocol === 1) {
    return `the adapter speaks protocol 1 (${greeting.why}), so it is never sent "op": "status" and its SDK's status call is not judged; to be judged on it, ${HELLO_UPGRADE} (harness/sdk/README.md)`;
  }
  return `the adapter's hello declares "supports": ${JSON.stringify(greeting.supports)}, without "status": the SDK it wraps has no status call to judge (add "status" to "supports" when it has one)`;
}

/**
 * The plain status call of a bench: answered 200 success in the reference form, and when that is
 * not reported SUCCESS, in the other letter case. It is the preflight's status query, the positive
 * control of the refusal cases; made once per bench, whoever asks first.
 */
export type PlainStatusCall =
  /** `other`: the same answer in the other letter case, asked when the first was not reported SUCCESS. */
  | { kind: 'answered'; o: SdkCall; other?: SdkCall }
  /** `stated`: what the failed call's error stated (the rest not sent, the run having given up on the adapter). */
  | { kind: 'failed'; reason: string; stated?: Stated };

const plainCalls = new WeakMap<ClientBench, Promise<PlainStatusCall>>();

const failedCall = (error: unknown): PlainStatusCall => ({
  kind: 'failed', reason: error instanceof Error ? error.message : String(error),
  ...(error instanceof CaseError && error.stated ? { stated: error.stated } : {}),
});

const reportsSuccess = (o: SdkCall | undefined) => o?.answer.kind === 'status' && o.answer.status === 'SUCCESS';

export async function plainStatusCall(ctx: ClientContext): Promise<PlainStatusCall> {
  const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
  let call = plainCalls.get(bench);
  if (!call) {
    const id = ctx.newTransactionId();
    call = callSdkStatus(ctx, id, answered(id, 'SUCCESS', FIRST_CASE)).then(async (o): Promise<PlainStatusCall> => {
      if (reportsSuccess(o)) return { kind: 'answered', o };
      const again = ctx.newTransactionId();
      const other = await callSdkStatus(ctx, again, answered(again, 'SUCCESS', OTHER_CASE)).catch(() => undefined);
      return { kind: 'answered', o, ...(other ? { other } : {}) };
    }, failedCall);
    plainCalls.set(bench, call);
  }
  return call;
}

/** The plain call reported SUCCESS in either letter case: the control of the refusal cases (an SDK reporting every answer otherwise would pass them). */
export function successReported(o: SdkCall, other?: SdkCall): CaseOutcome {
  if (reportsSuccess(o)) return pass(o);
  if (reportsSuccess(other)) return pass(other!, [`the SDK reported SUCCESS to ${answerWords('SUCCESS', OTHER_CASE)}, not to ${answerWords('SUCCESS', FIRST_CASE)} (it reported ${reported(o)})`]);
  const both = other ? `; to ${answerWords('SUCCESS', OTHER_CASE)} it reported ${reported(other)}` : '';
  return fail(o, `the service answered ${answerWords('SUCCESS', FIRST_CASE)}; the SDK reported ${reported(o)}${both}`);
}

type StatusCaseSpec = Omit<ClientCase, 'side' | 'run' | 'needs' | 'judge'> & {
  /** How one call is judged: the run's (with `script`) and the case's judge. */
  check(o: SdkCall): CaseOutcome;
} & (
  /** The service's answer, for the id the one call asks about. */
  | { script: (transactionId: string) => ServiceScript; calls?: never }
  /** Instead of one call: its own calls (both forms of an answer). */
  | { calls: (ctx: ClientContext) => Promise<CaseOutcome>; script?: never }
);

/** Before any status case: the adapter declares status (else SKIP), and its plain status call got an answer (else ERROR, one cause). */
async function statusGate(ctx: ClientContext): Promise<CaseOutcome | undefined> {
  const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
  // An adapter the run gave up on (it cannot start, or failed the plain call) says nothing of its protocol: that cause first.
  const undeclared = bench.adapter.givenUp ? undefined : await statusNotDeclared(ctx);
  if (undeclared !== undefined) return { verdict: 'SKIP', reason: `not exercised: ${undeclared}`, causes: ['status-not-declared'] };
  const plain = await plainStatusCall(ctx);
  if (plain.kind === 'answered') return undefined;
  // Not sent because the run gave up on the adapter (its plain collect call): that cause, as it is worded.
  if (plain.stated?.causes?.includes('given-up')) throw new CaseError(plain.reason, undefined, plain.stated);
  throw new CaseError(`${STATUS_CALL_FAILED} (${plain.reason}), though its hello declares "status"`, undefined, { causes: ['status-call-failed'], ...(plain.stated?.failure ? { failure: plain.stated.failure } : {}) });
}

function statusCase(spec: StatusCaseSpec): ClientCase {
  const { check, script: _script, calls: _calls, ...data } = spec;
  return {
    ...data,
    side: 'client',
    needs: [],
    judge: check,
    async run(ctx) {
      const gate = await statusGate(ctx);
      if (gate) return gate;
      if (spec.calls) return spec.calls(ctx);
      const id = ctx.newTransactionId();
      return check(await callSdkStatus(ctx, id, spec.script(id)));
    },
  };
}

/** The first request of the call, or the FAIL that says none came. */
function onRequest(judge: (o: SdkCall) => CaseOutcome) {
  return (o: SdkCall): CaseOutcome => {
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
function signedOverFewer(o: SdkCall): string | undefined {
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

function members(o: SdkCall, body: string): RawMember[] | CaseOutcome {
  try {
    return readRawJsonObject(body);
  } catch (error) {
    if (error instanceof SigningError) return fail(o, `the body sent is not a JSON object: ${error.message}`);
    throw error;
  }
}

/** Reported as anything but a status: a refusal or an error (MUST: the answer carries no status). */
function noStatus(what: string, how: string) {
  return onRequest((o: SdkCall): CaseOutcome => {
    if (o.answer.kind === 'status') return fail(o, `the service answered ${what}; the SDK reported ${reported(o)}: ${how}`);
    return pass(o, [`the service answered ${what}; the SDK reported ${reported(o)}`]);
  });
}

/** How the SDK reported one answer: as answered, as another status (or nothing), or not at all (an error, a refusal). */
export type FormReading = 'read' | 'misread' | 'not-read';

export function formReading(o: SdkCall, status: StatusValue): FormReading {
  if (o.answer.kind === 'status') return o.answer.status === status ? 'read' : 'misread';
  if (o.answer.kind === 'nothing') return 'misread';
  return 'not-read';
}

/** Every status value answered in both letter cases, once per bench (the three reports cases share it: whether a form is read at all needs all three). */
export type LetterCaseProfile = ReadonlyMap<string, SdkCall>;

const profileKey = (status: StatusValue, letterCase: LetterCase) => `${status}/${letterCase}`;
const profiles = new WeakMap<ClientBench, Promise<LetterCaseProfile>>();

async function letterCaseProfile(ctx: ClientContext): Promise<LetterCaseProfile> {
  const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
  let profile = profiles.get(bench);
  if (!profile) {
    profile = (async () => {
      const seen = new Map<string, SdkCall>();
      for (const status of STATUS_VALUES) {
        for (const letterCase of [FIRST_CASE, OTHER_CASE]) {
          const id = ctx.newTransactionId();
          seen.set(profileKey(status, letterCase), await callSdkStatus(ctx, id, answered(id, status, letterCase)));
        }
      }
      return seen;
    })();
    profiles.set(bench, profile);
  }
  return profile;
}

const MISREPORTED: StatedCause[] = ['status-misreported'];

/**
 * One status value answered in both letter cases (positions: status.answer-values): PASS when
 * both are reported as answered; WARN when one form is read and the SDK reads no value at all in
 * the other (it reads one letter case: the WARN names the other and its evidence); FAIL for a
 * misreport: another status, nothing, an error to a value of a form it reads, or neither form read.
 */
export function judgeLetterCases(status: StatusValue, profile: LetterCaseProfile, why: string): CaseOutcome {
  const o = (letterCase: LetterCase) => profile.get(profileKey(status, letterCase))!;
  const reading = (letterCase: LetterCase) => formReading(o(letterCase), status);
  const readsForm = (letterCase: LetterCase) => STATUS_VALUES.some((v) => profile.has(profileKey(v, letterCase)) && formReading(profile.get(profileKey(v, letterCase))!, v) === 'read');
  const said = (letterCase: LetterCase) => `to ${answerWords(status, letterCase)} the SDK reported ${reported(o(letterCase))}`;
  for (const letterCase of LETTER_CASES) {
    if (o(letterCase).requests.length === 0) return fail(o(letterCase), `no request reached the service; the SDK reported ${reported(o(letterCase))}`);
  }
  const misread = LETTER_CASES.find((c) => reading(c) === 'misread');
  if (misread) return fail(o(misread), { text: `the service answered ${answerWords(status, misread)}; the SDK reported ${reported(o(misread))}: ${why}`, causes: MISREPORTED });
  const read = LETTER_CASES.filter((c) => reading(c) === 'read');
  if (read.length === 2) return pass(o(FIRST_CASE), [`read in both letter cases: ${said('lower')}, ${said('upper')}`]);
  if (read.length === 0) {
    return fail(o(FIRST_CASE), { text: `the SDK read neither form of a ${status} answer: ${said(FIRST_CASE)}; ${said(OTHER_CASE)}`, causes: MISREPORTED });
  }
  const [form] = read as [LetterCase];
  const other: LetterCase = form === 'lower' ? 'upper' : 'lower';
  if (readsForm(other)) {
    const example = STATUS_VALUES.find((v) => formReading(profile.get(profileKey(v, other))!, v) === 'read')!;
    return fail(o(other), {
      text: `the service answered ${answerWords(status, other)}; the SDK reported ${reported(o(other))}, though it reads ${other}-case answers (it reported ${answerWords(example, other)} as ${example}): an error to a valid answer is a misreport (${said(form)})`,
      causes: MISREPORTED,
    });
  }
  return {
    verdict: 'WARN',
    reason: `the SDK reads the status only in ${form} case: ${said(form)}, but ${said(other)}, as to every ${other}-case answer; `
      + `the ${other}-case form has evidence too: ${letterCaseEvidence(other)}`,
    evidence: evidenceOf(o(other), [said(form)]),
  };
}

function reportsCase(status: StatusValue, why: string): ClientCase {
  return statusCase({
    id: `client.status.reports-${status.toLowerCase()}`,
    title: `a status answered ${status} is reported ${status}`,
    specRef: '§4.2, §6 rule 5',
    level: 'MUST',
    // A status reported without asking (from the SDK's own cache) was not read from the service's answer.
    check: onRequest((o) => {
      if (formReading(o, status) === 'read') return pass(o);
      return fail(o, { text: `the service answered ${JSON.stringify(o.script.kind === 'answer' ? o.script.body : '')}; the SDK reported ${reported(o)}: ${why}`, causes: MISREPORTED });
    }),
    calls: async (ctx) => judgeLetterCases(status, await letterCaseProfile(ctx), why),
  });
}

/** An unknown id, answered in both forms (positions: status.unknown-id): neither is ever reported as a status. */
async function unknownIdBothForms(ctx: ClientContext): Promise<CaseOutcome> {
  const seen: Array<{ form: number; o: SdkCall }> = [];
  for (const form of UNKNOWN_ID_FORMS) {
    const id = ctx.newTransactionId();
    const { httpStatus, body } = unknownIdAnswer(id, form);
    seen.push({ form, o: await callSdkStatus(ctx, id, json(httpStatus, body)) });
  }
  const words = (form: number) => (form === 404 ? '404 {"success": false, "error_code": 404}' : '200 {"success": false, "error_code": 421}');
  for (const { form, o } of seen) {
    if (o.requests.length === 0) return fail(o, `no request reached the service; the SDK reported ${reported(o)}`);
    if (o.answer.kind === 'status') {
      return fail(o, `the service answered ${words(form)} (an unknown id, the ${form} form: docs/positions.md status.unknown-id); the SDK reported ${reported(o)}: the service does not know the transaction; FAILED would cancel an order that may still be paid`);
    }
  }
  return pass(seen[0]!.o, seen.map(({ form, o }) => `the service answered ${words(form)}; the SDK reported ${reported(o)}`));
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
    id: 'client.status.unknown-id', title: 'an unknown id (404, or 421) is never reported as a status', specRef: '§4.2, §7', level: 'MUST',
    negative: 'status-refusal',
    check: noStatus('404 {"success": false, "error_code": 404}', 'the service does not know the transaction; FAILED would cancel an order that may still be paid'),
    calls: unknownIdBothForms,
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
