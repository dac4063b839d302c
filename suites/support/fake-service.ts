// A service of the tests' own making, not the reference: it accepts every collect (200
// {"success": true}, no signature check) and calls back as `deliver` says, each delivery a GET
// to the request's callback_url with transaction_id, status SUCCESS and `message` appended.
// Bound to port 0 on 127.0.0.1; close() in a finally.
import { createServer } from 'node:http';
import { request } from 'undici';
import { composeCallbackUrl } from '../../harness/callback/index.ts';

/** Sends one delivery; resolves with the listener's status (undefined when it got no answer). */
export type Deliver = () => Promise<number | undefined>;

export async function fakeService(options: { message: string; onCollect: (deliver: Deliver) => void }): Promise<{ url: string; close(): Promise<void> }> {
  const fake = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const fields = JSON.parse(body) as { transaction_id: string; callback_url: string };
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
      const url = composeCallbackUrl(fields.callback_url, { transaction_id: fields.transaction_id, status: 'SUCCESS', message: options.message });
      options.onCollect(async () => {
        const answer = await request(url).catch(() => undefined);
        await answer?.body.dump();
        return answer?.statusCode;
      });
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(fake.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => {
      fake.close(() => resolve());
      fake.closeAllConnections();
    }),
  };
}
