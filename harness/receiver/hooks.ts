// The test hooks of DESIGN.md, so that a conformance run can see what the receiver *did*.
//
//   POST {hooks}/transactions  {"transaction_id": "…", "amount": "10.00"}
//     201 the pending record · 400 bad body (or id over 1024 characters) · 409 id already held ·
//     413 body over 64 KiB. At most 100,000 records: beyond that the oldest is forgotten.
//   GET  {hooks}/transactions/{percent-encoded id}
//     200 {"transaction_id", "state", "actions"} · 404 unknown id · 400 malformed %-encoding
//   POST {hooks}/transactions/read  {"transaction_ids": ["…", …]}   (at most 1000; a storm reads many at once)
//     200 {"records": [{"transaction_id", "state", "actions"} or null (not held), in the order asked]} · 400 bad body · 413
//   other methods: 405 with Allow.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReceiverContext } from './context.ts';
import { errorBody, sendJson } from './http.ts';
import { readBody } from '../http/index.ts';
import { SqlStoreInputError } from './sql-store.ts';
import { MAX_ID_LENGTH } from './store.ts';

export const HOOKS_BODY_LIMIT = 64 * 1024;

export function isHooksPath(path: string, ctx: ReceiverContext): boolean {
  const base = `${ctx.config.hooksPath}/transactions`;
  return ctx.config.hooks && (path === base || path.startsWith(`${base}/`));
}

type SeedBody = { transaction_id: string; amount: string };

function checkSeedBody(value: unknown): SeedBody | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'body must be a JSON object';
  const body = value as Record<string, unknown>;
  if (typeof body.transaction_id !== 'string' || body.transaction_id === '') return 'transaction_id must be a non-empty string';
  if (body.transaction_id.length > MAX_ID_LENGTH) return `transaction_id must be at most ${MAX_ID_LENGTH} characters`;
  if (typeof body.amount !== 'string') return 'amount must be a string (e.g. "10.00")';
  return { transaction_id: body.transaction_id, amount: body.amount };
}

export async function handleHooks(req: IncomingMessage, res: ServerResponse, path: string, ctx: ReceiverContext): Promise<void> {
  const method = req.method ?? '';
  const base = `${ctx.config.hooksPath}/transactions`;
  const done = (status: number, body: unknown, result: string, headers?: Record<string, string>) => {
    sendJson(res, status, body, headers);
    ctx.log({ area: 'hooks', method, path, rawQuery: '', status, result });
  };

  if (path === base) {
    if (method !== 'POST') {
      req.resume();
      return done(405, errorBody('ERR_METHOD_NOT_ALLOWED', `use POST (got ${method})`), 'method not allowed', { allow: 'POST' });
    }
    const parsed = await jsonBody(req, done);
    if (parsed === NO_BODY) return;
    const seed = checkSeedBody(parsed);
    if (typeof seed === 'string') return done(400, errorBody('ERR_BAD_BODY', seed), 'bad body');
    let record;
    try {
      record = await ctx.store.seed(seed.transaction_id, seed.amount);
    } catch (error) {
      // A SQL store takes only amounts its column can hold.
      if (error instanceof SqlStoreInputError) return done(400, errorBody('ERR_BAD_BODY', error.message), 'bad body');
      throw error;
    }
    if (!record) {
      return done(409, errorBody('ERR_TRANSACTION_EXISTS', `transaction ${JSON.stringify(seed.transaction_id)} already held`), 'exists');
    }
    return done(201, { ...record }, 'seeded');
  }

  if (path === `${base}/read` && method === 'POST') return readMany(req, ctx, done);
  req.resume();
  if (method !== 'GET') {
    return done(405, errorBody('ERR_METHOD_NOT_ALLOWED', `use GET (got ${method})`), 'method not allowed', { allow: 'GET' });
  }
  // The id is one percent-encoded segment; it may hold any character, '/' included (%2F).
  let id: string;
  try {
    id = decodeURIComponent(path.slice(base.length + 1));
  } catch {
    return done(400, errorBody('ERR_BAD_ID', 'transaction id is not valid percent-encoding'), 'bad id');
  }
  const record = await ctx.store.get(id);
  if (!record) return done(404, errorBody('ERR_UNKNOWN_TRANSACTION', `no transaction ${JSON.stringify(id)}`), 'unknown');
  return done(200, { transaction_id: record.transaction_id, state: record.state, actions: record.actions }, 'found');
}

/** The most ids one POST {hooks}/transactions/read names. */
export const READ_MANY_LIMIT = 1000;

type Done = (status: number, body: unknown, result: string, headers?: Record<string, string>) => void;

/** Said when the body was already answered (413, 400) or the client went away. */
const NO_BODY = Symbol('no body');

/** The request's JSON body, or NO_BODY once a body over the limit (413) or not JSON (400) is answered. */
async function jsonBody(req: IncomingMessage, done: Done): Promise<unknown> {
  // Reading stops past the limit (drainCap = limit): 413 and the connection closed.
  const read = await readBody(req, { limit: HOOKS_BODY_LIMIT, drainCap: HOOKS_BODY_LIMIT });
  if (read.kind !== 'ok') {
    if (read.kind !== 'aborted') done(413, errorBody('ERR_BODY_TOO_LARGE', `body over ${HOOKS_BODY_LIMIT} bytes`), 'too large', { connection: 'close' });
    return NO_BODY;
  }
  try {
    return JSON.parse(read.bytes.toString('utf8')) as unknown;
  } catch {
    done(400, errorBody('ERR_BAD_BODY', 'body is not JSON'), 'bad body');
    return NO_BODY;
  }
}

/** POST {hooks}/transactions/read: many records in one request, null for an id not held. */
async function readMany(req: IncomingMessage, ctx: ReceiverContext, done: Done): Promise<void> {
  const parsed = await jsonBody(req, done);
  if (parsed === NO_BODY) return;
  const ids = (parsed as { transaction_ids?: unknown } | null)?.transaction_ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > READ_MANY_LIMIT || !ids.every((id) => typeof id === 'string')) {
    return done(400, errorBody('ERR_BAD_BODY', `transaction_ids must be an array of 1 to ${READ_MANY_LIMIT} strings`), 'bad body');
  }
  const records = [];
  for (const id of ids as string[]) {
    const record = await ctx.store.get(id);
    records.push(record ? { transaction_id: record.transaction_id, state: record.state, actions: record.actions } : null);
  }
  return done(200, { records }, `read ${records.length}`);
}
