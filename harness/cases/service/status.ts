// service.status: the transaction status endpoint (§4.2), as the suite takes it (harness/status,
// docs/status.md; a target file may state another method, path or answer pointer, or that there
// is none). The spec says only that it exists and "may be called to confirm a callback
// independently" (§4.2, §6 rule 5), so what a confirmation needs is checked: the answer agrees
// with the callback, a pending transaction is not answered with an outcome it does not reach, an
// id the service never saw is never SUCCESS, and the endpoint is authenticated like collect (a
// status that anyone may read is one a forged callback can be "confirmed" with).
import { performance } from 'node:perf_hooks';
import { parseCallbackQuery } from '../../callback/index.ts';
import { WRONG_CLIENT_KEY, wrongSecretFor, type SentAnswer, type SignedRequest, type SourceName } from '../../client/index.ts';
import {
  readStatusAnswer, signedStatusQuery, STATUS_POSITION, statusAt, unknownIdInBody,
  type StatusEndpoint, type StatusReading, type StatusValue,
} from '../../status/index.ts';
import type { ResolvedServiceTarget } from '../../targets/index.ts';
import { CaseError } from '../model.ts';
import type { CaseOutcome } from '../model.ts';
import { firstCallback, requireAccepted, serviceCase, UNREAD_REJECTION, type ServiceCase } from './define.ts';
import { describeAnswer, failureOf, type ServiceSession } from './session.ts';
import { probedAbsence, sharedProbe } from './status-absent.ts';

/**
 * How every case begins its reason when a correctly signed query got no status. Such a case is
 * ERROR, not FAIL: the query's shape is the suite's position (the spec shows none), so a refusal
 * may mean the service differs from it, not that it breaks a rule; the preflight names the cause
 * once when its own query saw the same (harness/preflight, harness/diagnoses).
 */
export const STATUS_NOT_READ = 'a correctly signed status query got no status';

/** The target's status endpoint: its `status` block, or the suite's position; undefined for `"status": false`. */
export function serviceStatusEndpoint(target: ResolvedServiceTarget): StatusEndpoint | undefined {
  return target.status === false ? undefined : target.status ?? STATUS_POSITION;
}

/** What a query spoils, each a rule of §5.2 that collect obeys too. */
export type QueryTamper =
  /** The right client key, a signature made with another secret. */
  | 'wrong-signature'
  | 'unknown-client-key'
  | 'missing-header';

const TAMPERS: Readonly<Record<QueryTamper, string>> = {
  'wrong-signature': 'signed with a wrong secret (the right client key)',
  'unknown-client-key': 'naming a client key nobody has (a correct signature)',
  'missing-header': 'without an Authorization header',
};

/** A status query of the target's shape for `transactionId`, correctly signed unless a tamper spoils it. */
export function statusQuery(s: ServiceSession, transactionId: string, tamper?: QueryTamper): SignedRequest {
  const t = s.target;
  const endpoint = serviceStatusEndpoint(t) ?? STATUS_POSITION;
  const query = signedStatusQuery({
    baseUrl: t.baseUrl, endpoint, transactionId, clientId: t.clientId,
    clientKey: tamper === 'unknown-client-key' ? WRONG_CLIENT_KEY : t.clientKey,
    secretKey: tamper === 'wrong-signature' ? wrongSecretFor(t.secretKey) : t.secretKey,
  });
  if (tamper === 'missing-header') delete query.headers['authorization'];
  return query;
}

/**
 * The answer read as a status answer. Whether a 2xx refuses is decided as for collect (the
 * target's `rejection` rules, DESIGN.md), then the status is read at the endpoint's pointer.
 * Undefined when nothing answered.
 */
export function statusReading(answer: SentAnswer, endpoint: StatusEndpoint): StatusReading | undefined {
  if (answer.status === undefined) return undefined;
  const status = answer.status;
  if (answer.judgement !== 'accepted') {
    const reading = readStatusAnswer(status, answer.bodyText ?? '', endpoint);
    return reading.kind === 'status' ? { kind: 'refused', httpStatus: status } : reading;
  }
  if (answer.json === undefined) return { kind: 'unreadable', httpStatus: status, why: 'the body is not JSON' };
  const read = statusAt(answer.json, endpoint.pointer);
  return read.kind === 'none' ? { kind: 'unreadable', httpStatus: status, why: read.why } : read;
}

/** A reading in words: `SUCCESS`, `SUCCESS (spelled in lower case)`, `unknown id (HTTP 404)`, `unknown id (HTTP 200, "error_code": 421)`. */
export function describeStatusReading(reading: StatusReading): string {
  switch (reading.kind) {
    case 'status': return `${reading.status}${reading.letterCase !== 'upper' ? ` (spelled in ${reading.letterCase === 'lower' ? 'lower' : 'mixed'} case)` : ''}`;
    case 'unknown-id': return `unknown id (HTTP ${reading.httpStatus}${reading.form === 421 ? ', "error_code": 421' : ''})`;
    case 'refused': return `refused (HTTP ${reading.httpStatus})`;
    case 'server-error': return `a server error (HTTP ${reading.httpStatus})`;
    case 'unreadable': return `unreadable (HTTP ${reading.httpStatus}: ${reading.why})`;
  }
}

/** The status a reading says, if it is a status answer. */
function statusOf(reading: StatusReading | undefined): StatusValue | undefined {
  return reading?.kind === 'status' ? reading.status : undefined;
}

export interface Asked {
  answer: SentAnswer;
  /** Undefined when nothing answered. */
  reading: StatusReading | undefined;
  /** performance.now() when the answer was in. */
  at: number;
}

/** Sends one status query and reads its answer. */
export async function askStatus(
  s: ServiceSession, transactionId: string, options: { tamper?: QueryTamper; source?: SourceName; label: string },
): Promise<Asked> {
  const endpoint = serviceStatusEndpoint(s.target) ?? STATUS_POSITION;
  const answer = await s.sendSigned(statusQuery(s, transactionId, options.tamper), {
    label: options.label, ...(options.source ? { source: options.source } : {}),
  });
  return { answer, reading: statusReading(answer, endpoint), at: performance.now() };
}

/** The reason of a correctly signed query that got no status, with what likely explains it. */
export function notReadReason(s: ServiceSession, asked: Asked): string {
  const { reading, answer } = asked;
  if (!reading) return `${STATUS_NOT_READ}: no answer (${failureOf(answer)})`;
  return `${STATUS_NOT_READ}: it was answered ${describeAnswer(answer)}, read as ${describeStatusReading(reading)}${likelyCause(s, reading)}`;
}

function likelyCause(s: ServiceSession, reading: StatusReading): string {
  const endpoint = serviceStatusEndpoint(s.target) ?? STATUS_POSITION;
  const where = `${endpoint.method} ${endpoint.path}`;
  switch (reading.kind) {
    case 'refused':
      return reading.httpStatus === 401 || reading.httpStatus === 403
        ? `; likely the service signs or authenticates status queries otherwise than collect (the status query's signature: ${where} with {"transaction_id", "client_id"} signed as §5.1), or whitelists another source for it`
        : reading.httpStatus === 405 ? `; likely the endpoint takes another method than ${endpoint.method}: state it as "status": {"method"} in the target file` : '';
    case 'unknown-id':
      return `; either the service does not know a transaction it accepted, or its status endpoint is not at ${where}: state it as "status": {"method", "path"} in the target file`;
    case 'unreadable':
      return `; if the service puts the status elsewhere, state it as "status": {"pointer"} in the target file`;
    default:
      return '';
  }
}

/** A collect for `customerNumber` that must be accepted; its fields and tag. */
async function acceptedTransaction(s: ServiceSession, customerNumber?: string) {
  const fields = s.fields(customerNumber !== undefined ? { customer_number: customerNumber } : {});
  requireAccepted(s, await s.sendAnswered({ fields }, { label: 'a correctly signed collect, for a transaction to query' }));
  return fields;
}

/** After its callback, a correctly signed query agrees with it (MUST: a confirmation that contradicts the callback is no confirmation). */
function agreesCase(leaf: 'success-agrees' | 'failed-agrees', expected: 'SUCCESS' | 'FAILED'): ServiceCase {
  return serviceCase({
    id: `service.status.${leaf}`,
    title: `after a ${expected} callback, the status answer says ${expected}`,
    specRef: '§3, §4.2, §6 rule 5',
    level: 'MUST',
    needs: expected === 'FAILED' ? ['statusEndpoint', 'failingNumber'] : ['statusEndpoint'],
    async check(s) {
      const fields = await acceptedTransaction(s, expected === 'FAILED' ? s.target.customerNumbers.failing![0]! : s.successNumber());
      const [callback] = await firstCallback(s, fields.tag);
      if (!callback) {
        throw new CaseError(`precondition: no callback arrived within timing.callbackTimeoutMs (${s.target.timing.callbackTimeoutMs} ms), so there is no outcome for the status answer to agree with (see service.callback.delivered-once-as-get)`, s.evidence(), { causes: ['no-callback'] });
      }
      const said = parseCallbackQuery(callback.rawUrl).status;
      if (said !== 'SUCCESS' && said !== 'FAILED') {
        return s.skip(`not exercised: the callback's status ${JSON.stringify(said ?? null)} is neither SUCCESS nor FAILED (service.callback.status-success and status-failed judge it)`);
      }
      const id = fields.transaction_id;
      let asked = await askStatus(s, id, { label: `status query after the ${said} callback` });
      if (statusOf(asked.reading) === 'PENDING') {
        // A service may update the store it answers from a moment after calling back.
        const settleMs = Math.min(1000, s.target.timing.callbackTimeoutMs);
        s.note(`the first query, right after the callback, was answered PENDING: asked again after ${settleMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, settleMs));
        asked = await askStatus(s, id, { label: `status query ${settleMs} ms later` });
      }
      const { reading } = asked;
      if (!reading) throw s.unanswered('the status query', asked.answer);
      const absent = await probeEndpointAbsent(s, id, asked);
      if (absent !== undefined) return skipAbsent(s, absent);
      // No status to compare: the rule is not exercised (the shape is the suite's position; the preflight names the cause).
      if (reading.kind !== 'status') throw new CaseError(notReadReason(s, asked), s.evidence(), { causes: ['status-not-read'] });
      if (reading.transactionId !== undefined && reading.transactionId !== id) {
        return s.fail(`the status query for ${JSON.stringify(id)} was answered for ${JSON.stringify(reading.transactionId)}: the answer names another transaction`);
      }
      if (reading.status !== said) {
        return s.fail(`the callback said status=${said}; the status endpoint answers ${reading.status} for the same transaction${reading.status === 'PENDING' ? ', also a moment later' : ''}: a receiver confirming the callback (§6 rule 5) would be told otherwise than the callback says`);
      }
      return s.pass({ notes: [`callback status=${said}; status answer ${describeAnswer(asked.answer)}`, ...formNote(reading)] });
    },
  });
}

/** How often the pending case starts a fresh transaction when its first query came too late to see it pending. */
const PENDING_ATTEMPTS = 3;

/** An attempt saw the transaction pending (the PASS's note), came too late to (why), or decided the case. */
type PendingAttempt = { pending: string; form: string[] } | { tooLate: string } | CaseOutcome;

/**
 * One transaction that ends FAILED, queried right after its acceptance. PENDING: the case PASSes. Terminal
 * after its callback, or before it and the callback then says the same: the service was faster
 * than the query (not exercised). Terminal before its callback, which then says otherwise: FAIL.
 */
async function pendingAttempt(s: ServiceSession, attempt: number): Promise<PendingAttempt> {
  const number = s.target.customerNumbers.failing![0]!;
  const fields = s.fields({ customer_number: number });
  // Collect and query back to back, with nothing else of ours on the wire between them (a burst of
  // two: under a pace, it starts after a turn left unused, so a limiter at that rate takes both).
  const { accepted, asked } = await s.ctx.wire.alone(async () => {
    const answer = await s.sendAnswered({ fields }, { label: `attempt ${attempt}: a correctly signed collect (a transaction that ends FAILED)` });
    if (answer.judgement !== 'accepted') return { accepted: answer, asked: undefined };
    return { accepted: answer, asked: await askStatus(s, fields.transaction_id, { label: `attempt ${attempt}: status query right after the acceptance` }) };
  }, { burst: 2 });
  requireAccepted(s, accepted);
  const { reading, answer, at } = asked!;
  if (!reading) throw s.unanswered('the status query', answer);
  const afterMs = Math.round(at - accepted.sentAt);
  const absent = await probeEndpointAbsent(s, fields.transaction_id, asked!);
  if (absent !== undefined) return skipAbsent(s, absent);
  // Not known yet is no status either: nothing says how the service answers a pending transaction.
  if (reading.kind !== 'status') throw new CaseError(notReadReason(s, asked!), s.evidence(), { causes: ['status-not-read'] });
  if (reading.status === 'PENDING') return { pending: `queried ${afterMs} ms after the acceptance: PENDING`, form: formNote(reading) };
  // Called back already: the transaction was no longer pending (agreement is the agrees cases' rule).
  if (s.deliveries({ tag: fields.tag }).some((d) => d.receivedAt <= at)) {
    return { tooLate: `answered ${reading.status} ${afterMs} ms after the acceptance, after its callback` };
  }
  const [callback] = await firstCallback(s, fields.tag);
  if (!callback) {
    return s.skip(`not exercised: answered ${reading.status} ${afterMs} ms after the acceptance, and no callback came within timing.callbackTimeoutMs (${s.target.timing.callbackTimeoutMs} ms) to compare it with (see service.callback.delivered-once-as-get)`);
  }
  const said = parseCallbackQuery(callback.rawUrl).status;
  if (said === reading.status) {
    return { tooLate: `answered ${reading.status} ${afterMs} ms after the acceptance, before its callback, which said the same` };
  }
  return s.fail(`a transaction that ends ${said ?? '(no status)'} (its callback, ${Math.round(callback.receivedAt - accepted.sentAt)} ms after the acceptance) was answered ${reading.status} by the status endpoint ${afterMs} ms after the acceptance, before its callback: a pending transaction was answered with an outcome it did not reach (§3: only SUCCESS and FAILED are terminal, and they are final)`);
}

/** Correctly signed, the query would be answered with the status; spoiled, it must be refused like a collect. */
function refusalCase(leaf: string, title: string, specRef: string, tamper: QueryTamper | undefined, source: SourceName = 'default'): ServiceCase {
  return serviceCase({
    id: `service.status.${leaf}`,
    title,
    specRef,
    level: 'MUST',
    needs: source === 'notWhitelisted' ? ['statusEndpoint', 'notWhitelistedSource'] : ['statusEndpoint'],
    negative: 'status-refusal',
    async check(s) {
      const fields = await acceptedTransaction(s);
      const what = source === 'notWhitelisted'
        ? 'a correctly signed status query from a non-whitelisted source'
        : `a status query ${TAMPERS[tamper!]}`;
      const asked = await askStatus(s, fields.transaction_id, { label: what, source, ...(tamper ? { tamper } : {}) });
      const { answer, reading } = asked;
      if (!reading) {
        if (answer.routeError) throw new CaseError(`${answer.routeError}: the query never reached the service, so its whitelist could not be tested`, s.evidence());
        if (source !== 'notWhitelisted') throw s.unanswered('the status query', answer);
        // Silence is a refusal at the network only if the service answers the whitelisted source.
        const control = await askStatus(s, fields.transaction_id, { label: 'control: the same query from the whitelisted source' });
        if (!control.reading) {
          throw new CaseError(`${what} got no HTTP answer (${failureOf(answer)}), and the same query from the whitelisted source got none either (${failureOf(control.answer)}): the silence says nothing about the whitelist`, s.evidence());
        }
        return s.pass({ notes: [`no HTTP answer (${failureOf(answer)}): counted as a refusal at the network; the same query from the whitelisted source was answered ${describeAnswer(control.answer)}`] });
      }
      const absent = await absentFor(s, asked, async () => fields.transaction_id);
      if (absent !== undefined) return skipAbsent(s, absent);
      if (reading.kind === 'status') {
        return s.fail(`${what} was answered ${describeAnswer(answer)}: it disclosed the transaction's status (${reading.status}); the status endpoint is authenticated like collect (§5.2${source === 'notWhitelisted' ? ', §5.4' : ''}), or anyone may read, and "confirm", any outcome`);
      }
      if (answer.judgement === 'accepted') {
        return s.fail(`${what} was answered ${describeAnswer(answer)}, which reads as accepted (2xx, no rejection rule met) though no status was found (${describeStatusReading(reading)}): either the service answered it, or ${UNREAD_REJECTION}; if so, state that shape as "rejection" in the target file`, undefined, ['rejections-unread']);
      }
      return s.pass({ notes: [`${what}: ${describeAnswer(answer)}`] });
    },
  });
}

/**
 * A 404 whose body does not say the id is unknown: the endpoint may be absent (probeEndpointAbsent
 * tells). A 404 always reads as an unknown id (readStatusAnswer), so the status is what decides.
 */
function maybeNoEndpoint(asked: Asked): boolean {
  return asked.answer.status === 404 && unknownIdInBody(jsonObjectOf(asked.answer)) === undefined;
}

/**
 * A correctly signed query for an accepted transaction answered 404 with no unknown-id body: is
 * the endpoint itself absent? The same signed query to a path beside it, which no API has, is
 * answered alike (the same status, the same error_code or none) when it is. Asked once per run
 * (status-absent.ts); returns the shared cause's words.
 */
export async function probeEndpointAbsent(s: ServiceSession, transactionId: string, asked: Asked): Promise<string | undefined> {
  if (!maybeNoEndpoint(asked)) return undefined;
  return sharedProbe(s.ctx.resources, s.target.baseUrl, async () => {
    const endpoint = serviceStatusEndpoint(s.target) ?? STATUS_POSITION;
    const query = statusQuery(s, transactionId);
    const sibling = `${endpoint.path.replace(/\/*(\?.*)?$/, '')}-collect-conformance-no-such-path/`;
    query.url = s.target.baseUrl.replace(/\/+$/, '') + sibling;
    const control = await s.sendSigned(query, { label: 'the same status query to a path no API has (is the status endpoint there at all?)' });
    if (control.status !== asked.answer.status || JSON.stringify(errorCodeOf(control)) !== JSON.stringify(errorCodeOf(asked.answer))) return undefined;
    return `the service has no status endpoint at ${endpoint.method} ${endpoint.path}: a correctly signed status query for an accepted transaction was answered ${describeAnswer(asked.answer)}, as the same query to ${sibling}, a path no API has, was (${describeAnswer(control)}); `
      + 'its status cases are not judged (§4.2 shows no path: the path is the suite\'s position, docs/positions.md status.endpoint-absent). '
      + 'Add "status": false to the target file to say so, or "status": {"method", "path"} where the endpoint is';
  });
}

/** A case's query got 404 with no unknown-id body (a refusal, an unknown id): the endpoint absent, asked with a correctly signed query for `acceptedId`? */
async function absentFor(s: ServiceSession, asked: Asked, acceptedId: () => Promise<string>): Promise<string | undefined> {
  if (!maybeNoEndpoint(asked)) return undefined;
  const id = await acceptedId();
  const control = await askStatus(s, id, { label: 'control: a correctly signed status query for an accepted transaction' });
  return probeEndpointAbsent(s, id, control);
}

/** SKIP under the shared cause, with the case's evidence: its query, the control, and the probe when this case asked it. */
function skipAbsent(s: ServiceSession, why: string): CaseOutcome {
  return { ...s.skip(`not exercised: ${why}`, {}), causes: ['status-endpoint-absent'] };
}

/** The JSON object an answer carries (undefined for none, an array or a scalar). */
function jsonObjectOf(answer: SentAnswer): Record<string, unknown> | undefined {
  const json = answer.json;
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? json as Record<string, unknown> : undefined;
}

/** The error_code of a JSON answer (undefined for none, or no JSON). */
function errorCodeOf(answer: SentAnswer): unknown {
  return jsonObjectOf(answer)?.['error_code'];
}

/** SKIP at once, with the one shared cause, when this run already found the target's status endpoint absent. */
function unlessAbsent(c: ServiceCase): ServiceCase {
  return {
    ...c,
    async run(ctx) {
      const why = await probedAbsence(ctx.resources, ctx.target.baseUrl);
      if (why !== undefined) return { verdict: 'SKIP', reason: `not exercised: ${why}`, causes: ['status-endpoint-absent'] };
      return c.run(ctx);
    },
  };
}

export const STATUS_CASES: readonly ServiceCase[] = ([
  agreesCase('success-agrees', 'SUCCESS'),
  agreesCase('failed-agrees', 'FAILED'),
  serviceCase({
    id: 'service.status.pending-not-terminal',
    title: 'a pending transaction is not answered as terminal before its callback',
    specRef: '§3, §4.2',
    level: 'MUST',
    // A FAILED outcome is what a pending-as-SUCCESS answer contradicts; a SUCCESS one could not tell.
    needs: ['statusEndpoint', 'failingNumber'],
    async check(s) {
      const late: string[] = [];
      for (let attempt = 1; attempt <= PENDING_ATTEMPTS; attempt++) {
        const outcome = await pendingAttempt(s, attempt);
        if ('pending' in outcome) return s.pass({ notes: [...late.map((l, i) => `attempt ${i + 1}: ${l}`), outcome.pending, ...outcome.form] });
        if ('verdict' in outcome) return outcome;
        late.push(outcome.tooLate);
      }
      return s.skip(`not exercised: every one of ${PENDING_ATTEMPTS} transactions was already terminal when queried right after its acceptance (${late.join('; ')}): the service likely finishes faster than a query can catch it pending`, {});
    },
  }),
  serviceCase({
    id: 'service.status.unknown-id-not-success',
    title: 'an id the service never saw is never answered SUCCESS',
    specRef: '§4.2, §6 rule 5',
    level: 'MUST',
    needs: ['statusEndpoint'],
    negative: 'status-refusal',
    async check(s) {
      const id = s.ctx.newTransactionId();
      const asked = await askStatus(s, id, { label: 'status query for an id never used in a collect' });
      const { reading, answer } = asked;
      if (!reading) throw s.unanswered('the status query', answer);
      const absent = await absentFor(s, asked, async () => (await acceptedTransaction(s)).transaction_id);
      if (absent !== undefined) return skipAbsent(s, absent);
      if (statusOf(reading) === 'SUCCESS') {
        return s.fail(`a status query for ${JSON.stringify(id)}, an id no collect request used, was answered ${describeAnswer(answer)}: SUCCESS for a transaction that does not exist, which "confirms" any forged callback`);
      }
      return s.pass({ notes: [`answered ${describeAnswer(answer)}: ${describeStatusReading(reading)}`, ...formNote(reading)] });
    },
  }),
  refusalCase('missing-header', 'a status query without Authorization is refused', '§4.2, §5.2', 'missing-header'),
  refusalCase('wrong-signature', 'a status query signed with a wrong secret is refused', '§4.2, §5.2, §7', 'wrong-signature'),
  refusalCase('unknown-client-key', 'a status query naming an unknown client_key is refused', '§4.2, §5.2', 'unknown-client-key'),
  refusalCase('ip-not-whitelisted', 'a status query from a non-whitelisted source is refused', '§4.2, §5.4, §7', undefined, 'notWhitelisted'),
] satisfies ServiceCase[]).map(unlessAbsent);

/**
 * The form a status answer came in, for the report (harness/positions: the kit reads either
 * letter case, and 404 or 421 as an unknown id): `the status values in lower case (success), one
 * of the forms the evidence shows`.
 */
export function formNote(reading: StatusReading): string[] {
  if (reading.kind === 'status') {
    return [`the answer spelled the status in ${reading.letterCase} case (${JSON.stringify(reading.letterCase === 'lower' ? reading.status.toLowerCase() : reading.status)}${reading.letterCase === 'mixed' ? ', read case-insensitively' : ''}); the kit reads either letter case (docs/positions.md, status.answer-values)`];
  }
  if (reading.kind === 'unknown-id') {
    return [`the unknown id was answered ${reading.form === 421 ? '"error_code": 421 with "success": false' : `HTTP ${reading.httpStatus}`}; the kit reads 404 and 421 alike (docs/positions.md, status.unknown-id)`];
  }
  return [];
}
