// The storm's reading of records (harness/storm/records.ts): many per request where the target
// offers it (the reference receiver's POST {hooks}/transactions/read), one id at a time where it
// does not (a hooks server answering 405 there), the same readings either way.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../harness/http/index.ts';
import { HooksObserver } from '../../harness/observe/index.ts';
import { startReceiver } from '../../harness/receiver/index.ts';
import { readAll, Readings, StormPlan } from '../../harness/storm/index.ts';

const http = new HttpClient({ requestTimeoutMs: 5000 });
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  await http.close();
  await Promise.all(closers.map((c) => c()));
});

const plan = new StormPlan({ callbacks: 1200, ratePerS: 100, duplicates: 1, badTokensPct: 0, seed: 5, tag: 'rd' });
const indices = Array.from({ length: 1200 }, (_, i) => i);

describe('storm reading: many per request where offered, one by one where not', () => {
  it('the reference receiver: 1200 records in 3 requests, the seeded ones pending, the rest not held', async () => {
    const r = await startReceiver({ callbackToken: 'tok-read-many', log: () => {} });
    closers.push(() => r.close());
    const observer = new HooksObserver(r.hooksUrl, { http });
    for (let i = 0; i < 600; i++) await observer.seed(plan.idOf(i), '10.00');
    const readings = new Readings(1200);
    expect(await readAll(plan, observer, readings, indices, 16)).toBe('many');
    expect([readings.stateOf(0), readings.stateOf(599), readings.stateOf(600), readings.stateOf(1199)]).toEqual(['pending', 'pending', 'absent', 'absent']);
    expect(readings.describe(5)).toBe('pending, actions 0');
  });
  it('a receiver without it (405): read one id at a time, asked once', async () => {
    let batchAsks = 0;
    let reads = 0;
    const server = createServer((req, res) => {
      req.resume();
      if (req.method === 'POST') {
        batchAsks += 1;
        res.writeHead(405, { allow: 'GET', 'content-length': '0' }).end();
        return;
      }
      reads += 1;
      const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
      const body = JSON.stringify({ transaction_id: id, state: 'SUCCESS', actions: 1 });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
    const observer = new HooksObserver(`http://127.0.0.1:${(server.address() as AddressInfo).port}/_conformance`, { http });
    const readings = new Readings(1200);
    expect(await readAll(plan, observer, readings, indices.slice(0, 40), 8)).toBe('one by one');
    expect(await readAll(plan, observer, readings, indices.slice(40, 80), 8)).toBe('one by one');
    expect([batchAsks, reads]).toEqual([1, 80]);
    expect(readings.describe(79)).toBe('SUCCESS, actions 1');
  });
});
