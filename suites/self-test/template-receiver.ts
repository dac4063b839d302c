// A receiver as a framework's template leaves it: the callback route is there and answers
// `200 OK` to everything (no token check, nothing parsed, nothing written), and the test hooks
// read the orders table the route never writes, so every record stays as seeded. A team that
// wired the route and the hooks but not the handler has this.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TemplateReceiver {
  callbackUrl: string;
  hooksUrl: string;
  /** Every callback the route was sent (method and URL), to show the run exercised it. */
  callbacks: string[];
  close(): Promise<void>;
}

export async function startTemplateReceiver(): Promise<TemplateReceiver> {
  const orders = new Map<string, { amount: string; status: 'pending' }>();
  const callbacks: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://template.local');
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      // The hooks: a row in `orders`, read back as it stands.
      if (url.pathname === '/_conformance/transactions' && req.method === 'POST') {
        const { transaction_id: id, amount } = JSON.parse(body) as { transaction_id: string; amount: string };
        orders.set(id, { amount, status: 'pending' });
        return json(201, { created: id });
      }
      if (url.pathname.startsWith('/_conformance/transactions/') && req.method === 'GET') {
        const id = decodeURIComponent(url.pathname.slice('/_conformance/transactions/'.length));
        const order = orders.get(id);
        return order ? json(200, { transaction_id: id, state: order.status, actions: 0 }) : json(404, { error: 'no such order' });
      }
      // The route the template generated: TODO verify the token, update the order.
      if (url.pathname === '/payments/callback') callbacks.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    callbackUrl: `${origin}/payments/callback`,
    hooksUrl: `${origin}/_conformance`,
    callbacks,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
