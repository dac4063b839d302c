// The harness's HTTP client (cases, the target watch): every request has a time limit and leaves
// an Exchange (token variants described rather than shown) with a curl line. What a target
// answers is redacted as it is read, before anything can cut it (an excerpt, a reason quoting the
// body): a secret cut in half would no longer be found, and its first characters would show.
import { Agent, request, type Dispatcher } from 'undici';
import type { Exchange, ExchangeFailure } from '../results/index.ts';
import { describeError, failureCodeOf } from './failure.ts';
import { readCapped, truncationNote } from './read.ts';
import { curlCommand } from './curl.ts';
import { REDACTED, Redactor } from '../secrets/index.ts';
import { OPEN_WIRE, retryLabel, sendThrottled, type FinalThrottle, type Wire } from '../wire/index.ts';

/** One header line. `shown` replaces the value in evidence; `shell` is its curl word. */
export interface HeaderSpec {
  name: string;
  value: string;
  shown?: string;
  /** A complete shell word for `-H`, e.g. `"X-Callback-Token: $COLLECT_CALLBACK_TOKEN"`. */
  shell?: string;
}

export interface HttpCall {
  label?: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  url: string;
  headers?: readonly HeaderSpec[];
  body?: string;
  /** Overrides the context's per-request limit. */
  timeoutMs?: number;
}

export interface HttpAnswer {
  status: number;
  /** Redacted (HttpClientOptions.redactor and the values this request sent but does not show). */
  headers: Record<string, string | string[]>;
  /** At most ANSWER_READ_LIMIT bytes of it, redacted as the headers are. */
  body: string;
  bodyTruncated: boolean;
  /** From sending to the last byte of the answer (a reply is not given until it is complete). */
  durationMs: number;
}

/** A 429 on the way (harness/wire: its Retry-After waited out, sent once more). */
export interface Throttling {
  /** The attempt answered 429 before this answer (its exchange is recorded too). */
  retried?: { exchange: Exchange; retryAfter: string; waitedMs: number };
  /** The answer is still 429: how (its ERROR's words: rateLimitedReason). */
  final429?: FinalThrottle;
}

export type HttpResult = (
  | { ok: true; exchange: Exchange; answer: HttpAnswer }
  | { ok: false; exchange: Exchange; failure: ExchangeFailure; durationMs: number }
) & Throttling;

const BODY_EXCERPT_CHARS = 500;
export const TOKEN_HEADER = 'X-Callback-Token';

/** Where curl lines take the token from, unless the target file names another variable. */
export const DEFAULT_TOKEN_ENV = 'COLLECT_CALLBACK_TOKEN';

/** The token header as sent for real, shown redacted and as `$COLLECT_CALLBACK_TOKEN` in curl. */
export function tokenHeader(token: string, envName = DEFAULT_TOKEN_ENV): HeaderSpec {
  return { name: TOKEN_HEADER, value: token, shown: REDACTED, shell: `"${TOKEN_HEADER}: $${envName}"` };
}

export interface HttpClientOptions {
  requestTimeoutMs: number;
  signal?: AbortSignal;
  /** PEM CA to trust (target `ca`). */
  caCert?: string;
  /** The case's way onto the wire (ctx.wire): each exchange holds it; default: no gate. */
  wire?: Wire;
  /** The run's secrets (ctx.redactor): answers are redacted with it as they are read. */
  redactor?: Redactor;
}

const NO_SECRETS = new Redactor([]);

export class HttpClient {
  /** Every exchange made through this client, in order. */
  readonly exchanges: Exchange[] = [];
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: HttpClientOptions) {
    this.dispatcher = new Agent({
      ...(options.caCert ? { connect: { ca: options.caCert } } : {}),
      keepAliveTimeout: 1000,
    });
  }

  /** The pace of the target's requests, for messages (`5/s`, `unpaced`). */
  get pace(): string {
    return (this.options.wire ?? OPEN_WIRE).pace;
  }

  async send(call: HttpCall, record = true): Promise<HttpResult> {
    const timeoutMs = call.timeoutMs ?? this.options.requestTimeoutMs;
    const method = call.method ?? 'GET';
    const shownHeaders: Record<string, string | string[]> = {};
    const rawHeaders: string[] = [];
    // Values sent but not shown (the token and its near misses): a receiver that echoes what it
    // got must not bring them into the evidence either. The run's Redactor knows only the token
    // itself, not "the token minus its last character" or "the token in swapped case".
    const hidden: string[] = [];
    for (const h of call.headers ?? []) {
      const shown = h.shown ?? (h.name.toLowerCase() === TOKEN_HEADER.toLowerCase() ? REDACTED : h.value);
      if (shown !== h.value) hidden.push(h.value, h.value.trim());
      // Shown under the name as sent (a case about the name's letter case shows it); a name sent
      // again, in any letter case, joins the first.
      const key = Object.keys(shownHeaders).find((k) => k.toLowerCase() === h.name.toLowerCase()) ?? h.name;
      const prior = shownHeaders[key];
      shownHeaders[key] = prior === undefined ? shown : [...(Array.isArray(prior) ? prior : [prior]), shown];
      rawHeaders.push(h.name, h.value);
    }
    const curl = curlCommand({ ...call, timeoutMs });
    const wire = this.options.wire ?? OPEN_WIRE;
    const sent = await sendThrottled(wire, async (retry): Promise<HttpResult> => {
      const label = retry ? retryLabel(call.label) : call.label;
      const exchange: Exchange = {
        ...(label ? { label } : {}),
        request: { method, url: call.url, headers: shownHeaders, ...(call.body !== undefined ? { body: call.body } : {}) },
        curl,
      };
      if (record) this.exchanges.push(exchange);
      // The time limit starts once the exchange is on the wire, not while it waits at the gate.
      try {
        return await wire.exchange(() => this.onTheWire(call, rawHeaders, timeoutMs, exchange, hidden), { retry });
      } catch (error) {
        // The case stopped (time limit, the run gave up) while the exchange waited for the wire.
        const failure: ExchangeFailure = { code: 'not-sent', message: `not sent: ${error instanceof Error ? error.message : String(error)}` };
        exchange.error = failure.message;
        exchange.failure = failure;
        return { ok: false, exchange, failure, durationMs: 0 };
      }
    }, (r) => (r.ok ? { status: r.answer.status, retryAfter: r.answer.headers['retry-after'] } : undefined));
    const { retried, final429 } = sent;
    return {
      ...sent.result,
      ...(retried ? { retried: { exchange: retried.first.exchange, retryAfter: retried.retryAfter, waitedMs: retried.waitedMs } } : {}),
      ...(final429 ? { final429 } : {}),
    };
  }

  private async onTheWire(call: HttpCall, rawHeaders: string[], timeoutMs: number, exchange: Exchange, hidden: string[]): Promise<HttpResult> {
    const method = call.method ?? 'GET';
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
    const started = performance.now();
    try {
      const answer = await request(call.url, {
        method,
        headers: rawHeaders,
        ...(call.body !== undefined ? { body: call.body } : {}),
        dispatcher: this.dispatcher,
        // The one time limit: undici's own header and body timeouts (300 s) never come first.
        signal,
      });
      // The request's signal (time limit included) still runs while the body is read, so a
      // reply that drips in is cut at the limit like one that never starts.
      const { text: body, truncated } = await readCapped(answer.body);
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const raw: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined) raw[k] = v;
      const run = this.options.redactor ?? NO_SECRETS;
      const echo = hidden.length > 0 ? run.with(...hidden) : run;
      const headers = echo.value(raw);
      const redacted = echo.text(body);
      const excerpt = echo.clip(redacted, BODY_EXCERPT_CHARS, '');
      exchange.response = {
        status: answer.statusCode,
        headers,
        bodyExcerpt: truncated ? `${excerpt} ${truncationNote()}` : excerpt,
        ...(truncated ? { bodyTruncated: true } : {}),
        durationMs,
      };
      return { ok: true, exchange, answer: { status: answer.statusCode, headers, body: redacted, bodyTruncated: truncated, durationMs } };
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      const failure: ExchangeFailure = timeout.aborted
        ? { code: 'timeout', message: `no answer within ${timeoutMs} ms`, limitMs: timeoutMs }
        : { code: failureCodeOf(error), message: describeError(error) };
      exchange.error = failure.message;
      exchange.failure = failure;
      return { ok: false, exchange, failure, durationMs };
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.destroy();
  }
}
