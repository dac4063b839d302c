// A rate limiter in front of a target, as a vendor's sandbox behind Laravel's `throttle`
// middleware answers (Illuminate\Routing\Middleware\ThrottleRequests with RateLimiter::hit):
// a fixed window that opens at the first request and lasts `windowMs`; up to `limit` requests
// in it pass; the others are answered 429 with `Retry-After` (whole seconds until the window
// ends, never below 1), `X-RateLimit-Limit`, `X-RateLimit-Remaining: 0` and Laravel's body,
// and are not counted (a refused request is no hit). What passes is forwarded to `upstream`
// from the client's own source address (a transparent proxy, as the middleware runs inside the
// app and sees the caller's address), so the upstream's source whitelist still judges the caller.
// Every request's arrival time is kept, so a test measures the rate at the target.
import { createServer, request, Agent, type IncomingMessage, type RequestOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ThrottleOptions {
  /** Requests let through per window. */
  limit: number;
  /** Length of a window from its first request (Laravel: decay seconds). */
  windowMs: number;
}

export interface RunningThrottle {
  /** `http://127.0.0.1:PORT`: the throttled target's base URL. */
  origin: string;
  /** performance.now() of every request's arrival, in order, passed or refused. */
  readonly arrivals: number[];
  /** How many requests were answered 429. */
  readonly refused: number;
  close(): Promise<void>;
}

/** Passes a request on to `upstream` and its answer back, as a proxy in front of a target does (502 when the upstream fails). */
export function forwardTo(upstream: URL, req: IncomingMessage, res: ServerResponse, options: RequestOptions = {}): void {
  const upstreamRequest = request({ ...options, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstreamRequest.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end('{"message":"Bad Gateway"}');
  });
  req.pipe(upstreamRequest);
}

export async function startThrottle(upstream: string, options: ThrottleOptions): Promise<RunningThrottle> {
  const target = new URL(upstream);
  const arrivals: number[] = [];
  let refused = 0;
  let windowEnds = 0;
  let hits = 0;
  // One agent per source address: a pooled connection keeps the address it was opened from.
  const agents = new Map<string, Agent>();
  const agentFor = (address: string) => {
    let agent = agents.get(address);
    if (!agent) agents.set(address, agent = new Agent({ keepAlive: true }));
    return agent;
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const source = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    forwardTo(target, req, res, { localAddress: source, agent: agentFor(source) });
  };

  const server = createServer((req, res) => {
    const now = performance.now();
    arrivals.push(now);
    if (now >= windowEnds) {
      windowEnds = now + options.windowMs;
      hits = 0;
    }
    if (hits >= options.limit) {
      refused++;
      req.resume();
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': String(Math.max(1, Math.ceil((windowEnds - now) / 1000))),
        'x-ratelimit-limit': String(options.limit),
        'x-ratelimit-remaining': '0',
      }).end('{"message":"Too Many Attempts."}');
      return;
    }
    hits++;
    forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    get refused() {
      return refused;
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      for (const agent of agents.values()) agent.destroy();
    }),
  };
}

/** The most arrivals within any span of `spanMs` (a sliding window over sorted times). */
export function mostWithin(arrivals: readonly number[], spanMs: number): number {
  let most = 0;
  let first = 0;
  for (let last = 0; last < arrivals.length; last++) {
    while (arrivals[last]! - arrivals[first]! >= spanMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}
