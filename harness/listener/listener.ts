// The harness's callback listener (DESIGN.md "Driving targets", service side): records every
// delivery with its arrival time, method, raw URL and headers, keyed by transaction_id and by
// the case tag in its path, and answers each transaction as its case scripted
// (e.g. [500, 500, 500, 200]; 200 by default).
import { EventEmitter } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { performance } from 'node:perf_hooks';
import { parseCallbackQuery } from '../callback/index.ts';
import { matches, type DeliveryFilter, type ListenerDelivery } from './delivery.ts';
import { listenerTls } from './tls.ts';
import { listenOn } from '../tool/index.ts';

export interface ListenerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Where the service reaches the listener (a tunnel); null/absent: as bound. */
  publicUrl?: string | null;
  /** Serve https with a certificate from a CA the listener generates. */
  tls?: boolean;
  /** Also open a plain-http listener (production mode: nothing may arrive there). */
  plain?: boolean;
  /** Where the service reaches the plain listener; null/absent: as bound on `host`, another port. */
  plainPublicUrl?: string | null;
}

export interface WaitOptions {
  /** Resolve once this many matching deliveries arrived (default 1). */
  count?: number;
  /** Give up waiting after this long and resolve with what arrived. */
  timeoutMs: number;
  /** After `count` arrived, keep collecting this long (duplicates, late retries). */
  settleMs?: number;
  signal?: AbortSignal;
}

export interface RunningListener {
  /** Base URL the service is given (no trailing slash). */
  publicUrl: string;
  /** Base URL of the plain-http listener, when opened. */
  plainPublicUrl?: string;
  /** PEM of the CA that signed the listener's certificate (https only). */
  caCert?: string;
  overHttps: boolean;
  /** `{publicUrl}/cb/<tag>` plus `query` (without `?`) when given. */
  callbackUrl(tag: string, options?: { query?: string; plain?: boolean }): string;
  /** Answers for the deliveries of a transaction id (or a tag), in order; after the list, 200. */
  script(key: { transactionId: string } | { tag: string }, statuses: readonly number[]): void;
  deliveries(filter?: DeliveryFilter): ListenerDelivery[];
  /**
   * TLS handshakes that failed before any request (https only), as OpenSSL worded them: a
   * service that does not trust the listener's certificate ends each delivery here
   * (`tlsv1 alert unknown ca`), where no delivery is recorded.
   */
  tlsFailures(): readonly string[];
  waitFor(filter: DeliveryFilter, options: WaitOptions): Promise<ListenerDelivery[]>;
  close(): Promise<void>;
}

/** Failed TLS handshakes kept (enough to name the cause; a storm of them stays bounded). */
export const MAX_TLS_FAILURES = 100;

const TAG = /\/cb\/([^/?#]+)/;
export const SAFE_TAG = /^[A-Za-z0-9._~-]+$/;
/** Deliveries kept per case tag (and for deliveries without a tag). */
export const MAX_DELIVERIES_PER_TAG = 1000;

export async function startListener(options: ListenerOptions = {}): Promise<RunningListener> {
  const host = options.host ?? '127.0.0.1';
  const tls = options.tls ? await listenerTls() : undefined;
  const recorded: ListenerDelivery[] = [];
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const scripts = new Map<string, { statuses: readonly number[]; used: number }>();
  const perTag = new Map<string, number>();
  let seq = 0;

  const handler = (server: 'main' | 'plain', overHttps: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    const receivedAt = performance.now();
    const rawUrl = req.url ?? '';
    const tag = TAG.exec(rawUrl.split('?')[0] ?? '')?.[1];
    const transactionId = parseCallbackQuery(rawUrl).transaction_id;
    const script = (transactionId !== undefined ? scripts.get(`id:${transactionId}`) : undefined)
      ?? (tag !== undefined ? scripts.get(`tag:${tag}`) : undefined);
    const status = script ? (script.statuses[script.used++] ?? 200) : 200;
    const delivery: ListenerDelivery = {
      seq: ++seq,
      receivedAt,
      method: req.method ?? '',
      rawUrl,
      headers: headersOf(req),
      answeredStatus: status,
      overHttps,
      server,
      ...(tag !== undefined ? { tag } : {}),
      ...(transactionId !== undefined ? { transactionId } : {}),
    };
    // A service in a retry storm (or a hostile one) may deliver without end: each tag keeps its
    // first MAX_DELIVERIES_PER_TAG, enough for every judgement (once, duplicates, back-off),
    // so the run's memory stays bounded. Later ones are still answered and still wake waiters.
    const key = tag ?? '';
    const count = perTag.get(key) ?? 0;
    perTag.set(key, count + 1);
    if (count < MAX_DELIVERIES_PER_TAG) recorded.push(delivery);
    // Drain any body (a faulty service may POST) before answering.
    req.resume();
    req.on('end', () => {
      // 204 and 304 have no content (RFC 9110 §15.3.5, §15.4.5): header section only.
      if (status === 204 || status === 304) res.writeHead(status, { connection: 'close' }).end();
      else res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' }).end(status < 300 ? 'ok' : 'scripted failure');
    });
    events.emit('delivery', delivery);
  };

  const main: Server = tls
    ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler('main', true))
    : createHttpServer(handler('main', false));
  const tlsFailures: string[] = [];
  main.on('tlsClientError', (error: Error) => {
    if (tlsFailures.length < MAX_TLS_FAILURES) tlsFailures.push(error.message);
  });
  const servers: Server[] = [main];
  const mainPort = await listen(main, host, options.port ?? 0);
  let plainPort: number | undefined;
  if (options.plain) {
    const plain = createHttpServer(handler('plain', false));
    servers.push(plain);
    plainPort = await listen(plain, host, 0);
  }

  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  const publicUrl = trimSlash(options.publicUrl ?? `${tls ? 'https' : 'http'}://${hostInUrl}:${mainPort}`);
  const plainPublicUrl = plainPort === undefined ? undefined : trimSlash(options.plainPublicUrl ?? `http://${hostInUrl}:${plainPort}`);

  const deliveries = (filter: DeliveryFilter = {}) => recorded.filter((d) => matches(d, filter));

  return {
    publicUrl,
    overHttps: tls !== undefined,
    ...(plainPublicUrl !== undefined ? { plainPublicUrl } : {}),
    ...(tls ? { caCert: tls.caCert } : {}),
    callbackUrl(tag, opts = {}) {
      if (!SAFE_TAG.test(tag)) throw Object.assign(new Error(`listener tag must match ${SAFE_TAG}: ${JSON.stringify(tag)}`), { code: 'ERR_LISTENER_TAG' });
      const base = opts.plain ? plainPublicUrl : publicUrl;
      if (base === undefined) throw Object.assign(new Error('the plain-http listener is not open'), { code: 'ERR_LISTENER_PLAIN' });
      return `${base}/cb/${tag}${opts.query !== undefined ? `?${opts.query}` : ''}`;
    },
    script(key, statuses) {
      scripts.set('transactionId' in key ? `id:${key.transactionId}` : `tag:${key.tag}`, { statuses: [...statuses], used: 0 });
    },
    deliveries,
    tlsFailures: () => tlsFailures,
    waitFor(filter, opts) {
      const count = opts.count ?? 1;
      const settleMs = opts.settleMs ?? 0;
      return new Promise((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        let settling = false;
        const finish = () => {
          clearTimeout(timer);
          events.off('delivery', onDelivery);
          opts.signal?.removeEventListener('abort', finish);
          resolve(deliveries(filter));
        };
        const check = () => {
          if (settling || deliveries(filter).length < count) return;
          settling = true;
          clearTimeout(timer);
          timer = setTimeout(finish, settleMs);
        };
        const onDelivery = (d: ListenerDelivery) => { if (matches(d, filter)) check(); };
        events.on('delivery', onDelivery);
        opts.signal?.addEventListener('abort', finish, { once: true });
        timer = setTimeout(finish, opts.timeoutMs);
        check();
        if (opts.signal?.aborted) finish();
      });
    },
    async close() {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      })));
    },
  };
}

async function listen(server: Server, host: string, port: number): Promise<number> {
  return (await listenOn(server, port, host)).port;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function headersOf(req: IncomingMessage): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (values === undefined) continue;
    out[name] = values.length === 1 ? values[0]! : values;
  }
  return out;
}
