// The harness's signing client for the collect operation (§4.1): sends a prepared request from
// the default source or from the target's not-whitelisted source, over http or https, and
// returns the exchange (secrets redacted, with a curl line) and its judgement.
import { performance } from 'node:perf_hooks';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import type { Exchange } from '../results/index.ts';
import { Redactor } from '../secrets/index.ts';
import { OPEN_WIRE, retryLabel, sendThrottled, type FinalThrottle, type Wire } from '../wire/index.ts';
import { ClientError } from './errors.ts';
import { curlCommand, failureCodeOf, readCapped, truncationNote, type CurlSecret } from '../http/index.ts';
import { judgeAnswerWhy, parseJsonOrUndefined, type Judgement, type RejectionRule } from './judge.ts';
import { prepareCollect, type CollectCredentials, type CollectInput, type PreparedCollect } from './prepare.ts';

export type SourceRoute = { localAddress: string } | { proxy: string };
export type SourceName = 'default' | 'notWhitelisted';

export interface SendOptions {
  source?: SourceName;
  signal?: AbortSignal;
  label?: string;
  /** Headers added to the request (lower-case names), shown in its evidence and curl line. */
  headers?: Record<string, string>;
}

export interface CollectClientOptions extends CollectCredentials {
  baseUrl: string;
  /** PEM of a CA to trust for an https baseUrl. */
  caCert?: string;
  sources?: { notWhitelisted?: SourceRoute };
  /** Redacts what leaves the client; the credentials are always added to it. */
  redactor?: Redactor;
  /** Per-request limit (connect + headers + body). Default 10 s. */
  timeoutMs?: number;
  /** Environment variable names shown in curl lines instead of the secrets. */
  env?: { clientKey?: string; secretKey?: string };
  /** How a 2xx body says "rejected" (target key `rejection`); default DEFAULT_REJECTION. */
  rejection?: readonly RejectionRule[];
  /** A run's way onto the wire (a case's ctx.wire): each exchange holds it; default: no gate. */
  wire?: Wire;
}

/**
 * A request signed elsewhere, sent as a collect is (the same routes, limits, wire, pacing,
 * evidence): a status query of harness/status. `body` absent for a GET.
 */
export interface SignedRequest {
  method: 'POST' | 'GET';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What came back for any request the client sent. */
export interface SentAnswer {
  exchange: Exchange;
  judgement: Judgement;
  /** For a rejection candidate, what made it one as observed (`HTTP 403`, `HTTP 200 with error_code 410`). */
  rejectedBecause?: string;
  /** For a 2xx answer rejected by its body, the rule it met (`error_code 410`). */
  rejectedBy?: string;
  status?: number;
  bodyText?: string;
  json?: unknown;
  /** performance.now() when the request was sent. */
  sentAt: number;
  /**
   * Set when the harness's own route out failed (the local address cannot be bound, the proxy
   * cannot be reached): the request never reached the service, so its absence of an answer
   * says nothing about the service.
   */
  routeError?: string;
  /** The attempt answered 429 before this answer, its Retry-After waited out (harness/wire). */
  retried?: { exchange: Exchange; retryAfter: string; waitedMs: number };
  /** The answer is still 429: how (its ERROR's words: rateLimitedReason). */
  final429?: FinalThrottle;
}

export interface CollectAnswer extends SentAnswer {
  prepared: PreparedCollect;
}

const BODY_EXCERPT = 2000;
const DEFAULT_TIMEOUT_MS = 10_000;
export const COLLECT_PATH = '/api/v1.0/collect/';

export function collectUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ClientError('ERR_CLIENT_URL', `baseUrl is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '') + COLLECT_PATH;
}

export class CollectClient {
  readonly url: string;
  readonly redactor: Redactor;
  private readonly dispatchers = new Map<SourceName, Dispatcher>();
  private readonly curlSecrets: CurlSecret[];

  constructor(private readonly options: CollectClientOptions) {
    this.url = collectUrl(options.baseUrl);
    this.redactor = (options.redactor ?? new Redactor([])).with(options.clientKey, options.secretKey);
    this.curlSecrets = [
      { value: options.clientKey, envName: options.env?.clientKey ?? 'COLLECT_CLIENT_KEY' },
      { value: options.secretKey, envName: options.env?.secretKey ?? 'COLLECT_SECRET_KEY' },
    ];
  }

  /** Signs (and tampers) one request without sending it. */
  prepare(input: CollectInput): PreparedCollect {
    return prepareCollect(input, this.options);
  }

  route(source: SourceName): SourceRoute | undefined {
    if (source === 'default') return undefined;
    const route = this.options.sources?.notWhitelisted;
    if (!route) throw new ClientError('ERR_CLIENT_SOURCE', 'sources.notWhitelisted is not set in the target');
    return route;
  }

  private dispatcher(source: SourceName): Dispatcher {
    const existing = this.dispatchers.get(source);
    if (existing) return existing;
    const route = this.route(source);
    const timeout = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const connect = { ...(this.options.caCert ? { ca: this.options.caCert } : {}), timeout };
    let made: Dispatcher;
    if (route && 'proxy' in route) {
      made = new ProxyAgent({ uri: route.proxy, requestTls: connect, headersTimeout: timeout, bodyTimeout: timeout });
    } else {
      // localAddress is a top-level Agent option; inside `connect` it is silently ignored.
      made = new Agent({
        connect,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        ...(route ? { localAddress: route.localAddress } : {}),
      });
    }
    this.dispatchers.set(source, made);
    return made;
  }

  /** Prepares and sends one collect request. Never throws for network errors: see `judgement`. */
  async send(input: CollectInput, opts: SendOptions = {}): Promise<CollectAnswer> {
    const prepared = this.prepare(input);
    return this.sendPrepared(prepared, opts);
  }

  async sendPrepared(prepared: PreparedCollect, opts: SendOptions = {}): Promise<CollectAnswer> {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
    if (prepared.authorization !== undefined) headers['authorization'] = prepared.authorization;
    const { headers: _added, ...rest } = opts;
    const answer = await this.sendRequest({ method: 'POST', url: this.url, headers, body: prepared.sentBody }, rest);
    return { prepared, ...answer };
  }

  /** Sends a request signed elsewhere (headers as given, `opts.headers` added). Never throws for network errors. */
  async sendRequest(signed: SignedRequest, opts: SendOptions = {}): Promise<SentAnswer> {
    const source = opts.source ?? 'default';
    const route = this.route(source);
    const headers: Record<string, string> = { ...signed.headers, ...opts.headers };
    const request: SignedRequest = { ...signed, headers };
    const shown = {
      method: signed.method,
      url: this.redactor.text(signed.url),
      headers: this.redactor.value(headers),
      ...(signed.body !== undefined ? { body: this.redactor.text(signed.body) } : {}),
      ...(route && 'localAddress' in route ? { localAddress: route.localAddress } : {}),
    };
    const curl = this.redactor.text(curlCommand({
      method: signed.method,
      url: signed.url,
      headers,
      ...(signed.body !== undefined ? { body: signed.body } : {}),
      ...(route && 'localAddress' in route ? { localAddress: route.localAddress } : {}),
      ...(route && 'proxy' in route ? { proxy: route.proxy } : {}),
      ...(this.options.caCert ? { caFile: 'ca.pem' } : {}),
    }, this.curlSecrets));
    const wire = this.options.wire ?? OPEN_WIRE;
    const sent = await sendThrottled(wire, async (retry): Promise<SentAnswer> => {
      const label = retry ? retryLabel(opts.label) : opts.label;
      const exchange: Exchange = { ...(label ? { label } : {}), request: { ...shown }, curl };
      // The time limit starts once the exchange is on the wire, not while it waits at the gate.
      try {
        return await wire.exchange(() => this.onTheWire(request, exchange, source, route, opts.signal), { retry });
      } catch (error) {
        if (error instanceof ClientError) throw error;
        // The case stopped (time limit, the run gave up) while the exchange waited for the wire.
        exchange.error = this.redactor.text(`not sent: ${error instanceof Error ? error.message : String(error)}`);
        return { exchange, sentAt: performance.now(), judgement: 'no-answer' };
      }
    }, (a) => (a.status !== undefined ? { status: a.status, retryAfter: a.exchange.response?.headers?.['retry-after'] } : undefined));
    const { retried, final429 } = sent;
    return {
      ...sent.result,
      ...(retried ? { retried: { exchange: retried.first.exchange, retryAfter: retried.retryAfter, waitedMs: retried.waitedMs } } : {}),
      ...(final429 ? { final429 } : {}),
    };
  }

  private async onTheWire(
    signed: SignedRequest, exchange: Exchange, source: SourceName, route: SourceRoute | undefined, signal: AbortSignal | undefined,
  ): Promise<SentAnswer> {
    const sentAt = performance.now();
    // One limit for the whole exchange, body included: undici's own timeouts are idle times, so
    // an answer that drips one byte a second would never end.
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const limit = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(signed.url, {
        method: signed.method,
        headers: signed.headers,
        ...(signed.body !== undefined ? { body: Buffer.from(signed.body, 'utf8') } : {}),
        dispatcher: this.dispatcher(source),
        signal: signal ? AbortSignal.any([signal, limit]) : limit,
      });
      const { text: bodyText, truncated } = await readCapped(response.body);
      const durationMs = Math.round(performance.now() - sentAt);
      // Redacted whole before the cut: a secret cut in half would no longer be found.
      const excerpt = this.redactor.clip(bodyText, BODY_EXCERPT, '');
      exchange.response = {
        status: response.statusCode,
        headers: this.redactor.value(flattenHeaders(response.headers)),
        bodyExcerpt: truncated ? `${excerpt} ${truncationNote()}` : excerpt,
        ...(truncated ? { bodyTruncated: true } : {}),
        durationMs,
      };
      const judged = judgeAnswerWhy(response.statusCode, bodyText, this.options.rejection);
      return {
        exchange, sentAt, bodyText,
        status: response.statusCode,
        json: parseJsonOrUndefined(bodyText),
        judgement: judged.judgement,
        ...(judged.because ? { rejectedBecause: judged.because } : {}),
        ...(judged.rule ? { rejectedBy: judged.rule } : {}),
      };
    } catch (error) {
      if (error instanceof ClientError) throw error;
      const err = error as { code?: string; message?: string };
      exchange.error = limit.aborted
        ? `no complete answer within ${timeoutMs} ms`
        : this.redactor.text(`${err.code ?? 'ERROR'}: ${err.message ?? String(error)}`);
      exchange.failure = limit.aborted
        ? { code: 'timeout', message: exchange.error, limitMs: timeoutMs }
        : { code: failureCodeOf(error), message: exchange.error };
      const routeError = route ? routeFailure(route, error) : undefined;
      return { exchange, sentAt, judgement: 'no-answer', ...(routeError ? { routeError: this.redactor.text(routeError) } : {}) };
    }
  }

  async close(): Promise<void> {
    const all = [...this.dispatchers.values()];
    this.dispatchers.clear();
    await Promise.all(all.map((d) => d.close().catch(() => undefined)));
  }
}

interface NetError { code?: string; syscall?: string; cause?: unknown }

/**
 * Whether a send through a non-default route failed before reaching the service. A local
 * address fails at bind (EADDRNOTAVAIL: this machine has no such address). Through a proxy,
 * every TCP connection the client opens goes to the proxy, so a connect or lookup failure is the
 * proxy's; a proxy that reached out and was refused answers the tunnel with an error instead.
 */
export function routeFailure(route: SourceRoute, error: unknown): string | undefined {
  for (let e = error as NetError | undefined, depth = 0; e && depth < 3; e = e.cause as NetError | undefined, depth++) {
    if ('localAddress' in route) {
      if (e.syscall === 'bind' || e.code === 'EADDRNOTAVAIL') {
        return `the local address ${route.localAddress} (sources.notWhitelisted.localAddress) cannot be used on this machine (${e.code ?? e.syscall})`;
      }
    } else if (e.syscall === 'connect' || e.syscall === 'getaddrinfo' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
      return `the proxy ${route.proxy} (sources.notWhitelisted.proxy) cannot be reached (${e.code ?? e.syscall})`;
    }
  }
  return undefined;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = v;
  return out;
}
