// harness/http/body.ts: the one reader of a request body our servers get (the simulator, the
// receiver's hooks, the SDK's service end), against a server of this file's own on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody, type BodyLimits, type BodyRead } from '../../harness/http/index.ts';

let limits: BodyLimits = { limit: 10 };
let seen: Promise<BodyRead> = Promise.resolve({ kind: 'ok', bytes: Buffer.alloc(0) });
const server = http.createServer((req, res) => {
  seen = readBody(req, limits);
  void seen.then((read) => res.writeHead(read.kind === 'ok' ? 200 : 413, { connection: 'close' }).end(read.kind));
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `chunks` (a Content-Length only when given), and resolves with what the reader made of them. */
async function send(chunks: readonly string[], contentLength?: number): Promise<BodyRead> {
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: contentLength === undefined ? {} : { 'content-length': contentLength } });
  req.on('error', () => undefined); // a body cut off may meet a closed socket
  const answered = new Promise<void>((resolve) => req.on('response', (res) => res.resume().on('end', resolve)).on('close', resolve));
  for (const chunk of chunks) req.write(chunk);
  req.end();
  await answered;
  return seen;
}

describe('readBody: the bytes kept, the rest drained up to a cap', () => {
  it('a body within the limit is ok, whole', async () => {
    limits = { limit: 10 };
    expect(await send(['{"a":', '1}'])).toEqual({ kind: 'ok', bytes: Buffer.from('{"a":1}') });
  });

  it('a body exactly at the limit is ok; one byte more is too-large, its first `limit` bytes kept as head', async () => {
    limits = { limit: 10 };
    expect(await send(['0123456789'])).toEqual({ kind: 'ok', bytes: Buffer.from('0123456789') });
    expect(await send(['01234', '56789X'])).toEqual({ kind: 'too-large', received: 11, head: Buffer.from('0123456789') });
  });

  it('a body read past drainCap is cut off as it arrives', async () => {
    limits = { limit: 4, drainCap: 8 };
    const read = await send(['0123', '4567', '89']);
    expect(read.kind).toBe('cut-off');
    expect((read as { received: number }).received).toBeGreaterThan(8);
  });

  it('a Content-Length over drainCap is cut off before a byte is read; at drainCap it is drained (too-large)', async () => {
    limits = { limit: 4, drainCap: 8 };
    expect(await send(['012345678'], 9)).toEqual({ kind: 'cut-off', received: 0 });
    expect(await send(['01234567'], 8)).toEqual({ kind: 'too-large', received: 8, head: Buffer.from('0123') });
  });

  it('drainCap Infinity drains every byte however large (the SDK service end records the head)', async () => {
    limits = { limit: 4, drainCap: Infinity };
    const big = 'x'.repeat(3 * 1024 * 1024);
    expect(await send([big], big.length)).toEqual({ kind: 'too-large', received: big.length, head: Buffer.from('xxxx') });
  });

  it('the default drainCap is 16 × the limit, at least 1 MiB', async () => {
    limits = { limit: 4 };
    const mib = 1024 * 1024;
    expect(await send(['y'.repeat(mib)], mib)).toMatchObject({ kind: 'too-large', received: mib });
    expect(await send(['y'.repeat(mib + 1)], mib + 1)).toEqual({ kind: 'cut-off', received: 0 });
  });
});

describe('readBody: a client that goes away', () => {
  it('a request destroyed before its end is aborted, with the bytes received so far', async () => {
    limits = { limit: 100 };
    let reading: Promise<BodyRead> | undefined;
    const arrived = new Promise<void>((resolve) => {
      server.once('request', (req: http.IncomingMessage) => {
        req.once('data', () => resolve());
        reading = seen;
      });
    });
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-length': 50 } });
    req.on('error', () => undefined);
    req.write('0123456789');
    await arrived;
    req.destroy();
    const read = await (reading ?? seen);
    expect(read).toEqual({ kind: 'aborted', received: 10 });
  });
});
