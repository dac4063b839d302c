// What every service case does: sign and send collect requests with callback URLs that route to
// the case, watch the listener, and gather the evidence a verdict must carry (requests sent
// without secrets, answers, deliveries with their times).
import { performance } from 'node:perf_hooks';
import {
  CollectClient, type CollectAnswer, type CollectFields, type CollectInput, type SendOptions, type SentAnswer, type SignedRequest,
} from '../../client/index.ts';
import { toDelivery, type DeliveryFilter, type ListenerDelivery, type RunningListener } from '../../listener/index.ts';
import type { Evidence, Exchange, StatedCause } from '../../results/index.ts';
import { secretEnvName, type ResolvedServiceTarget } from '../../targets/index.ts';
import { rateLimitedReason } from '../../wire/index.ts';
import { CaseError } from '../model.ts';
import type { CaseContext, CaseOutcome, ReasonedOutcome } from '../model.ts';

export type ServiceContext = CaseContext<ResolvedServiceTarget>;

/** The amount of every collect request the cases make: small, two decimals, as a string (§2.1). */
export const CASE_AMOUNT = '1.00';

/** Every request a case sends says what it is: its exchange is shown under that label in the evidence. */
export type CaseSendOptions = Omit<SendOptions, 'signal' | 'label'> & { label: string };

export class ServiceSession {
  readonly exchanges: Exchange[] = [];
  readonly notes: string[] = [];
  /** performance.now() of the case's first request: deliveries are timed from it. */
  t0: number | undefined;
  /** Tags this case routed callbacks to; deliveries() looks at them. */
  readonly tags = new Set<string>();

  private constructor(
    readonly ctx: ServiceContext,
    readonly listener: RunningListener,
    readonly client: CollectClient,
  ) {}

  static async open(ctx: ServiceContext): Promise<ServiceSession> {
    const listener = await ctx.resources.listeners.of(ctx.target);
    const t = ctx.target;
    const client = new CollectClient({
      baseUrl: t.baseUrl,
      clientKey: t.clientKey,
      secretKey: t.secretKey,
      redactor: ctx.redactor,
      timeoutMs: ctx.requestTimeoutMs,
      ...(t.caCert ? { caCert: t.caCert } : {}),
      ...(t.sources ? { sources: t.sources } : {}),
      ...(t.rejection ? { rejection: t.rejection } : {}),
      // curl lines read the credentials from the variables the target file names.
      env: { clientKey: secretEnvName(t, 'clientKey') ?? 'COLLECT_CLIENT_KEY', secretKey: secretEnvName(t, 'secretKey') ?? 'COLLECT_SECRET_KEY' },
      wire: ctx.wire,
    });
    return new ServiceSession(ctx, listener, client);
  }

  /** Runs `body` with an open session and always closes it. */
  static async with(ctx: ServiceContext, body: (s: ServiceSession) => Promise<CaseOutcome>): Promise<CaseOutcome> {
    const session = await ServiceSession.open(ctx);
    try {
      return await body(session);
    } finally {
      await session.close();
    }
  }

  get target(): ResolvedServiceTarget {
    return this.ctx.target;
  }

  /** A fresh tag (unique per run, URL-safe, whatever the target's id shape) whose callback URL routes to this case. */
  newTag(): string {
    const tag = this.ctx.newTag();
    this.tags.add(tag);
    return tag;
  }

  callbackUrl(tag: string, options: { query?: string; plain?: boolean } = {}): string {
    this.tags.add(tag);
    return this.listener.callbackUrl(tag, options);
  }

  /** A whitelisted number whose transactions end SUCCESS (not listed as failing). */
  successNumber(): string {
    const { whitelisted, failing } = this.target.customerNumbers;
    const number = whitelisted.find((n) => !failing?.includes(n)) ?? whitelisted[0];
    if (number === undefined) throw new CaseError('the target file lists no customerNumbers.whitelisted');
    return number;
  }

  /** The six fields with a fresh transaction id and a callback URL routed to a fresh tag. */
  fields(overrides: Partial<CollectFields> & { tag?: string; query?: string } = {}): CollectFields & { tag: string } {
    const { tag: givenTag, query, ...rest } = overrides;
    const tag = givenTag ?? this.newTag();
    return {
      amount: CASE_AMOUNT,
      callback_url: this.callbackUrl(tag, query !== undefined ? { query } : {}),
      client_id: this.target.clientId,
      customer_number: this.successNumber(),
      network_code: this.target.networkCode,
      transaction_id: this.ctx.newTransactionId(),
      ...rest,
      tag,
    };
  }

  async send(input: CollectInput, options: CaseSendOptions): Promise<CollectAnswer> {
    const { tag: _tag, ...fields } = input.fields as CollectFields & { tag?: string };
    return this.took(await this.client.send({ ...input, fields }, { ...options, signal: this.ctx.signal }));
  }

  /** Sends a request signed elsewhere (a status query of harness/status), kept in the evidence like a collect. */
  async sendSigned(signed: SignedRequest, options: CaseSendOptions): Promise<SentAnswer> {
    return this.took(await this.client.sendRequest(signed, { ...options, signal: this.ctx.signal }));
  }

  private took<A extends SentAnswer>(answer: A): A {
    // When it went on the wire (a wait at the gate before it is not the target's time).
    this.t0 = Math.min(this.t0 ?? answer.sentAt, answer.sentAt);
    if (answer.retried) {
      this.exchanges.push(answer.retried.exchange);
      this.note(`answered 429 Too Many Requests (Retry-After: ${answer.retried.retryAfter}); sent again once after waiting ${(answer.retried.waitedMs / 1000).toFixed(1)} s`);
    }
    this.exchanges.push(answer.exchange);
    // A rate limit is neither an acceptance nor a rejection of what the case sent: counted as a
    // rejection it would PASS a negative case whose rule was never exercised.
    if (answer.final429) throw new CaseError(rateLimitedReason('the service', answer.final429, this.ctx.wire.pace), this.evidence(), { causes: ['rate-limited'] });
    return answer;
  }

  /** `what` (a request) got no answer: it says nothing about the rule, so the case is ERROR with its evidence. */
  unanswered(what: string, answer: SentAnswer): CaseError {
    return new CaseError(`${what} got no answer: ${failureOf(answer)}`, this.evidence());
  }

  /** Sends and throws (ERROR) when nothing answered: the case cannot judge a request that got no answer. */
  async sendAnswered(input: CollectInput, options: CaseSendOptions): Promise<CollectAnswer> {
    const answer = await this.send(input, options);
    if (answer.judgement === 'no-answer') {
      throw this.unanswered('the collect request', answer);
    }
    return answer;
  }

  /** Deliveries seen so far for this case (its tags), optionally narrowed. */
  deliveries(filter: Omit<DeliveryFilter, 'tag'> & { tag?: string } = {}): ListenerDelivery[] {
    // A tag asked for is one of the case's own ('' is never a tag).
    return this.listener.deliveries(filter).filter((d) => this.tags.has(d.tag ?? ''));
  }

  async waitFor(filter: DeliveryFilter, options: { count?: number; timeoutMs: number; settleMs?: number }): Promise<ListenerDelivery[]> {
    return this.listener.waitFor(filter, { ...options, signal: this.ctx.signal });
  }

  note(line: string): void {
    this.notes.push(line);
  }

  evidence(extra: Evidence = {}): Evidence {
    const t0 = this.t0 ?? performance.now();
    const seen = this.deliveries();
    const evidence: Evidence = {
      exchanges: [...this.exchanges],
      ...(seen.length > 0 ? { deliveries: seen.map((d) => toDelivery(d, t0, this.ctx.redactor)) } : {}),
      ...extra,
    };
    const notes = [...this.notes, ...(extra.notes ?? [])];
    if (notes.length > 0) evidence.notes = notes;
    return this.ctx.redactor.value(evidence);
  }

  pass(extra?: Evidence): CaseOutcome {
    return { verdict: 'PASS', evidence: this.evidence(extra) };
  }

  /** `causes`: what the failure states for the diagnoses (a rejection in a shape not read, no callback…). */
  fail(reason: string, extra?: Evidence, causes: readonly StatedCause[] = []): ReasonedOutcome {
    return { verdict: 'FAIL', reason, evidence: this.evidence(extra), ...(causes.length > 0 ? { causes } : {}) };
  }

  warn(reason: string, extra?: Evidence): ReasonedOutcome {
    return { verdict: 'WARN', reason, evidence: this.evidence(extra) };
  }

  /** With `extra`, the SKIP keeps what was observed (a schedule that could not be judged). */
  skip(reason: string, extra?: Evidence): ReasonedOutcome {
    return extra ? { verdict: 'SKIP', reason, evidence: this.evidence(extra) } : { verdict: 'SKIP', reason };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Why nothing answered, as the exchange recorded it (a bare "error" when it recorded nothing). */
export function failureOf(answer: { exchange: { error?: string } }): string {
  return answer.exchange.error ?? 'error';
}

export function describeAnswer(answer: SentAnswer): string {
  if (answer.judgement === 'no-answer') return `no answer (${failureOf(answer)})`;
  const excerpt = (answer.exchange.response?.bodyExcerpt ?? '').slice(0, 120);
  return `HTTP ${answer.status}${excerpt ? ` ${excerpt}` : ''}`;
}
