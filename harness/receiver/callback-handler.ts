// The callback endpoint of §4.3, following the receiver rules of §6.
//
// Answers (fault-free):
//   405  a method other than GET (Allow: GET)
//   403  X-Callback-Token absent, different, or sent more than once; nothing changes
//   400  transaction_id absent, or status not exactly SUCCESS / FAILED; nothing changes
//   400  transaction_id not of the configured shape (config transactionIds); nothing changes
//   404  transaction_id the receiver does not hold; nothing changes
//   200  {"result":"applied"}   the record was pending and now holds the outcome
//   200  {"result":"duplicate"} the record was no longer pending; nothing changes
//   409  confirming (config confirms): the status endpoint answers another status, or does not know the id
//   503  confirming: the status endpoint gave no usable answer (5xx, none, its time limit); nothing changes
//   503  shedding (config shedding): too many callbacks wait for a connection; Retry-After; nothing changes
// The 200 goes out before the fulfilment work (workMs x timeScale) starts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseAlternative, parseCallbackQuery, queryOf, type ParsedCallbackQuery } from '../callback/index.ts';
import { matchesShape } from '../ids/index.ts';
import { confirmOutcome, needsConfirmation } from './confirm.ts';
import type { ReceiverContext } from './context.ts';
import { errorBody, sendJson } from './http.ts';
import type { ApplyPolicy } from './records.ts';
import type { ApplyResult } from './store.ts';
import { checkToken, tokenLines } from './token.ts';
import { sleep } from './volume.ts';

const CALLBACK_PARAMS = new Set(['transaction_id', 'status', 'message']);
const PARSE_FAULTS = ['no-percent-decoding', 'plus-not-space', 'decode-before-split'] as const;

/** Fault `strict-message-charset`: an input "sanitiser" far narrower than what §6 lets message hold. */
const NARROW_MESSAGE = /^[A-Za-z0-9 .,:-]*$/;

/** Fault `inverted-status`: the two outcomes swapped, as a flipped boolean would. */
const INVERTED: Readonly<Record<'SUCCESS' | 'FAILED', 'SUCCESS' | 'FAILED'>> = { SUCCESS: 'FAILED', FAILED: 'SUCCESS' };

interface Decision {
  status: number;
  result: string;
  body: unknown;
  /** True when an outcome was applied (fulfilment work follows). */
  applied: boolean;
  /** A 503 of the shedding mode: its Retry-After, in seconds. */
  retryAfterS?: number;
}

function parse(target: string, ctx: ReceiverContext): ParsedCallbackQuery {
  // The parsing faults are the labelled wrong parsers of harness/callback.
  const parseFault = PARSE_FAULTS.find((f) => ctx.faults.has(f));
  if (parseFault) return parseAlternative(parseFault).parse(target);
  return parseCallbackQuery(target);
}

function refuse(status: number, code: string, message: string): Decision {
  return { status, result: code, body: errorBody(code, message), applied: false };
}

/** Everything after the token check: which state to apply, and applying it. */
async function decide(params: ParsedCallbackQuery, ctx: ReceiverContext): Promise<Decision> {
  const { faults, store } = ctx;
  const firstName = params.all[0]?.[0];
  if (faults.has('rejects-existing-query') && firstName !== undefined && firstName !== 'transaction_id') {
    return refuse(400, 'ERR_UNEXPECTED_QUERY', `query must start with transaction_id (got ${JSON.stringify(firstName)})`);
  }
  if (faults.has('rejects-extra-params')) {
    const extra = params.all.find(([name]) => !CALLBACK_PARAMS.has(name));
    if (extra) return refuse(400, 'ERR_UNKNOWN_PARAMETER', `unknown parameter ${JSON.stringify(extra[0])}`);
  }
  if (faults.has('strict-message-charset') && params.message !== undefined && !NARROW_MESSAGE.test(params.message)) {
    return refuse(400, 'ERR_INVALID_MESSAGE', `message holds characters outside ${NARROW_MESSAGE.source}`);
  }
  const id = params.transaction_id;
  if (id === undefined && faults.has('crash-on-missing-id')) return refuse(500, 'ERR_INTERNAL', 'Cannot read properties of undefined (reading \'trim\')');
  if (id === undefined) return refuse(400, 'ERR_MISSING_TRANSACTION_ID', 'transaction_id is missing');
  const shape = ctx.config.transactionIds;
  if (shape && !matchesShape(shape, id)) {
    return refuse(400, 'ERR_MALFORMED_TRANSACTION_ID', `transaction_id ${JSON.stringify(id)} is not of the form ${shape.template}${shape.maxLength ? ` (at most ${shape.maxLength} characters)` : ''}`);
  }

  let state: string;
  if (faults.has('status-ignored')) {
    state = 'SUCCESS';
  } else if (params.status === 'SUCCESS' || params.status === 'FAILED') {
    state = faults.has('inverted-status') ? INVERTED[params.status] : params.status;
  } else if (faults.has('not-success-as-failed')) {
    state = 'FAILED';
  } else if (faults.has('unknown-status-applied') && params.status !== undefined) {
    state = params.status;
  } else {
    return refuse(400, 'ERR_UNKNOWN_STATUS', params.status === undefined
      ? 'status is missing'
      : `status must be SUCCESS or FAILED (got ${JSON.stringify(params.status)})`);
  }

  const unconfirmed = await confirmBeforeApplying(id, state, ctx);
  if (unconfirmed) return unconfirmed;

  // Fault recent-ids-dedupe: an id in the cache is a duplicate, any other is written unconditionally.
  if (faults.has('recent-ids-dedupe') && ctx.volume.recent.seenOrAdd(id)) {
    return { status: 200, result: 'duplicate (recent id)', body: { result: 'duplicate' }, applied: false };
  }
  // Fault dropping-work-queue: answered 200 at once, applied later by the queue's worker, or never.
  if (faults.has('dropping-work-queue')) {
    const queued = ctx.volume.queue.offer(() => store.apply(id, state, 'if-pending'));
    return { status: 200, result: queued ? 'queued' : 'dropped (queue full)', body: { result: 'queued' }, applied: false };
  }
  const policy: ApplyPolicy = faults.has('racy-idempotence') ? { racy: racyRoundTripMs(ctx) }
    : faults.has('not-idempotent') || faults.has('recent-ids-dedupe') ? 'always'
    : faults.has('failed-not-final') ? 'unless-success'
    : 'if-pending';
  const outcome: ApplyResult = await store.apply(id, state, policy);

  switch (outcome.kind) {
    case 'unknown':
      if (faults.has('unknown-id-created')) {
        await store.createApplied(id, state);
        return { status: 200, result: 'applied (created)', body: { result: 'applied' }, applied: true };
      }
      return refuse(404, 'ERR_UNKNOWN_TRANSACTION', `no transaction ${JSON.stringify(id)}`);
    case 'duplicate':
      if (faults.has('500-on-duplicate')) return refuse(500, 'ERR_ALREADY_PROCESSED', 'transaction already processed');
      if (faults.has('409-on-conflict') && outcome.record.state !== state) return refuse(409, 'ERR_CONFLICT', `transaction already ${outcome.record.state}`);
      return { status: 200, result: 'duplicate', body: { result: 'duplicate', state: outcome.record.state }, applied: false };
    case 'applied':
      if (faults.has('error-after-applying')) return { ...refuse(500, 'ERR_INTERNAL', 'notification failed after the payment was recorded'), applied: true };
      return { status: 200, result: 'applied', body: { result: 'applied', state: outcome.record.state }, applied: true };
  }
}

/**
 * §6 rule 5 (config `confirms`): the outcome for a pending record is applied only once the
 * service's status endpoint confirms it; undefined when it may be applied. Duplicates and unknown
 * ids are answered as before, without a query. The pending check is made again when applying,
 * so concurrent duplicates that were both confirmed still apply once.
 */
async function confirmBeforeApplying(id: string, state: string, ctx: ReceiverContext): Promise<Decision | undefined> {
  if (!needsConfirmation(state, ctx) || (await ctx.store.get(id))?.state !== 'pending') return undefined;
  const confirmation = await confirmOutcome(id, state, ctx);
  switch (confirmation.kind) {
    case 'confirmed':
      return undefined;
    case 'contradicted':
      return refuse(409, 'ERR_NOT_CONFIRMED', `the status endpoint answers ${confirmation.answered} for this transaction, not ${state}`);
    case 'unavailable':
      if (ctx.faults.has('applies-when-status-unavailable')) return undefined;                     // fault: fails open
      if (ctx.faults.has('unconfirmed-acknowledged')) return { status: 200, result: 'not confirmed (answered 200)', body: { result: 'not confirmed' }, applied: false };
      return refuse(503, 'ERR_STATUS_UNAVAILABLE', `the outcome could not be confirmed (the status query: ${confirmation.why})`);
  }
}

/**
 * The work between reading pending and writing the state (in memory, a simulated database
 * round trip; with a SQL store, real statements around it): long enough for concurrent
 * duplicates to overlap.
 */
function racyRoundTripMs(ctx: ReceiverContext): number {
  return Math.max(50, 100 * ctx.config.timeScale);
}

/**
 * Fault pool-held-before-reply and the shedding mode: the decision is taken holding one of the
 * pool's connections for holdMs; shedding answers 503 + Retry-After when too many wait for one.
 */
async function decideOnPool(params: ParsedCallbackQuery, ctx: ReceiverContext): Promise<Decision> {
  if (!ctx.faults.has('pool-held-before-reply') && !ctx.config.shedding) return decide(params, ctx);
  const { pool, config } = ctx.volume;
  if (ctx.config.shedding && pool.waiting >= config.shedAbove) {
    return { ...refuse(503, 'ERR_BUSY', `${pool.waiting} callbacks wait for a connection; retry after ${config.retryAfterS} s`), retryAfterS: config.retryAfterS };
  }
  const release = await pool.acquire();
  try {
    const decision = await decide(params, ctx);
    await sleep(config.holdMs);
    return decision;
  } finally {
    release();
  }
}

export async function handleCallback(req: IncomingMessage, res: ServerResponse, path: string, ctx: ReceiverContext): Promise<void> {
  const target = req.url ?? '';
  const rawQuery = queryOf(target);
  const method = req.method ?? '';
  req.resume(); // a GET body is ignored, but drained so the connection can be reused

  if (ctx.faults.has('refuses-get') && method === 'GET') {
    sendJson(res, 405, errorBody('ERR_METHOD_NOT_ALLOWED', 'callbacks are POST'), { allow: 'POST' });
    ctx.log({ area: 'callback', method, path, rawQuery, status: 405, result: 'method not allowed (fault refuses-get)' });
    return;
  }
  if (method !== 'GET') {
    sendJson(res, 405, errorBody('ERR_METHOD_NOT_ALLOWED', `callbacks are GET (got ${method})`), { allow: 'GET' });
    ctx.log({ area: 'callback', method, path, rawQuery, status: 405, result: 'method not allowed' });
    return;
  }

  const workMs = ctx.config.workMs * ctx.config.timeScale;
  const token = checkToken(tokenLines(req.rawHeaders), ctx.config.callbackToken, ctx.faults);
  const params = parse(target, ctx);

  if (token !== 'ok') {
    let result = 'no action';
    if (ctx.faults.has('act-then-403')) {
      const acted = await decide(params, ctx);                       // fault: acts first
      if (acted.applied) void ctx.work.run(workMs);
      result = `${acted.result} (then refused)`;
    }
    const status = ctx.faults.has('status-401') ? 401 : 403;
    sendJson(res, status, errorBody('ERR_CALLBACK_TOKEN', `X-Callback-Token ${token}`));
    ctx.log({ area: 'callback', method, path, rawQuery, token, status, result });
    return;
  }

  const decision = await decideOnPool(params, ctx);
  if (decision.applied) {
    const work = ctx.work.run(workMs);
    if (ctx.faults.has('slow-reply')) await work;                    // fault: work before reply
  }
  sendJson(res, decision.status, decision.body, decision.retryAfterS !== undefined ? { 'retry-after': String(decision.retryAfterS) } : undefined);
  ctx.log({ area: 'callback', method, path, rawQuery, token, status: decision.status, result: decision.result });
}
