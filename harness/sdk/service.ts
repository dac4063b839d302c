// The service end of a client run: the harness's reference service (harness/simulator) on
// loopback, behind a recorder that keeps every request an SDK sends as it arrived (method, raw
// target, headers, body bytes) and answers it as the case scripts: the reference service's own
// answer, a canned answer (a 4xx, a 2xx that says rejected, a 5xx), or none at all. One exchange
// at a time (`during`): the adapter handles one request at a time anyway, and a script applies
// to exactly the requests of its exchange.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { RunningSimulator } from '../simulator/index.ts';
import type { AdapterCredentials } from './protocol.ts';
import { listenOn, originOf } from '../tool/index.ts';
import { readBody } from '../http/index.ts';
import type { ServiceScript } from '../results/index.ts';

// The scripted answer is shown in a client case's evidence as it is: its shape is named there (harness/results).
export type { ServiceScript };

export interface ReceivedRequest {
  /** Milliseconds from the start of the exchange. */
  atMs: number;
  method: string;
  /** The request target as received (`/api/v1.0/collect/`, query included). */
  target: string;
  /** Header values by lower-case name, every occurrence kept. */
  headers: Record<string, string[]>;
  /** The headers as received: names in their own case, in order. */
  rawHeaders: Array<[name: string, value: string]>;
  /** The body bytes as received (up to MAX_BODY_BYTES). */
  body: Buffer;
  bodyTruncated: boolean;
  /** What the service answered; absent when it held the request (silent). */
  answer?: { status: number; contentType?: string; body: string; by: 'reference service' | 'script'; durationMs: number };
}

export interface SdkServiceOptions {
  credentials: AdapterCredentials;
  /** Sandbox numbers the reference service whitelists (the cases' customer numbers). */
  customerNumbers: string[];
  /** Scales the reference service's delays (processing, retries); default 0.01. */
  timeScale?: number;
}

export interface SdkService {
  /** The service root handed to the adapter: `http://127.0.0.1:PORT`. */
  baseUrl: string;
  /** Where the cases' callback URLs point: the reference service calls back here (answered 200, not judged). */
  callbackBase: string;
  /** Runs `body` with `script` in force and returns what arrived meanwhile; exchanges queue. */
  during<T>(script: ServiceScript, body: () => Promise<T>): Promise<{ value: T; received: ReceivedRequest[] }>;
  /** Requests that arrived outside any exchange (an SDK retrying after it answered), oldest first. */
  strays(): ReceivedRequest[];
  close(): Promise<void>;
}

export const MAX_BODY_BYTES = 1024 * 1024;
const CALLBACK_PREFIX = '/callbacks/';
/** Headers of one hop, not forwarded to the reference service (undici sets its own). */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'expect', 'upgrade', 'proxy-connection', 'te', 'trailer']);

interface Exchange {
  script: ServiceScript;
  startedAt: number;
  received: ReceivedRequest[];
  held: Set<ServerResponse>;
}

export async function startSdkService(options: SdkServiceOptions): Promise<SdkService> {
  const { clientId, clientKey, secretKey } = options.credentials;
  // Loaded here, not at start-up: a service or receiver run never starts it.
  const { startSimulator } = await import('../simulator/index.ts');
  const simulator: RunningSimulator = await startSimulator({
    mode: 'sandbox',
    clients: [{ clientId, clientKey, secretKey }],
    whitelist: { sources: ['127.0.0.1', '::1'], customerNumbers: [...options.customerNumbers] },
    processingDelayMs: 1000,
    retry: { attempts: 1, initialDelayMs: 1000, factor: 2 },
    timeScale: options.timeScale ?? 0.01,
    callbackTimeoutMs: 1000,
  });
  const agent = new Agent({ keepAliveTimeout: 1000 });
  let current: Exchange | undefined;
  const strays: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let queue: Promise<unknown> = Promise.resolve();

  const server = createServer((req, res) => {
    if ((req.url ?? '').startsWith(CALLBACK_PREFIX)) {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('the harness could not answer');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const exchange = current;
    const startedAt = exchange?.startedAt ?? performance.now();
    // Every byte drained, the first MAX_BODY_BYTES kept; a request cut short is not recorded (502).
    const read = await readBody(req, { limit: MAX_BODY_BYTES, drainCap: Infinity });
    if (read.kind !== 'ok' && read.kind !== 'too-large') throw new Error(`the request's body was not read whole (${read.kind})`);
    const [bytes, truncated] = read.kind === 'ok' ? [read.bytes, false] : [read.head, true];
    const received: ReceivedRequest = {
      atMs: Math.round(performance.now() - startedAt),
      method: req.method ?? '?',
      target: req.url ?? '/',
      headers: distinctHeaders(req),
      rawHeaders: pairsOf(req.rawHeaders),
      body: bytes,
      bodyTruncated: truncated,
    };
    (exchange ? exchange.received : strays).push(received);
    const script = exchange?.script ?? { kind: 'reference' };
    if (script.kind === 'silent') {
      exchange?.held.add(res);
      return;
    }
    const arrived = performance.now();
    const answer = script.kind === 'answer'
      ? { status: script.status, contentType: script.contentType, body: script.body, by: 'script' as const }
      : await forward(req, bytes);
    received.answer = { ...answer, durationMs: Math.round(performance.now() - arrived) };
    res.writeHead(answer.status, answer.contentType ? { 'content-type': answer.contentType } : {}).end(answer.body);
  }

  async function forward(req: IncomingMessage, body: Buffer): Promise<Omit<NonNullable<ReceivedRequest['answer']>, 'durationMs'>> {
    const headers = pairsOf(req.rawHeaders).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())).flat();
    const method = req.method ?? 'POST';
    const answer = await request(`${simulator.url}${req.url ?? '/'}`, {
      method: method as 'POST',
      headers,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
      dispatcher: agent,
    });
    const text = await answer.body.text();
    const type = answer.headers['content-type'];
    return { status: answer.statusCode, ...(typeof type === 'string' ? { contentType: type } : {}), body: text, by: 'reference service' };
  }

  const baseUrl = originOf(await listenOn(server, 0, '127.0.0.1'));

  return {
    baseUrl,
    callbackBase: `${baseUrl}${CALLBACK_PREFIX}`,
    async during(script, body) {
      const run = queue.then(async () => {
        const exchange: Exchange = { script, startedAt: performance.now(), received: [], held: new Set() };
        current = exchange;
        try {
          const value = await body();
          return { value, received: exchange.received };
        } finally {
          current = undefined;
          // A held request is let go with its exchange: the SDK sees its connection end.
          for (const res of exchange.held) res.socket?.destroy();
        }
      });
      queue = run.catch(() => {});
      return run;
    },
    strays: () => [...strays],
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      await agent.close();
      await simulator.close();
    },
  };
}

function pairsOf(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function distinctHeaders(req: IncomingMessage): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of pairsOf(req.rawHeaders)) (out[name.toLowerCase()] ??= []).push(value);
  return out;
}

