// The harness's own §4.2 status endpoint, for a receiver that confirms outcomes before fulfilment
// (§6 rule 5; DESIGN.md "Transaction status (§4.2) on every side", receiver side). The receiver
// calls it as it would call the service: it listens where the target's `confirms.listener` says,
// verifies each query as the service would (route, body, client key, signature over the bytes
// sent, client_id) and refuses a bad one as the service would; a good one is answered as its
// case scripted it, or else truthfully: the status of the last callback the harness sent for
// that id (SUCCESS, FAILED; any other callback leaves the transaction PENDING), "unknown id" for
// an id it never sent; in the form the best evidence gives the real service (lower case, 421:
// harness/positions), or the one the target states (`confirms.statusForm`). Every request is
// recorded, with what it was answered, as evidence for the case whose transaction it names, and
// when. On a loaded machine the kit can be the slow one, and lateForReceiver reads the record
// beside the callback's reply so the kit's delay is not blamed on the receiver:
// - an answer ready only after the receiver had closed the connection is recorded abandoned,
//   never written;
// - when the kit's whole event loop was blocked, a query can wait unread while the receiver gives
//   up: its close then comes with it. After such a stall (measured: loop.ts) the endpoint lets
//   the loop read what is already on the connection (two turns) before it answers, so that query
//   is recorded abandoned with `unread` and the stall, not answered into a connection the
//   receiver had closed. Without a stall it answers at once (a delay there could make a receiver
//   near its limit miss an answer it would have had): a close that came with the query then is
//   the receiver's own act (it did not wait), and is not looked for;
// - settled(id) first lets the loop read what was already on the wire to the endpoint (a query
//   still unread when the callback's reply was taken, both ready in the same poll), so a case
//   never reads the record while its query waits unread.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { readCapped } from '../http/index.ts';
import type { Exchange } from '../results/index.ts';
import { describeDiagnosis, diagnoseSignature, parseAuthorizationHeader, verifyBody, type SignatureDiagnosis } from '../signing/index.ts';
import { REFERENCE_STATUS_FORM, spell, STATUS_POSITION, statusAnswerBody, statusQueryBody, unknownIdAnswer, type LetterCase, type StatusEndpoint, type StatusForm, type StatusValue } from './shape.ts';
import { listenOn, originOf } from '../tool/index.ts';
import { LoopStalls, loopTurns, within } from './loop.ts';

/** How the endpoint answers a well-formed query for one transaction (a case's script). */
export type ScriptedAnswer =
  | { kind: 'status'; status: StatusValue }
  /** The id is not known, in the endpoint's form (HTTP 404, or `error_code` 421 with `success: false`). */
  | { kind: 'unknown-id' }
  | { kind: 'server-error'; httpStatus: number }
  /** The connection is closed once the query is read, with no answer. */
  | { kind: 'dropped' }
  /** The answer is held `holdMs`, then given as `status`. */
  | { kind: 'late'; holdMs: number; status: StatusValue };

/** What was wrong with a query (the service would refuse it), in the order the endpoint checks. */
export type QueryProblem =
  | { kind: 'route'; detail: string }
  | { kind: 'body'; detail: string }
  | { kind: 'authorization'; detail: string }
  | { kind: 'client-key'; detail: string }
  | { kind: 'signature'; detail: string; diagnosis?: SignatureDiagnosis }
  | { kind: 'client-id'; detail: string };

export type QueryAnswer =
  | { kind: 'answered'; httpStatus: number; body: string; afterMs: number }
  | { kind: 'dropped'; afterMs: number }
  /**
   * The receiver closed the connection (its own time limit) before the answer was written:
   * `afterMs` when it closed (as far as the endpoint saw), `answerAfterMs` when the endpoint had
   * its answer ready (absent for a scripted late answer, which is then not given). `unread`: the
   * endpoint's event loop had been held up `stalledMs` (UNREAD_STALL_MS or more) just before it
   * read the query, and the receiver's close came with it (seen before it could answer).
   */
  | { kind: 'abandoned'; afterMs: number; answerAfterMs?: number; unread?: { stalledMs: number } }
  /** A late answer still held (or closed with the endpoint before it was given). */
  | { kind: 'held'; untilMs: number };

export interface ReceivedQuery {
  /**
   * performance.now() when the endpoint read the query's head: a query that waited unread while
   * the kit's event loop was blocked is stamped when the loop was free again.
   */
  at: number;
  method: string;
  /** The request target as received (path and query). */
  target: string;
  headers: Record<string, string | string[]>;
  body?: string;
  /** The transaction_id the query names, as it names it (undefined: none could be read). */
  askedId?: string;
  problem?: QueryProblem;
  answer: QueryAnswer;
  /** A case held this query's answer on purpose (ScriptedAnswer 'late'): its lateness is the case's point. */
  heldMs?: number;
  /** Resolves once the answer was given, dropped, or the endpoint closed. */
  readonly done: Promise<void>;
}

export interface StatusEndpointOptions {
  host?: string;
  /** Fixed in a target file (the receiver is configured with it); 0 for any free port. */
  port?: number;
  /** Where the receiver reaches the endpoint, when not as bound (a tunnel). */
  publicUrl?: string | null;
  clientId: number;
  clientKey: string;
  secretKey: string;
  /** What the receiver calls (the target's `status`); default the suite's position. */
  endpoint?: StatusEndpoint;
  /** How answers are spelled (the target's `confirms.statusForm`); default REFERENCE_STATUS_FORM. */
  form?: StatusForm;
  /**
   * For tests only (no target file sets it): how long the answer to a well-formed query naming
   * this id waits before it is written, as on a loaded machine (0 or undefined: at once). A
   * scripted late answer keeps its own hold.
   */
  delayFor?: (askedId: string) => number;
  /** For tests only: UNREAD_STALL_MS, shorter (a test blocks the loop for less). */
  unreadStallMs?: number;
}

export interface RunningStatusEndpoint {
  /** The receiver's service base URL: publicUrl, or the root as bound (no trailing slash). */
  url: string;
  endpoint: StatusEndpoint;
  /** How its answers are spelled. */
  form: StatusForm;
  /** The harness sent a callback with this status for `transactionId`: the truthful answer follows it. */
  told(transactionId: string, status: string): void;
  /** This case answers well-formed queries for `transactionId` so, instead of truthfully. */
  script(transactionId: string, answer: ScriptedAnswer): void;
  /** The queries naming exactly this id, in arrival order (for an id the harness sent, one list, kept up to date). */
  queriesFor(transactionId: string): readonly ReceivedQuery[];
  /**
   * Resolves once the record of `transactionId` can be read: the endpoint has read what was
   * already on the wire to it (a query still unread when the callback's reply was taken: both
   * were ready in the same poll after the loop was blocked; a few loop turns, then connections
   * that sent nothing yet, at most WIRE_WAIT_MS), and every query for it not held on purpose has
   * its answer given, dropped or abandoned (an answer still held, a loaded machine's delay,
   * counts once ready, to tell whether the receiver still waited for it).
   */
  settled(transactionId: string): Promise<void>;
  /** Queries naming no id the harness sent (or none at all), arrived at or after `since` (performance.now()). */
  strayQueries(since: number): readonly ReceivedQuery[];
  /** Stops listening, drops held answers and open connections. */
  close(): Promise<void>;
}

/** Bounded memory for a long run: queries kept per id, and stray ones kept in all. */
const MAX_QUERIES_PER_ID = 100;
const MAX_STRAY_QUERIES = 1000;
/**
 * Loop turns between reading a query and answering it, after a stall of UNREAD_STALL_MS: a close
 * that came with the query (the data and the close both waiting while the loop was blocked) is
 * read by then (Node 20 reads the close one poll after the data).
 */
const ANSWER_TURNS = 2;
/** Loop turns settled(id) lets pass first: a waiting connection is accepted, then read. */
const SETTLE_TURNS = 3;
/**
 * How long settled(id) waits, after those turns, for queries being read and connections that
 * have sent nothing yet (an HTTP client connects to send at once); a connection accepted longer
 * ago than this is not waited for.
 */
const WIRE_WAIT_MS = 250;
/**
 * A close that came with its query is the kit's doing only when the kit's loop had been held up
 * at least this long before reading it, and only then is it looked for. A receiver's limit on a
 * status query is a second or more (§8 gives it seconds to reply; the reference receiver waits
 * 1 s embedded, 1.5 s on its own): a close after a shorter stall is likelier the receiver's own
 * (it gave up at once), and a receiver near so short a limit is judged on what it did.
 */
export const UNREAD_STALL_MS = 500;
/** A refusal in the shape the suite's position gives the service (an unknown id is its 404). */
function refusalBody(httpStatus: number, message: string): string {
  return JSON.stringify({ success: false, error_code: httpStatus, error_message: message });
}

/** The answer body with the status, in `letterCase`, where the target's pointer says (the position: `/status`). */
function answerBodyAt(pointer: string, transactionId: string, status: StatusValue, letterCase: LetterCase): string {
  if (pointer === STATUS_POSITION.pointer) return statusAnswerBody(transactionId, status, letterCase);
  const body: Record<string, unknown> = { success: true, transaction_id: transactionId };
  const keys = pointer.replace(/^\//, '').split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  let here = body;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) here[key] = spell(status, letterCase);
    else here = (here[key] = typeof here[key] === 'object' && here[key] !== null ? here[key] : {}) as Record<string, unknown>;
  });
  return JSON.stringify(body);
}

function pathOf(target: string): string {
  const at = target.indexOf('?');
  return at === -1 ? target : target.slice(0, at);
}

interface Parsed {
  askedId?: string;
  problem?: QueryProblem;
}

/** The pairs of a GET query, as the JSON body they would make (what its signature covers). */
function bodyOfGet(target: string): { body: string; id: string } | undefined {
  const params = new URL(target, 'http://x').searchParams;
  const id = params.get('transaction_id');
  const clientId = params.get('client_id');
  if (id === null || clientId === null || !/^-?\d+$/.test(clientId)) return undefined;
  return { body: statusQueryBody(id, Number(clientId)), id };
}

/**
 * The service's checks of §5 applied to a status query: the route the target names, a JSON body
 * with transaction_id, `Authorization: HMAC {client_key}:{signature}` with the target's client
 * key, the signature over the bytes sent, client_id the target's.
 */
export function checkStatusQuery(
  request: { method: string; target: string; authorization: string | string[] | undefined; body: string },
  options: Pick<StatusEndpointOptions, 'clientId' | 'clientKey' | 'secretKey'> & { endpoint: StatusEndpoint },
): Parsed {
  const { endpoint } = options;
  const wantedPath = pathOf(endpoint.path);
  if (request.method !== endpoint.method || pathOf(request.target) !== wantedPath) {
    return { problem: { kind: 'route', detail: `${request.method} ${pathOf(request.target)} is not the status endpoint (${endpoint.method} ${wantedPath})` } };
  }
  let signedBody: string;
  let askedId: string;
  if (endpoint.method === 'GET') {
    const got = bodyOfGet(request.target);
    if (!got) return { problem: { kind: 'body', detail: 'the query string lacks transaction_id, or a client_id that is an integer' } };
    signedBody = got.body;
    askedId = got.id;
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(request.body);
    } catch {
      return { problem: { kind: 'body', detail: 'the body is not JSON' } };
    }
    const id = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)['transaction_id'] : undefined;
    if (typeof id !== 'string') return { problem: { kind: 'body', detail: 'the body has no transaction_id string' } };
    signedBody = request.body;
    askedId = id;
  }
  const given = Array.isArray(request.authorization) ? undefined : request.authorization;
  if (Array.isArray(request.authorization)) return { askedId, problem: { kind: 'authorization', detail: 'the Authorization header is sent more than once' } };
  let auth;
  try {
    auth = parseAuthorizationHeader(given);
  } catch (error) {
    return { askedId, problem: { kind: 'authorization', detail: (error as Error).message } };
  }
  if (auth.clientKey !== options.clientKey) {
    return { askedId, problem: { kind: 'client-key', detail: 'the Authorization header names a client_key other than the target\'s (confirms.clientKey)' } };
  }
  if (!verifyBody(signedBody, options.secretKey, auth.signature)) {
    let diagnosis: SignatureDiagnosis | undefined;
    try {
      diagnosis = diagnoseSignature(signedBody, options.secretKey, auth.signature);
    } catch {
      diagnosis = undefined;
    }
    const expected = `${endpoint.method === 'GET' ? 'the pairs of its query' : 'the body sent'}`;
    return {
      askedId,
      problem: {
        kind: 'signature',
        detail: `the signature does not match ${expected}${diagnosis ? `: ${describeDiagnosis(diagnosis)}` : ''}`,
        ...(diagnosis ? { diagnosis } : {}),
      },
    };
  }
  const clientId = endpoint.method === 'GET'
    ? Number(new URL(request.target, 'http://x').searchParams.get('client_id'))
    : (JSON.parse(signedBody) as Record<string, unknown>)['client_id'];
  if (clientId !== options.clientId) {
    return { askedId, problem: { kind: 'client-id', detail: `client_id ${JSON.stringify(clientId)} is not the target's (confirms.clientId ${options.clientId})` } };
  }
  return { askedId };
}

const REFUSAL_STATUS: Readonly<Record<QueryProblem['kind'], number>> = {
  route: 404, body: 400, authorization: 401, 'client-key': 401, signature: 401, 'client-id': 403,
};

export async function startStatusEndpoint(options: StatusEndpointOptions): Promise<RunningStatusEndpoint> {
  const endpoint = options.endpoint ?? STATUS_POSITION;
  const form = options.form ?? REFERENCE_STATUS_FORM;
  const told = new Map<string, string>();
  const scripts = new Map<string, ScriptedAnswer>();
  const byId = new Map<string, ReceivedQuery[]>();
  const stray: ReceivedQuery[] = [];
  const held = new Set<{ timer: NodeJS.Timeout; release: () => void }>();
  let closing = false;
  const stalls = new LoopStalls();
  const unreadStallMs = options.unreadStallMs ?? UNREAD_STALL_MS;
  /** Per connection: when its peer closed it (EOF or reset). */
  const connections = new WeakMap<Socket, { goneAt?: number }>();
  /** Connections accepted that have sent no request yet: when accepted, and their first request's handling once it came. */
  const opening = new Map<Socket, { acceptedAt: number; produced: Promise<void>; request: (handling: Promise<void>) => void }>();
  /** Requests being read and answered (until answered, dropped, abandoned or held). */
  const handling = new Set<Promise<void>>();

  const known = (id: string) => told.has(id) || scripts.has(id);

  /** The id's list, made once: queriesFor hands out this same list. */
  const listOf = (id: string): ReceivedQuery[] => {
    let list = byId.get(id);
    if (!list) {
      list = [];
      byId.set(id, list);
    }
    return list;
  };

  const record = (query: ReceivedQuery) => {
    if (query.askedId !== undefined && known(query.askedId)) {
      const list = listOf(query.askedId);
      if (list.length < MAX_QUERIES_PER_ID) list.push(query);
      return;
    }
    if (stray.length >= MAX_STRAY_QUERIES) stray.shift();
    stray.push(query);
  };

  const truthful = (id: string): ScriptedAnswer => {
    const sent = told.get(id);
    if (sent === undefined) return { kind: 'unknown-id' };
    return { kind: 'status', status: sent === 'SUCCESS' || sent === 'FAILED' ? sent : 'PENDING' };
  };

  /** What was on the wire when called is read, and its answers decided (bounded: WIRE_WAIT_MS). */
  const settleWire = async (): Promise<void> => {
    await loopTurns(SETTLE_TURNS);
    const now = performance.now();
    const fresh = [...opening.values()].filter((c) => now - c.acceptedAt < WIRE_WAIT_MS).map((c) => c.produced);
    const waits = [...handling, ...fresh];
    if (waits.length > 0) await within(Promise.all(waits), WIRE_WAIT_MS);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = performance.now();
    const stalledMs = stalls.before(at);
    const connection = connections.get(req.socket);
    const elapsed = () => Math.round(performance.now() - at);
    // When the receiver closed the connection before any answer was written (its own time limit).
    let closedAfterMs: number | undefined;
    res.once('close', () => {
      if (!res.writableFinished) closedAfterMs = elapsed();
    });
    const { text, truncated } = await readCapped(req);
    // After a stall, whatever came with the query (the receiver's close) is read before it is answered.
    let unread: { stalledMs: number } | undefined;
    if (stalledMs >= unreadStallMs) {
      await loopTurns(ANSWER_TURNS);
      if (connection?.goneAt !== undefined) unread = { stalledMs };
    }
    let finish = () => {};
    const query: ReceivedQuery = {
      at,
      method: req.method ?? '',
      target: req.url ?? '',
      headers: { ...req.headers } as Record<string, string | string[]>,
      ...(text !== '' ? { body: text } : {}),
      answer: { kind: 'held', untilMs: 0 },
      done: new Promise<void>((resolve) => { finish = resolve; }),
    };
    const answer = (httpStatus: number, body: string) => {
      const afterMs = elapsed();
      // Ready only once the receiver had gone: it never got this answer (a loaded machine's delay,
      // or a close that came with the query: `unread`).
      const goneAt = connection?.goneAt;
      if (closedAfterMs !== undefined || res.destroyed || goneAt !== undefined) {
        const closed = closedAfterMs ?? (goneAt !== undefined ? Math.round(goneAt - at) : afterMs);
        query.answer = { kind: 'abandoned', afterMs: closed, answerAfterMs: afterMs, ...(unread ? { unread } : {}) };
        finish();
        return;
      }
      query.answer = { kind: 'answered', httpStatus, body, afterMs };
      res.writeHead(httpStatus, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store' });
      res.end(body);
      finish();
    };
    const drop = () => {
      query.answer = { kind: 'dropped', afterMs: elapsed() };
      res.destroy();
      finish();
    };
    if (truncated) {
      query.problem = { kind: 'body', detail: 'the body is longer than 64 KiB' };
      record(query);
      drop();
      return;
    }
    const checked = checkStatusQuery(
      { method: query.method, target: query.target, authorization: req.headers.authorization, body: text },
      { ...options, endpoint },
    );
    if (checked.askedId !== undefined) query.askedId = checked.askedId;
    if (checked.problem) query.problem = checked.problem;
    record(query);
    if (checked.problem) {
      const status = REFUSAL_STATUS[checked.problem.kind];
      answer(status, refusalBody(status, checked.problem.kind === 'signature' ? 'the signature does not match' : checked.problem.detail));
      return;
    }
    const id = checked.askedId!;
    const script = scripts.get(id) ?? truthful(id);
    const respond = () => {
      switch (script.kind) {
        case 'status':
          answer(200, answerBodyAt(endpoint.pointer, id, script.status, form.letterCase));
          return;
        case 'unknown-id': {
          const unknown = unknownIdAnswer(id, form.unknownId);
          answer(unknown.httpStatus, unknown.body);
          return;
        }
        case 'server-error':
          answer(script.httpStatus, refusalBody(script.httpStatus, 'the transaction status is unavailable'));
          return;
        case 'dropped':
          drop();
      }
    };
    /** Holds the answer `ms`, then gives it (close() releases it at once). */
    const hold = (ms: number, then: () => void) => {
      query.answer = { kind: 'held', untilMs: ms };
      const entry = {
        timer: setTimeout(() => {
          held.delete(entry);
          then();
        }, ms),
        release: () => finish(),
      };
      held.add(entry);
      return entry;
    };
    if (script.kind === 'late') {
      query.heldMs = script.holdMs;
      const entry = hold(script.holdMs, () => answer(200, answerBodyAt(endpoint.pointer, id, script.status, form.letterCase)));
      // The receiver gave up on it (its own time limit): nothing is left to answer.
      res.once('close', () => {
        if (query.answer.kind !== 'held') return;
        clearTimeout(entry.timer);
        held.delete(entry);
        query.answer = { kind: 'abandoned', afterMs: elapsed() };
        finish();
      });
      return;
    }
    // A test's delay (a loaded machine's, made on purpose): the answer is written once it passed,
    // whether or not the receiver still waits; answer() records which.
    const delayMs = options.delayFor?.(id) ?? 0;
    if (delayMs > 0) hold(delayMs, respond);
    else respond();
  };

  const server: Server = createServer((req, res) => {
    if (closing) {
      res.destroy();
      return;
    }
    const handled = handle(req, res).catch(() => { res.destroy(); });
    handling.add(handled);
    void handled.then(() => handling.delete(handled));
    const first = opening.get(req.socket);
    if (first) {
      opening.delete(req.socket);
      first.request(handled);
    }
  });
  // Each connection is watched from its acceptance: until its first request (settled(id)
  // waits for that), and for its peer's close (a close that came with a query: `unread`).
  server.on('connection', (socket: Socket) => {
    const acceptedAt = performance.now();
    const connection: { goneAt?: number } = {};
    connections.set(socket, connection);
    let request!: (handling: Promise<void>) => void;
    const produced = new Promise<void>((resolve) => { request = resolve; });
    opening.set(socket, { acceptedAt, produced, request });
    const gone = () => {
      connection.goneAt ??= performance.now();
      opening.get(socket)?.request(Promise.resolve());
      opening.delete(socket);
    };
    socket.once('end', gone);
    socket.once('close', gone);
  });
  const host = options.host ?? '127.0.0.1';
  const address = await listenOn(server, options.port ?? 0, host);
  const bound = originOf(address);

  return {
    url: (options.publicUrl ?? bound).replace(/\/+$/, ''),
    endpoint,
    form,
    told(transactionId, status) {
      told.set(transactionId, status);
    },
    script(transactionId, answer) {
      scripts.set(transactionId, answer);
    },
    queriesFor(transactionId) {
      return known(transactionId) ? listOf(transactionId) : [];
    },
    async settled(transactionId) {
      await settleWire();
      const queries = known(transactionId) ? listOf(transactionId) : [];
      await Promise.all(queries.filter((q) => q.heldMs === undefined).map((q) => q.done));
    },
    strayQueries(since) {
      return stray.filter((q) => q.at >= since);
    },
    async close() {
      if (closing) return;
      closing = true;
      stalls.stop();
      for (const entry of held) {
        clearTimeout(entry.timer);
        entry.release();
      }
      held.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A received query as evidence: the request as it came, and what the endpoint answered (or did). */
export function queryExchange(query: ReceivedQuery, origin: number): Exchange & { receivedAtMs: number; problem?: string } {
  const exchange: Exchange & { receivedAtMs: number; problem?: string } = {
    label: 'status query received',
    receivedAtMs: Math.round(query.at - origin),
    request: { method: query.method, url: query.target, headers: query.headers, ...(query.body !== undefined ? { body: query.body } : {}) },
  };
  if (query.problem) exchange.problem = `${query.problem.kind}: ${query.problem.detail}`;
  const a = query.answer;
  if (a.kind === 'answered') exchange.response = { status: a.httpStatus, bodyExcerpt: a.body, durationMs: a.afterMs };
  else if (a.kind === 'dropped') exchange.error = `the harness dropped the connection after ${a.afterMs} ms without an answer`;
  else if (a.kind === 'abandoned') {
    exchange.error = a.unread
      ? `the receiver's close came with its query: it had closed the connection by the time the harness read the query (the harness's event loop had been held up ${a.unread.stalledMs} ms just before), so no answer was given`
      : a.answerAfterMs === undefined
        ? `the receiver closed the connection after ${a.afterMs} ms, before the held answer was given`
        : `the receiver closed the connection after ${a.afterMs} ms; the harness had its answer ready only after ${a.answerAfterMs} ms, so it was never given`;
  }
  else exchange.error = `the answer was held (${a.untilMs} ms) and not given before the case looked`;
  return exchange;
}

/** The callback whose queries are judged: when its reply arrived (performance.now()), and whether it was 2xx. */
export interface CallbackReply {
  at: number;
  acknowledged: boolean;
}

/**
 * An answer the receiver never had in time: the endpoint had it ready only after the receiver
 * closed the connection (`closed`), or after the receiver had answered its callback non-2xx, the
 * query still open (`replied`: it stopped waiting), or the endpoint read the query only after its
 * event loop had been blocked `stalledMs`, the receiver's close come with it (`unread`).
 * `answerAfterMs` and `gaveUpAfterMs` count from the query's reading.
 */
export type LateAnswer = { answerAfterMs: number; gaveUpAfterMs: number } & ({ how: 'closed' | 'replied' } | { how: 'unread'; stalledMs: number });

/**
 * Whether the receiver gave up on every well-formed query it sent before the endpoint answered
 * it: the delay was the endpoint's (the kit's, a loaded machine's), so what the receiver did
 * after says nothing of it. Undefined when one query was answered in time (the receiver had its
 * answer), when none was well-formed, or when a case held the answer on purpose (its lateness is
 * that case's point). A receiver that acknowledged its callback (2xx) before the answer came
 * replied first: its lateness is its own design, not a giving up.
 */
export function lateForReceiver(queries: readonly ReceivedQuery[], reply: CallbackReply | undefined): LateAnswer | undefined {
  const good = queries.filter((q) => !q.problem && q.heldMs === undefined);
  let late: LateAnswer | undefined;
  for (const q of good) {
    const a = q.answer;
    if (a.kind === 'abandoned' && a.unread) {
      late ??= { how: 'unread', answerAfterMs: a.answerAfterMs ?? a.afterMs, gaveUpAfterMs: a.afterMs, stalledMs: a.unread.stalledMs };
      continue;
    }
    if (a.kind === 'abandoned' && a.answerAfterMs !== undefined) {
      late ??= { how: 'closed', answerAfterMs: a.answerAfterMs, gaveUpAfterMs: a.afterMs };
      continue;
    }
    if (a.kind === 'answered' && reply && !reply.acknowledged && q.at <= reply.at && q.at + a.afterMs > reply.at) {
      late ??= { how: 'replied', answerAfterMs: a.afterMs, gaveUpAfterMs: Math.round(reply.at - q.at) };
      continue;
    }
    return undefined;
  }
  return late;
}

/** The words for a LateAnswer: the kit's endpoint named, and the delay called its own. */
export function lateAnswerWords(late: LateAnswer, replied: string): string {
  const kits = 'the delay is the kit\'s (a loaded machine?), not the receiver\'s, so what the receiver did with this callback is not judged';
  if (late.how === 'unread') {
    return `the harness's status endpoint read the receiver's status query only after its own event loop had been blocked ${late.stalledMs} ms, and by then the receiver had closed the connection (given up on its query) and ${replied}: ${kits}`;
  }
  const gaveUp = late.how === 'closed'
    ? `after the receiver had given up on its query (it closed the connection after ${late.gaveUpAfterMs} ms) and ${replied}`
    : `after the receiver had stopped waiting and ${replied} (${late.gaveUpAfterMs} ms after its query)`;
  return `the harness's status endpoint answered after ${late.answerAfterMs} ms, ${gaveUp}: ${kits}`;
}
