// A receiver written as a debugging team writes one: its callback route wants a POST form, so
// every callback (a GET) is answered 400 with a debug body that echoes the request's headers,
// X-Callback-Token first, the way PHP's json_encode() writes them (`/` as `\/`, non-ASCII as
// `\uXXXX`). Its test hooks hold records in memory; nothing is ever applied. An error message
// before the headers, padded, puts the token at a chosen character of the body (a reason
// quoting the first 120 characters then cuts through it).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EchoingReceiver {
  callbackUrl: string;
  hooksUrl: string;
  close(): Promise<void>;
}

/** PHP json_encode() with its default flags: `\/` for every `/`, `\uxxxx` for every non-ASCII unit. */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/').replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The debug body: the headers first, or (`messageLength` given) an error message of that many
 * characters first, which moves the token further into the body.
 */
function debugBody(headers: IncomingMessage['headers'], messageLength: number | undefined): string {
  const token = headers['x-callback-token'];
  const rest = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'x-callback-token'));
  const echoed = { 'X-Callback-Token': token ?? null, ...rest };
  return messageLength === undefined
    ? phpJsonEncode({ headers: echoed, error: 'POST only' })
    : phpJsonEncode({ error: 'POST only'.padEnd(messageLength, '.'), headers: echoed });
}

/** Where the token value starts in the debug body (`messageLength` as for debugBody). */
export function tokenOffset(messageLength?: number): number {
  return debugBody({ 'x-callback-token': '\u0000' }, messageLength).indexOf('\\u0000');
}

/** `tokenAt`: the token starts at that character of the body (at least 52), else as early as it can (32). */
export async function startEchoingReceiver(options: { tokenAt?: number } = {}): Promise<EchoingReceiver> {
  let messageLength: number | undefined;
  if (options.tokenAt !== undefined) {
    messageLength = 0;
    while (tokenOffset(messageLength) < options.tokenAt) messageLength++;
  }
  const records = new Map<string, { state: string; actions: number }>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(phpJsonEncode(value));
      if (req.method === 'POST' && url.pathname === '/_hooks/transactions') {
        const { transaction_id: id } = JSON.parse(body) as { transaction_id: string };
        records.set(id, { state: 'pending', actions: 0 });
        return json(201, { ok: true });
      }
      if (req.method === 'GET' && url.pathname.startsWith('/_hooks/transactions/')) {
        const id = decodeURIComponent(url.pathname.slice('/_hooks/transactions/'.length));
        const record = records.get(id);
        return record ? json(200, { transaction_id: id, ...record }) : json(404, { error: 'not found' });
      }
      res.writeHead(400, { 'content-type': 'application/json' }).end(debugBody(req.headers, messageLength));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    callbackUrl: `${origin}/payments/callback`,
    hooksUrl: `${origin}/_hooks`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
