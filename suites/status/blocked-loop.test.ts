// The harness's status endpoint when the kit's WHOLE event loop was blocked (a loaded machine):
// a confirming receiver's query then waits unread, the receiver gives up (closes the connection)
// and answers its callback non-2xx, and the kit reads both at once. The endpoint must not record
// an answer written into a connection the receiver had closed, and a case must not read the
// record before the endpoint read a query already on the wire (settled). The loop is
// blocked on purpose by a bounded busy-wait; the receiver is a raw socket that writes its whole
// query and closes before the endpoint can read it. Controls: a receiver that waits gets its
// answer however late the kit read it; after a stall under UNREAD_STALL_MS a close that came with
// the query is not looked for (answered at once): the receiver's own act (it did not wait). The
// kit's verdicts (ERROR status-answer-late, not FAIL) are proven in the end-to-end tier
// (blocked-loop-kit.test.ts: a receiver case, the loop blocked past 500 ms).
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import {
  lateAnswerWords, lateForReceiver, queryExchange, signedStatusQuery, startStatusEndpoint, UNREAD_STALL_MS, type ReceivedQuery, type RunningStatusEndpoint,
} from '../../harness/status/index.ts';
import { blockLoop, queryBytes } from './fixtures/blocked.ts';

const CREDENTIALS = { clientId: 3, clientKey: 'test_ck_blocked', secretKey: 'test_sk_blocked-loop' };
/**
 * The endpoints here look for a close that came with a query after a stall of 60 ms (the
 * option's, UNREAD_STALL_MS is 500 ms in a run), and the loop is blocked past it by more than the
 * sampling period (10 ms).
 */
const STALL_MS = 60;
const BLOCK_MS = 120;
const started: RunningStatusEndpoint[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(started.map((e) => e.close()));
});

let n = 0;
const newId = () => `bl-${process.pid}-${++n}`;

/** An endpoint told `id`, looking for a close that came with a query after STALL_MS, or after UNREAD_STALL_MS (`'default'`). */
async function endpointTelling(id: string, stall: 'default' | number = STALL_MS): Promise<RunningStatusEndpoint> {
  const e = await startStatusEndpoint({ host: '127.0.0.1', port: 0, ...CREDENTIALS, ...(stall === 'default' ? {} : { unreadStallMs: stall }) });
  started.push(e);
  e.told(id, 'SUCCESS');
  return e;
}

/** The signed query for `id` as the bytes an HTTP/1.1 client writes. */
const queryFor = (e: RunningStatusEndpoint, id: string): string => queryBytes(signedStatusQuery({ baseUrl: e.url, transactionId: id, ...CREDENTIALS }));

/** A connected raw client; what it receives is kept. */
async function client(e: RunningStatusEndpoint): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const url = new URL(e.url);
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  let received = '';
  socket.on('data', (d: Buffer) => { received += d.toString('utf8'); });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, received: () => received, closed };
}

/**
 * A receiver's query for a fresh id, sent as `send` says; then the loop blocked BLOCK_MS and the
 * endpoint's record once settled.
 */
async function askedWhileBlocked(send: (socket: Socket, query: string) => void, stall: 'default' | number = STALL_MS) {
  const id = newId();
  const e = await endpointTelling(id, stall);
  const receiver = await client(e);
  send(receiver.socket, queryFor(e, id));
  blockLoop(BLOCK_MS);
  const queries = e.queriesFor(id);
  await e.settled(id);
  return { queries, receiver };
}

describe('a query that waited unread while the kit\'s event loop was blocked: recorded abandoned, unread, and read before the case looks', () => {
  it('the receiver wrote its query and closed, the loop blocked 120 ms, the callback\'s 503 taken first: abandoned with the stall, never written, lateForReceiver says unread (ERROR, status-answer-late); a scripted late answer so closed is abandoned at once, not held', async () => {
    const [id, held] = [newId(), newId()];
    const e = await endpointTelling(id);
    e.script(held, { kind: 'late', holdMs: 60_000, status: 'SUCCESS' });
    const receiver = await client(e);
    const heldReceiver = await client(e);
    // The receivers' whole queries, then their close (their own time limit), before the endpoint read a byte.
    receiver.socket.write(queryFor(e, id));
    receiver.socket.destroy();
    heldReceiver.socket.write(queryFor(e, held));
    heldReceiver.socket.destroy();
    blockLoop(BLOCK_MS);
    // The callback's reply is taken before the endpoint read the query (both were ready at once).
    const reply = { at: performance.now(), acknowledged: false };
    const queries = e.queriesFor(id);
    expect(queries).toEqual([]);
    expect(lateForReceiver(queries, reply)).toBeUndefined();
    await e.settled(id);
    expect(queries).toHaveLength(1);
    const asked = queries[0]!;
    expect(asked.at).toBeGreaterThan(reply.at);
    expect(asked.answer).toEqual({ kind: 'abandoned', afterMs: expect.any(Number), answerAfterMs: expect.any(Number), unread: { stalledMs: expect.any(Number) } });
    const stalledMs = (asked.answer as { unread: { stalledMs: number } }).unread.stalledMs;
    expect(stalledMs).toBeGreaterThanOrEqual(STALL_MS);
    const late = lateForReceiver(queries, reply);
    expect(late).toMatchObject({ how: 'unread', stalledMs });
    expect(lateAnswerWords(late!, 'answered its callback 503')).toBe(`the harness's status endpoint read the receiver's status query only after its own event loop had been blocked ${stalledMs} ms, and by then the receiver had closed the connection (given up on its query) and answered its callback 503: the delay is the kit's (a loaded machine?), not the receiver's, so what the receiver did with this callback is not judged`);
    expect(queryExchange(asked, asked.at).error).toBe(`the receiver's close came with its query: it had closed the connection by the time the harness read the query (the harness's event loop had been held up ${stalledMs} ms just before), so no answer was given`);
    // The case's own hold: abandoned once its close was read, without answerAfterMs (lateForReceiver passes it by).
    const heldQueries = e.queriesFor(held);
    await e.settled(held);
    await heldQueries[0]!.done;
    expect(heldQueries[0]).toMatchObject({ heldMs: 60_000, answer: { kind: 'abandoned', afterMs: expect.any(Number) } });
    expect(heldQueries[0]!.answer).not.toHaveProperty('answerAfterMs');
  });
  it('a receiver that half-closed after its query (EOF before the answer), the loop blocked: abandoned, and no answer is written to it', async () => {
    const { queries, receiver } = await askedWhileBlocked((socket, query) => socket.end(query));
    await receiver.closed;
    expect(queries[0]!.answer).toMatchObject({ kind: 'abandoned', unread: { stalledMs: expect.any(Number) } });
    expect(receiver.received()).toBe('');
  });
  it('control: a receiver that closed as it asked, the loop held up less than UNREAD_STALL_MS (500 ms, the default), did not wait for an answer: answered at once, its own act, lateForReceiver undefined (the case judges it)', async () => {
    expect(UNREAD_STALL_MS).toBe(500);
    const { queries } = await askedWhileBlocked((socket, query) => { socket.write(query); socket.destroy(); }, 'default');
    const a = queries[0]!.answer;
    // The close is not looked for; a stall past UNREAD_STALL_MS (a machine loaded right then)
    // would be the kit's, and named so.
    if (a.kind === 'abandoned' && a.unread) {
      expect(a.unread.stalledMs).toBeGreaterThanOrEqual(UNREAD_STALL_MS);
      return;
    }
    expect(a).toMatchObject({ kind: 'answered', httpStatus: 200 });
    expect(lateForReceiver(queries, { at: performance.now(), acknowledged: false })).toBeUndefined();
  });
  it('control: a receiver that still waits gets its answer, however late the kit read its query; lateForReceiver undefined', async () => {
    const { queries, receiver } = await askedWhileBlocked((socket, query) => socket.write(query));
    expect(queries[0]!.answer).toMatchObject({ kind: 'answered', httpStatus: 200 });
    while (!receiver.received().includes('"status":"success"')) await new Promise((r) => setTimeout(r, 2));
    expect(receiver.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(lateForReceiver(queries, { at: performance.now(), acknowledged: false })).toBeUndefined();
  });
});

describe('settled(id): what is on the wire to the endpoint is read first, bounded', () => {
  it('a connection that has sent nothing yet is waited for until its query is read and answered', async () => {
    const id = newId();
    const e = await endpointTelling(id);
    const receiver = await client(e);
    const queries = e.queriesFor(id);
    let settled = false;
    const settling = e.settled(id).then(() => { settled = true; });
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    receiver.socket.write(queryFor(e, id));
    await settling;
    expect(queries.map((q) => q.answer.kind)).toEqual(['answered']);
  });
  it('a connection that never sends does not hold the case: settled(id) returns (within WIRE_WAIT_MS, 250 ms)', async () => {
    const id = newId();
    const e = await endpointTelling(id);
    await client(e);
    const t0 = performance.now();
    await e.settled(id);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(e.queriesFor(id)).toEqual([]);
  });
});

describe('lateForReceiver: a close that came with the query after a stall is the kit\'s delay', () => {
  const query = (answer: ReceivedQuery['answer']): ReceivedQuery => ({ at: 10, method: 'POST', target: '/', headers: {}, askedId: 'x', answer, done: Promise.resolve() });
  it('unread: the kit\'s, with the stall, before or after the callback\'s reply; one query answered in time still means the receiver had its answer', () => {
    const unread = query({ kind: 'abandoned', afterMs: 0, answerAfterMs: 1, unread: { stalledMs: 1800 } });
    expect(lateForReceiver([unread], undefined)).toEqual({ how: 'unread', answerAfterMs: 1, gaveUpAfterMs: 0, stalledMs: 1800 });
    expect(lateForReceiver([unread], { at: 5, acknowledged: false })).toMatchObject({ how: 'unread' });
    expect(lateForReceiver([unread, query({ kind: 'answered', httpStatus: 200, body: '', afterMs: 1 })], { at: 5, acknowledged: false })).toBeUndefined();
  });
});
