// What every receiver case does: send callbacks as the service would (composed with the
// canonical composer), seed and read the record the way the target observes it (test hooks, its
// database, a command), and collect the evidence a failure must carry (requests, answers, the
// readings before and after with how they were read, curl lines).
import { CALLBACK_PARAM_NAMES, composeCallbackUrl, formEncode, separatorAfter, splitFragment, type CallbackParams } from '../../callback/index.ts';
import type { Evidence, Level, RecordsEvidence, Stated, StatedCause } from '../../results/index.ts';
import { secretEnvName, type ResolvedReceiverTarget } from '../../targets/index.ts';
import { describeRecord, ObserveError, type RecordObserver, type RecordReading } from '../../observe/index.ts';
import { DEFAULT_TOKEN_ENV, HttpClient, isSuccess, tokenHeader, type HeaderSpec, type HttpResult } from '../../http/index.ts';
import { rateLimitedReason } from '../../wire/index.ts';
import { CaseError, type Capability, type CaseContext, type CaseOutcome, type ConformanceCase, type NegativeKind, type ReasonedOutcome } from '../model.ts';
import type { Redactor } from '../../secrets/index.ts';
import { lateAnswerWords, lateForReceiver, type CallbackReply, type RunningStatusEndpoint } from '../../status/index.ts';
import { statusQueryEvidence } from './status-endpoint.ts';

export type ReceiverContext = CaseContext<ResolvedReceiverTarget>;

/** Which X-Callback-Token header lines a callback carries: the configured token, none, or a variant. */
export type TokenChoice = 'configured' | 'none' | { headers: HeaderSpec[]; describe: string };

export interface CallbackOptions {
  token?: TokenChoice;
  /** The callback URL before composition (default: the target's callbackUrl). */
  callbackUrl?: string;
  /** Appended after the composed query, e.g. `&channel=mobile` (a service adding parameters). */
  append?: string;
  /** A parameter left out of the query (a malformed callback). */
  omit?: CallbackParamName;
  label?: string;
}

/** Why a case judges the answer alone: it cannot make a record to watch. */
export const NO_SEEDED_RECORD = 'no seeded record (the target names no hooksUrl, or an observe that cannot seed)';

/** How a case's note on a longer wait for late actions begins (said once per case). */
const QUIET_NOTE = 'late actions were waited for';

/** The amount every seeded record carries. */
export const SEED_AMOUNT = '10.00';

export class ReceiverProbe {
  readonly http: HttpClient;
  /** The receiver's records as this case sees them; absent for a black-box receiver. */
  readonly records?: RecordObserver;
  readonly readings: RecordsEvidence;
  readonly notes: string[] = [];
  /** A confirming target's status endpoint, once a callback was told to it; the ids told, for the evidence. */
  private confirming?: { endpoint: RunningStatusEndpoint; ids: Set<string>; replies: Map<string, CallbackReply & { text: string }> };
  private readonly startedAt = performance.now();

  constructor(readonly ctx: ReceiverContext) {
    this.http = new HttpClient({
      requestTimeoutMs: ctx.requestTimeoutMs, signal: ctx.signal, wire: ctx.wire, redactor: ctx.redactor, ...(ctx.target.caCert ? { caCert: ctx.target.caCert } : {}),
    });
    if (ctx.records) this.records = ctx.records.forCase({ http: this.http, wire: ctx.wire, signal: ctx.signal });
    this.readings = { way: ctx.records?.describe ?? 'none' };
  }

  /** The case can make a pending record and read it back (hooks, a seed statement, a command). */
  get seeds(): boolean {
    return this.records?.can.seed ?? false;
  }

  get target(): ResolvedReceiverTarget {
    return this.ctx.target;
  }

  /** The variable curl lines read the token from: the one the target file names. */
  get tokenEnv(): string {
    return secretEnvName(this.target, 'callbackToken') ?? DEFAULT_TOKEN_ENV;
  }

  /** How long a receiver that applies after replying gets before the record is judged. */
  get settleMs(): number {
    return Math.min(300, Math.max(20, Math.round(this.target.timing.replyDeadlineMs / 10)));
  }

  /**
   * How long after an answer the record is read for actions that may still come: settleMs, or
   * twice the longest this receiver took in the run to apply a valid callback after answering it
   * (a receiver applying from a queue acts that late on every callback), at most twice the reply
   * deadline. Asked while the preflight's measure is under way, it waits for it.
   */
  async quietMs(): Promise<number> {
    const times = this.ctx.resources.applyTimes;
    await untilAborted(times.whenMeasured(this.target), this.ctx.signal);
    return Math.max(this.settleMs, Math.round(Math.min(2 * times.longestOf(this.target), 2 * this.target.timing.replyDeadlineMs)));
  }

  evidence(extra: Evidence = {}): Evidence {
    const evidence: Evidence = { exchanges: this.http.exchanges, ...extra };
    const queries = this.confirming ? statusQueryEvidence(this.confirming.endpoint, this.confirming.ids, this.startedAt) : [];
    if (queries.length > 0 && evidence.statusQueries === undefined) evidence.statusQueries = queries;
    const { way: _, ...read } = this.readings;
    if (Object.keys(read).length > 0) evidence.records = { ...this.readings };
    if (this.notes.length > 0) evidence.notes = [...(evidence.notes ?? []), ...this.notes];
    return evidence;
  }

  /**
   * A PASS keeps its evidence as a failure does (the requests, the answers, the readings, what it
   * measured and its notes): a reader sees what was judged (issue 41: the receiver's 404 for an
   * unknown id judged, not ignored); the HTML report folds it.
   */
  pass(extra?: Evidence): CaseOutcome {
    const { exchanges, ...rest } = this.evidence(extra);
    const evidence: Evidence = { ...(exchanges && exchanges.length > 0 ? { exchanges } : {}), ...rest };
    return Object.keys(evidence).length > 0 ? { verdict: 'PASS', evidence } : { verdict: 'PASS' };
  }

  /**
   * `causes`: what the failure states for the diagnoses (a record a valid callback left unapplied…).
   * A confirming receiver's FAIL is ERROR when the status answers came too late for it (the kit's
   * delay: lateStatusAnswer), unless it `stands` on the receiver's own act whatever the answer
   * (an outcome fulfilled or acknowledged without a confirmation).
   */
  fail(reasons: string | string[], extra?: Evidence, causes: readonly StatedCause[] = [], stands = false): ReasonedOutcome {
    const reason = Array.isArray(reasons) ? reasons.join('; ') : reasons;
    const late = stands ? undefined : this.lateStatusAnswer();
    if (late) return this.statusAnswerLate(late, reason, extra);
    return { verdict: 'FAIL', reason, evidence: this.evidence(extra), ...(causes.length > 0 ? { causes: [...new Set(causes)] } : {}) };
  }

  /**
   * A confirming receiver's callback whose status queries the harness's endpoint answered only
   * after the receiver had given up on them (harness/status lateForReceiver): the kit's delay.
   * Undefined when every callback's receiver had an answer in time, or asked nothing.
   */
  lateStatusAnswer(): string | undefined {
    if (!this.confirming) return undefined;
    for (const id of this.confirming.ids) {
      const reply = this.confirming.replies.get(id);
      const late = lateForReceiver(this.confirming.endpoint.queriesFor(id), reply);
      if (late) return lateAnswerWords(late, reply?.text ?? 'gave no reply');
    }
    return undefined;
  }

  /** ERROR for the kit's late status answer, what the case saw kept after it (never FAIL, never PASS). */
  statusAnswerLate(late: string, saw: string | undefined, extra?: Evidence): ReasonedOutcome {
    return { verdict: 'ERROR', reason: `${late}${saw ? ` (the case saw: ${saw})` : ''}`, evidence: this.evidence(extra), causes: ['status-answer-late'] };
  }

  /** A harness-side problem (the target hung, reset, answered garbage): ERROR with evidence. */
  error(message: string, stated?: Stated): CaseError {
    return new CaseError(message, this.evidence(), stated);
  }

  requireRecords(): RecordObserver {
    if (!this.records) throw this.error('this case needs to see the receiver\'s records (hooksUrl or observe)');
    return this.records;
  }

  /** Reads a record; a failure of the hooks, a statement or the command is this case's ERROR with its evidence. */
  async read(id: string): Promise<RecordReading | null> {
    const records = this.requireRecords();
    try {
      return await records.read(id);
    } catch (error) {
      throw this.observeFailure(error);
    }
  }

  /** Seeds a pending record. */
  async seedOnly(id: string): Promise<void> {
    const records = this.requireRecords();
    try {
      const steps = await records.seed(id, SEED_AMOUNT);
      if (steps.length > 0) this.readings.seeded = [...(this.readings.seeded ?? []), ...steps];
    } catch (error) {
      throw this.observeFailure(error);
    }
  }

  /** Seeds a pending record and keeps the reading as "before". */
  async seed(id: string): Promise<RecordReading> {
    await this.seedOnly(id);
    const reading = await this.read(id);
    if (!reading) throw this.error(`the receiver's records do not hold ${JSON.stringify(id)} right after seeding it (${this.readings.way})`);
    if (reading.state !== 'pending' || (reading.actions !== undefined && reading.actions !== 0)) {
      throw this.error(`a freshly seeded record reads ${describeReading(reading)}, DESIGN.md expects state pending${reading.actions !== undefined ? ', actions 0' : ''}`);
    }
    this.readings.before = reading;
    return reading;
  }

  /** An observer's failure as an ERROR carrying this case's evidence and what the observer saw. */
  private observeFailure(error: unknown): unknown {
    if (!(error instanceof ObserveError)) return error;
    const evidence = this.evidence({ exchanges: [...this.http.exchanges, ...(error.evidence?.exchanges ?? [])] });
    if (error.evidence?.records) evidence.records = { ...evidence.records, ...error.evidence.records };
    return new CaseError(error.message, evidence, error.stated);
  }

  /**
   * The record once the receiver has had time to act: when `expectChange`, polls until it is no
   * longer pending (up to the reply deadline, not counting time the readings waited for another
   * case's measurement to leave the wire), and keeps how long that took; then waits `quietMs`
   * more, so late actions (an asynchronous receiver) are seen too. Kept as "after".
   */
  async settledReading(id: string, expectChange: boolean): Promise<RecordReading | null> {
    if (expectChange) {
      const wire = this.ctx.wire;
      const started = performance.now() - wire.waitedMs();
      const until = started + this.target.timing.replyDeadlineMs;
      for (;;) {
        // From the start of the read that shows the change: a receiver that applied before it
        // answered shows it on the first read, 0 ms (the read's own time is the observer's).
        const readAt = performance.now() - wire.waitedMs();
        // A record read missing is polled on too: a receiver may rewrite it (delete, then insert).
        const r = await this.read(id);
        if (r && r.state !== 'pending') {
          this.ctx.resources.applyTimes.measured(this.target, readAt - started);
          break;
        }
        if (performance.now() - wire.waitedMs() > until) {
          this.ctx.resources.applyTimes.neverApplied(this.target);
          break;
        }
        await sleep(20, this.ctx.signal);
      }
    }
    const quiet = await this.quietMs();
    if (quiet > this.settleMs && !this.notes.some((n) => n.startsWith(QUIET_NOTE))) {
      this.notes.push(`${QUIET_NOTE} ${quiet} ms before the record was read: this receiver took up to ${Math.round(this.ctx.resources.applyTimes.longestOf(this.target))} ms in this run to apply a valid callback after answering it`);
    }
    await sleep(quiet, this.ctx.signal);
    // A status answer the endpoint still holds (a loaded machine's delay, not a case's script)
    // counts once ready: whether the receiver still waited for it decides who was late.
    if (this.confirming) await this.confirming.endpoint.settled(id);
    const reading = await this.read(id);
    this.readings.after = reading ?? '404 (no such record)';
    return reading;
  }

  /** Sends one callback. A transport failure throws an ERROR unless `tolerateFailure`. */
  async callback(params: CallbackParams, options?: CallbackOptions): Promise<HttpResult & { ok: true }>;
  async callback(params: CallbackParams, options: CallbackOptions, tolerateFailure: true): Promise<HttpResult>;
  async callback(params: CallbackParams, options: CallbackOptions = {}, tolerateFailure = false): Promise<HttpResult> {
    await this.tellStatusEndpoint(params);
    const base = options.callbackUrl ?? this.target.callbackUrl;
    const url = (options.omit ? composeWithout(base, params, options.omit) : composeCallbackUrl(base, params)) + (options.append ?? '');
    const result = await this.http.send({
      label: options.label ?? `callback ${params.status}`,
      url,
      headers: this.tokenHeaders(options.token ?? 'configured'),
    });
    if (result.retried) {
      this.notes.push(`answered 429 Too Many Requests (Retry-After: ${result.retried.retryAfter}); sent again once after waiting ${(result.retried.waitedMs / 1000).toFixed(1)} s`);
    }
    // A rate limit answered before the receiver's own code: it says nothing about the rule (a
    // token case would read it as "not 403", FAIL, for a receiver that never saw the callback).
    if (result.final429) throw this.error(rateLimitedReason('the receiver', result.final429, this.http.pace), { causes: ['rate-limited'] });
    if (!result.ok && !tolerateFailure) throw this.error(`the callback got no usable answer: ${result.failure.message}`);
    // When a confirming receiver's reply came: a status answer written after it came too late for it.
    if (result.ok && this.confirming) {
      this.confirming.replies.set(params.transaction_id, { at: performance.now(), acknowledged: isSuccess(result.answer.status), text: `answered its callback ${result.answer.status}` });
    }
    return result;
  }

  /**
   * A confirming target's status endpoint (harness/status): the case's scripts and the queries
   * its callbacks caused. A harness that could not serve it makes the case ERROR, naming why.
   */
  async statusEndpoint(): Promise<RunningStatusEndpoint> {
    const held = await this.ctx.resources.statusEndpoints.of(this.target);
    if (!held) throw this.error('the target file has no "confirms": the harness serves no status endpoint for it');
    if (!held.ok) throw this.error(held.reason);
    this.confirming ??= { endpoint: held.endpoint, ids: new Set(), replies: new Map() };
    return held.endpoint;
  }

  /** A confirming receiver may ask about this callback: the endpoint answers what it carried. */
  private async tellStatusEndpoint(params: CallbackParams): Promise<void> {
    if (!this.target.confirms) return;
    const endpoint = await this.statusEndpoint();
    endpoint.told(params.transaction_id, params.status);
    this.confirming!.ids.add(params.transaction_id);
  }

  private tokenHeaders(choice: TokenChoice): HeaderSpec[] {
    if (choice === 'none') return [];
    if (choice === 'configured') return this.target.callbackToken ? [tokenHeader(this.target.callbackToken, this.tokenEnv)] : [];
    this.notes.push(`X-Callback-Token sent: ${choice.describe}`);
    return choice.headers;
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}

type CallbackParamName = (typeof CALLBACK_PARAM_NAMES)[number];

/** The suite's composition with one parameter left out. */
function composeWithout(callbackUrl: string, params: CallbackParams, omit: CallbackParamName): string {
  const [base, fragment] = splitFragment(callbackUrl);
  const query = CALLBACK_PARAM_NAMES.filter((n) => n !== omit).map((n) => `${n}=${formEncode(params[n])}`).join('&');
  return base + separatorAfter(base) + query + fragment;
}

/** `state SUCCESS, actions 1`; the receiver's own value when it differs; no count when none is observed. */
export function describeReading(reading: RecordReading | null): string {
  return describeRecord(reading);
}

/** Applied exactly once, as far as the target lets the harness see: the state, and the count when it is observed. */
export function appliedOnce(reading: RecordReading | null, state: 'SUCCESS' | 'FAILED'): boolean {
  return reading !== null && reading.state === state && (reading.actions === undefined || reading.actions === 1);
}

/** Untouched: still pending, and nothing counted when the count is observed. */
export function untouched(reading: RecordReading | null): boolean {
  return reading !== null && reading.state === 'pending' && (reading.actions === undefined || reading.actions === 0);
}

/** What "applied once" is checked as: `state SUCCESS, actions 1`, or the state alone. */
export function expectedOnce(reading: RecordReading | null, state: string): string {
  return reading?.actions === undefined && reading !== null ? `state ${state}` : `state ${state}, actions 1`;
}

/** `400 {"error_code":"ERR_…"}`: the status and the start of the body, as observed; cut only once redacted. */
export function answerText(answer: { status: number; body: string }, redactor: Redactor): string {
  const body = redactor.clip(answer.body.replace(/\s+/g, ' ').trim(), 120);
  return body ? `${answer.status} ${body}` : String(answer.status);
}


/** Waits for `promise`, or rejects as soon as the case is aborted. */
function untilAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('the case was aborted'));
    const onAbort = () => reject(new Error('the case was aborted'));
    // A signal aborts once: the listener needs no removal after it ran.
    signal.addEventListener('abort', onAbort);
    void promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/** Waits `ms`, or rejects as soon as the case is aborted. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('the case was aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('the case was aborted'));
    };
    // A signal aborts once; the timer removes the listener when the wait ends first.
    signal.addEventListener('abort', onAbort);
  });
}

export interface ReceiverCaseData {
  id: string;
  title: string;
  specRef: string;
  level: Level;
  needs: readonly Capability[];
  /** See ConformanceCase.negative. */
  negative?: NegativeKind;
}

/** A receiver case: its data, and a check that gets a probe closed afterwards. */
export function receiverCase(
  data: ReceiverCaseData,
  check: (probe: ReceiverProbe) => Promise<CaseOutcome>,
): ConformanceCase<ResolvedReceiverTarget> {
  return {
    ...data,
    side: 'receiver',
    async run(ctx) {
      const probe = new ReceiverProbe(ctx);
      try {
        return await check(probe);
      } finally {
        await probe.close();
      }
    },
  };
}

export const SUCCESS_MESSAGE = 'Payment received';
export const FAILED_MESSAGE = 'Payment failed: insufficient funds';

/**
 * The common shape of a "valid callback is applied exactly once" check: seed, send, expect
 * every reply 2xx and the record in `state` with one action.
 */
export async function expectAppliedOnce(
  probe: ReceiverProbe,
  id: string,
  results: readonly HttpResult[],
  state: 'SUCCESS' | 'FAILED',
  rule = '§6 rule 2',
): Promise<CaseOutcome> {
  const problems: string[] = [];
  const statuses = results.map((r) => (r.ok ? answerText(r.answer, probe.ctx.redactor) : r.failure.message));
  const bad = results.filter((r) => !r.ok || !isSuccess(r.answer.status));
  if (bad.length > 0) {
    problems.push(results.length === 1
      ? `answered ${statuses[0]}, a valid callback must get 2xx (§4.3: any non-2xx causes a retry)`
      : `${bad.length} of ${results.length} replies were not 2xx (${statuses.join(', ')}); every valid callback must get 2xx (§4.3)`);
  }
  const after = await probe.settledReading(id, true);
  const causes: StatedCause[] = [];
  if (!appliedOnce(after, state)) {
    problems.push(`the record reads ${describeReading(after)}, expected ${expectedOnce(after, state)} (${rule}: applied exactly once)`);
    if (after?.state === 'pending') causes.push('not-applied');
  }
  return problems.length ? probe.fail(problems, undefined, causes) : probe.pass();
}
