// Shared helpers of the simulator suites: a recording callback listener, signed requests.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { signBody } from '../../harness/signing/index.ts';
import { startSimulator, type RunningSimulator, type SimulatorConfig, type LogSink } from '../../harness/simulator/index.ts';

export const CLIENT = { clientId: 2, clientKey: 'ck_test_client_key', secretKey: 'sk_test_secret_value' } as const;
export const TOKEN = 'cbt_test_callback_token';
export const OK_NUMBER = '0244000001';
export const FAILING_NUMBER = '0244000002';

/** A fast, scaled simulator: processing 1 s → 10 ms, back-off 1 s → 10 ms. */
export function testConfig(over: Partial<SimulatorConfig> = {}): Partial<SimulatorConfig> {
  return {
    clients: [{ ...CLIENT }],
    callbackToken: TOKEN,
    whitelist: { sources: ['127.0.0.1', '::1'], customerNumbers: [OK_NUMBER, FAILING_NUMBER] },
    processingDelayMs: 1000,
    retry: { attempts: 4, initialDelayMs: 1000, factor: 2 },
    timeScale: 0.01,
    callbackTimeoutMs: 2000,
    ...over,
  };
}

export async function withSimulator<T>(
  over: Partial<SimulatorConfig>, work: (sim: RunningSimulator, lines: string[]) => Promise<T>,
): Promise<T> {
  const lines: string[] = [];
  const log: LogSink = (line) => lines.push(line);
  const sim = await startSimulator(testConfig(over), {}, { log });
  try {
    return await work(sim, lines);
  } finally {
    await sim.close();
  }
}

let counter = 0;
export function newId(prefix = 'T'): string {
  counter++;
  return `${prefix}-${process.pid}-${counter}-${Date.now().toString(36)}`;
}

export function collectFields(callbackUrl: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transaction_id: newId(),
    amount: '10.00',
    client_id: CLIENT.clientId,
    customer_number: OK_NUMBER,
    network_code: 'MTN',
    callback_url: callbackUrl,
    ...over,
  };
}

export interface Answer {
  status: number;
  json: Record<string, unknown>;
  text: string;
}

export interface PostOptions {
  authorization?: string | null;
  contentType?: string | null;
  localAddress?: string;
  method?: string;
  secret?: string;
  clientKey?: string;
  dispatcher?: Agent;
  /** More request headers (lower-case names). */
  headers?: Record<string, string>;
}

const agents = new Map<string, Agent>();
function agentFor(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) agents.set(localAddress, (agent = new Agent({ localAddress })));
  return agent;
}

/** Sends `body` (raw text or bytes) signed with the canonical signer unless told otherwise. */
export async function post(baseUrl: string, path: string, body: string | Buffer, options: PostOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  if (options.authorization !== null) {
    headers['authorization'] = options.authorization
      ?? signBody(body.toString(), options.secret ?? CLIENT.secretKey, { clientKey: options.clientKey ?? CLIENT.clientKey }).authorization!;
  }
  const dispatcher = options.dispatcher ?? (options.localAddress ? agentFor(options.localAddress) : undefined);
  const response = await request(baseUrl + path, {
    method: (options.method ?? 'POST') as 'POST',
    headers,
    body,
    ...(dispatcher ? { dispatcher } : {}),
  });
  const text = await response.body.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = {};
  }
  return { status: response.statusCode, json, text };
}

export function collect(sim: RunningSimulator, fields: Record<string, unknown>, options: PostOptions = {}): Promise<Answer> {
  return post(sim.url, '/api/v1.0/collect/', JSON.stringify(fields), options);
}

export interface Delivery {
  at: number;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  query: URLSearchParams;
}

export interface CallbackListener {
  url: string;
  deliveries: Delivery[];
  waitFor(count: number, timeoutMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

/** Records every request; `answer(n)` (n = 1 for the first) gives the status to reply with. */
export async function startListener(
  options: { answer?: (n: number) => number; tls?: { key: string; cert: string } } = {},
): Promise<CallbackListener> {
  const deliveries: Delivery[] = [];
  const waiters: Array<() => void> = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const url = req.url ?? '/';
      deliveries.push({
        at: performance.now(), method: req.method ?? '?', url, headers: req.headers,
        query: new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : ''),
      });
      res.writeHead(options.answer?.(deliveries.length) ?? 200).end();
      for (const w of waiters.splice(0)) w();
    });
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    deliveries,
    async waitFor(count, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (deliveries.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} deliveries, saw ${deliveries.length} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => { clearTimeout(t); resolve(); });
        });
      }
      return deliveries;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
