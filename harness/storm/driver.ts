// The open-loop driver: each planned delivery goes out at its intended time whatever the earlier
// ones are doing (no coordinated omission), on one undici Agent with a connection cap. Each attempt
// is timed from its intended send: the wait inside the kit (intended → its request on the wire,
// the moment undici writes its headers, `onRequestStart`, the same moment as the
// `undici:client:sendHeaders` diagnostics channel) and the receiver's time on the wire (→ the
// reply's last byte). An attempt with no reply within `timeoutMs` is given up and counts as
// late with that time. The service's retries: a reply that is not 2xx within the deadline, or
// none, is sent again after an exponential back-off, or the reply's Retry-After, for at most
// `maxAttempts` attempts. Bad-token deliveries stand for forgeries, not the service: never retried.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { StallTimeline, type Stall } from './stalls.ts';
import { Agent, type Dispatcher } from 'undici';
import { composeCallbackUrl } from '../callback/index.ts';
import { AttemptLog, type AttemptFailure } from './log.ts';
import { isSuccess } from '../http/index.ts';
import type { PlannedDelivery, StormPlan, TokenKind } from './plan.ts';

export interface DriverOptions {
  plan: StormPlan;
  callbackUrl: string;
  /** The X-Callback-Token; absent: deliveries carry none (and the plan has no bad-token ids). */
  token?: string;
  replyDeadlineMs: number;
  /** An attempt with no reply by then is given up (default 2 × the deadline). */
  timeoutMs?: number;
  /** Attempts per delivery, the first included (default 5). */
  maxAttempts?: number;
  /** The first retry's back-off; each next one doubles (default 1000 ms). */
  backoffMs?: number;
  /** The longest wait before a retry, Retry-After included (default 60 s). */
  maxBackoffMs?: number;
  /** Multiplies every back-off and Retry-After (1: real seconds; tests scale down). */
  timeScale?: number;
  /** Connections to the receiver at most (default 256). */
  connections?: number;
  caCert?: string;
  /** Stops the storm: nothing more is sent, attempts under way are given up as `stopped`. */
  signal?: AbortSignal;
  onProgress?: (progress: DriveProgress) => void;
  /** How often onProgress is called (default 1000 ms). */
  progressEveryMs?: number;
}

export interface DriveProgress {
  elapsedMs: number;
  planned: number;
  sent: number;
  answered: number;
  /** Attempts with no reply (time-out, reset, refused). */
  errors: number;
  retries: number;
  /** p99 so far of the valid deliveries' times (intended send → last byte), ms (from a histogram: within 5 %). */
  p99Ms: number;
}

export interface DriveResult {
  log: AttemptLog;
  /** Wall-clock start (epoch ms) and the storm's length. */
  startedAt: number;
  durationMs: number;
  stopped: boolean;
  /** The driver's own event loop: how late its timers fired (p99 and max, ms). */
  loopDelay: { p99Ms: number; maxMs: number };
  /** When that loop stood still, on the log's clock (stalls.ts). */
  stalls: Stall[];
  settings: Required<Pick<DriverOptions, 'timeoutMs' | 'maxAttempts' | 'backoffMs' | 'maxBackoffMs' | 'timeScale' | 'connections'>>;
}

/** How early a timer may fire, as an attempt's limit is judged when it would be sent. */
const TIMER_SLACK_MS = 2;

/** A token presented wrongly, as a forger or a misconfigured sender would. */
export function tokenValue(kind: TokenKind, token: string): string | undefined {
  switch (kind) {
    case 'valid': return token;
    case 'missing': return undefined;
    case 'one-char-extra': return `${token}x`;
    case 'wrong': return token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a');
    case 'different-case': {
      const swapped = [...token].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
      return swapped === token ? `${token}X` : swapped;
    }
  }
}

/** A latency histogram in 5 % buckets, for the live p99. */
class LiveHistogram {
  private readonly counts = new Uint32Array(400);
  private total = 0;
  add(ms: number): void {
    const bucket = Math.min(this.counts.length - 1, Math.max(0, Math.floor(Math.log(Math.max(ms, 0.1) * 10) / Math.log(1.05))));
    this.counts[bucket]! += 1;
    this.total += 1;
  }
  quantile(q: number): number {
    if (this.total === 0) return Number.NaN;
    let seen = 0;
    for (let b = 0; b < this.counts.length; b++) {
      seen += this.counts[b]!;
      if (seen >= q * this.total) return 1.05 ** (b + 1) / 10;
    }
    return Number.NaN;
  }
}

function failureOf(error: unknown): AttemptFailure {
  const code = (error as { code?: string } | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'reset';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  return 'other';
}

function retryAfterSeconds(value: string | string[] | undefined): number {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return Number.NaN;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const at = Date.parse(text);
  return Number.isNaN(at) ? Number.NaN : Math.max(0, (at - Date.now()) / 1000);
}

/** The driver's settings, defaults filled in (the Artillery export retries with the same ones). */
export function driverSettings(options: Pick<DriverOptions, 'replyDeadlineMs' | 'timeoutMs' | 'maxAttempts' | 'backoffMs' | 'maxBackoffMs' | 'timeScale' | 'connections'>): DriveResult['settings'] {
  return {
    timeoutMs: options.timeoutMs ?? 2 * options.replyDeadlineMs,
    maxAttempts: options.maxAttempts ?? 5,
    backoffMs: options.backoffMs ?? 1000,
    maxBackoffMs: options.maxBackoffMs ?? 60_000,
    timeScale: options.timeScale ?? 1,
    connections: options.connections ?? 256,
  };
}

export async function drive(options: DriverOptions): Promise<DriveResult> {
  const { plan } = options;
  const settings = driverSettings(options);
  const agent = new Agent({
    connections: settings.connections,
    keepAliveTimeout: 10_000,
    ...(options.caCert ? { connect: { ca: options.caCert } } : {}),
  });
  const log = new AttemptLog(Math.ceil(plan.deliveries * 1.1) + 16);
  const live = new LiveHistogram();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();

  const t0 = performance.now();
  const startedAt = Date.now();
  const clock = () => performance.now() - t0;
  const stallTimeline = new StallTimeline(clock);
  let stalls: Stall[] = [];
  const counts = { sent: 0, answered: 0, errors: 0, retries: 0 };
  let inFlight = 0;
  /** Requests handed to undici and not finished (at most `connections`). */
  let onConnection = 0;
  /** Attempts waiting for a connection, in order; one given up meanwhile stays `over` until it reaches the head. */
  const waiting: Array<{ over: boolean; dispatch: () => void }> = [];
  const dropGivenUp = () => {
    while (waiting.length > 0 && waiting[0]!.over) waiting.shift();
  };
  const releaseConnection = () => {
    onConnection -= 1;
    // The first still waiting goes (one whose time ran out is given up on the way, and the next tried).
    while (onConnection < settings.connections) {
      dropGivenUp();
      const next = waiting.shift();
      if (!next) break;
      next.dispatch();
    }
  };
  const retryTimers = new Set<NodeJS.Timeout>();
  const underWay = new Map<number, () => void>();
  let stopped = options.signal?.aborted ?? false;
  let wake: (() => void) | undefined;
  let allDone: (() => void) | undefined;
  const finished = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  let planDone = false;
  const maybeDone = () => {
    if (planDone && inFlight === 0 && retryTimers.size === 0) allDone?.();
  };

  const onStop = () => {
    stopped = true;
    for (const timer of retryTimers) clearTimeout(timer);
    retryTimers.clear();
    for (const giveUp of [...underWay.values()]) giveUp();
    wake?.();
    maybeDone();
  };
  options.signal?.addEventListener('abort', onStop, { once: true });

  const send = (d: PlannedDelivery, attempt: number, intendedMs: number): void => {
    const token = options.token === undefined ? undefined : tokenValue(d.token, options.token);
    const row = log.start(d.index, d.copy, attempt, d.token, intendedMs, clock());
    counts.sent += 1;
    if (attempt > 1) counts.retries += 1;
    inFlight += 1;
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let retryAfter = Number.NaN;
    let handedOver = false;
    let released = false;
    const waiter = { over: false, dispatch: () => {} };
    /** The connection goes back once undici is done with the request (answered, failed or aborted), never before. */
    const release = () => {
      if (!handedOver || released) return;
      released = true;
      releaseConnection();
    };

    const finish = (failure?: AttemptFailure) => {
      if (waiter.over) return;
      waiter.over = true;
      clearTimeout(timer);
      underWay.delete(row);
      if (!handedOver) dropGivenUp();
      const now = clock();
      if (failure) {
        log.failed(row, failure === 'timeout' ? Math.min(now, intendedMs + settings.timeoutMs) : now, failure);
        counts.errors += 1;
      } else {
        log.answered(row, now, status, retryAfter);
        counts.answered += 1;
      }
      const totalMs = log.endAt(row) - intendedMs;
      if (d.token === 'valid') live.add(failure === 'stopped' ? 0 : totalMs);
      inFlight -= 1;
      const inTime = !failure && isSuccess(status) && totalMs <= options.replyDeadlineMs;
      if (!inTime && d.token === 'valid' && !stopped && attempt < settings.maxAttempts) {
        const backoff = Number.isNaN(retryAfter) ? settings.backoffMs * 2 ** (attempt - 1) : retryAfter * 1000;
        const delay = Math.min(settings.maxBackoffMs, backoff) * settings.timeScale;
        const due = clock() + delay;
        const retry = setTimeout(() => {
          retryTimers.delete(retry);
          send(d, attempt + 1, due);
        }, delay);
        retryTimers.add(retry);
      }
      maybeDone();
    };
    // Recorded first, then aborted: the abort's own error (reported at once) is then ignored.
    const timer = setTimeout(() => {
      finish('timeout');
      controller?.abort(new Error('timeout'));
    }, Math.max(1, intendedMs + settings.timeoutMs - clock()));
    underWay.set(row, () => {
      finish('stopped');
      controller?.abort(new Error('stopped'));
    });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        // Given up while undici connected: not sent (the abort ends it, and gives the connection back).
        if (waiter.over) c.abort(new Error('given up'));
        else log.onWire(row, clock());
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        status = statusCode;
        retryAfter = retryAfterSeconds(responseHeaders['retry-after']);
      },
      onResponseData() {},
      onResponseEnd() {
        finish();
        release();
      },
      onResponseError(_c, error) {
        finish(failureOf(error));
        release();
      },
    };
    waiter.dispatch = () => {
      // Its time ran out while it waited (its timer not yet run, or about to: timers fire up to a
      // millisecond early): given up here, never sent.
      if (clock() >= intendedMs + settings.timeoutMs - TIMER_SLACK_MS) {
        finish('timeout');
        return;
      }
      // Composed when it goes, so that an attempt waiting for a connection holds nothing but its row.
      const url = new URL(composeCallbackUrl(options.callbackUrl, { transaction_id: plan.idOf(d.index), status: plan.outcomeOf(d.index), message: plan.messageOf(d.index) }));
      const headers: Record<string, string> = token === undefined ? {} : { 'x-callback-token': token };
      onConnection += 1;
      handedOver = true;
      agent.dispatch({
        origin: url.origin, path: url.pathname + url.search, method: 'GET', headers,
        headersTimeout: settings.timeoutMs, bodyTimeout: settings.timeoutMs,
      }, handler);
    };
    // At most `connections` on the wire; the rest wait here, in order, the wait timed as the kit's.
    // (Not in undici's own queue: giving up a request queued there would cost a connection.)
    if (onConnection < settings.connections) waiter.dispatch();
    else waiting.push(waiter);
  };

  const progressTimer = options.onProgress
    ? setInterval(() => options.onProgress!({ elapsedMs: clock(), planned: plan.deliveries, ...counts, p99Ms: live.quantile(0.99) }), options.progressEveryMs ?? 1000)
    : undefined;

  try {
    const stream = plan.stream();
    let next = stream.next();
    let burst = 0;
    while (!next.done && !stopped) {
      const due = next.value.atMs - clock();
      if (due > 0.5) {
        burst = 0;
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.min(Math.max(1, due), 50));
        });
        continue;
      }
      send(next.value, 1, next.value.atMs);
      next = stream.next();
      // A long run of due deliveries (the driver behind, or at-once copies): let replies in.
      if (++burst % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    planDone = true;
    maybeDone();
    await finished;
  } finally {
    options.signal?.removeEventListener('abort', onStop);
    if (progressTimer) clearInterval(progressTimer);
    loop.disable();
    stalls = stallTimeline.stop();
    // A request still with undici (a receiver that never answers it) is not waited for past its limit.
    if (!stopped) await Promise.race([agent.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, settings.timeoutMs).unref())]);
    await agent.destroy().catch(() => {});
  }
  options.onProgress?.({ elapsedMs: clock(), planned: plan.deliveries, ...counts, p99Ms: live.quantile(0.99) });
  return {
    log,
    startedAt,
    durationMs: clock(),
    stopped,
    loopDelay: { p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 },
    stalls,
    settings,
  };
}
