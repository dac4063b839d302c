// Shared by the receiver suites: scaled receivers that close after the file, and small
// clients for the callback endpoint and the hooks (undici, or a raw socket when the bytes
// on the wire matter: repeated headers, non-ASCII header bytes, odd request lines).
import { connect } from 'node:net';
import { afterAll } from 'vitest';
import { request } from 'undici';
import { composeCallbackUrl, type CallbackParams } from '../../harness/callback/index.ts';
import { startReceiver, type ReceiverConfigInput, type RunningReceiver } from '../../harness/receiver/index.ts';

/** Has lower- and upper-case letters, so case-folding faults show. */
export const TOKEN = 'cb-Token-7f3a9Q';
/** Tests run at 1/100 of real time: workMs 5000 is 50 ms of work. */
export const TIME_SCALE = 0.01;

export interface TestReceiver extends RunningReceiver {
  lines: string[];
}

/** Starts receivers on demand; every one is closed in afterAll of the calling file. */
export function receiverPool(): (config?: ReceiverConfigInput) => Promise<TestReceiver> {
  const started: RunningReceiver[] = [];
  afterAll(async () => {
    await Promise.all(started.map((r) => r.close()));
  });
  return async (config = {}) => {
    const lines: string[] = [];
    const receiver = await startReceiver({ callbackToken: TOKEN, timeScale: TIME_SCALE, log: (line) => lines.push(line), ...config });
    started.push(receiver);
    return Object.assign(receiver, { lines });
  };
}

let counter = 0;
export function newId(prefix = 'T'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export async function send(url: string, options: { method?: string; headers?: string[] | Record<string, string>; body?: string } = {}): Promise<Answer> {
  const res = await request(url, {
    method: (options.method ?? 'GET') as 'GET',
    headers: options.headers ?? {},
    body: options.body ?? null,
  });
  return { status: res.statusCode, body: await res.body.text(), headers: res.headers };
}

export async function seed(r: RunningReceiver, id: string, amount = '10.00'): Promise<Answer> {
  const answer = await send(`${r.hooksUrl}/transactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ transaction_id: id, amount }),
  });
  if (answer.status !== 201) throw new Error(`seeding ${id}: ${answer.status} ${answer.body}`);
  return answer;
}

export interface RecordView {
  status: number;
  state?: string;
  actions?: number;
}

export async function recordOf(r: RunningReceiver, id: string): Promise<RecordView> {
  const answer = await send(`${r.hooksUrl}/transactions/${encodeURIComponent(id)}`);
  if (answer.status !== 200) return { status: answer.status };
  const body = JSON.parse(answer.body) as { state: string; actions: number };
  return { status: 200, state: body.state, actions: body.actions };
}

/** The state of a record, or 'absent' when the receiver does not hold it. */
export async function stateOf(r: RunningReceiver, id: string): Promise<string> {
  const view = await recordOf(r, id);
  return view.status === 200 ? String(view.state) : 'absent';
}

export type TokenHeader = string | string[] | null;

/** Sends a callback as the service would: URL by the shared composer, token header. */
export async function callback(
  r: RunningReceiver,
  params: Partial<CallbackParams> & { transaction_id: string },
  options: { token?: TokenHeader; callbackUrl?: string } = {},
): Promise<Answer> {
  const url = composeCallbackUrl(options.callbackUrl ?? r.callbackUrl, { status: 'SUCCESS', message: 'Payment received', ...params });
  return send(url, { headers: tokenHeaders(options.token === undefined ? TOKEN : options.token) });
}

export function tokenHeaders(token: TokenHeader): string[] {
  if (token === null) return [];
  return (Array.isArray(token) ? token : [token]).flatMap((value) => ['x-callback-token', value]);
}

/** One HTTP/1.1 exchange over a raw socket: the request is written byte for byte. */
export function rawRequest(url: string, request: Buffer | string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (!match) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 80))}`));
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(match[1]), body: split === -1 ? '' : text.slice(split + 4), headers: {} });
    });
    socket.write(request);
  });
}

/** A GET request head for a raw socket, with Connection: close. */
export function rawGet(target: string, headerLines: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`, 'latin1')];
  for (const line of headerLines) parts.push(Buffer.isBuffer(line) ? line : Buffer.from(line, 'latin1'), Buffer.from('\r\n'));
  parts.push(Buffer.from('\r\n'));
  return Buffer.concat(parts);
}

/** The path and query of a callback URL, for rawGet. */
export function targetOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}
