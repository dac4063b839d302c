// Routing and the checks every API call shares, in this documented order:
//  1. path (404 NOT_FOUND), method (405 METHOD_NOT_ALLOWED)
//  2. source IP against the whitelist (403 IP_NOT_WHITELISTED): before anything about the
//     request itself, so a valid signature from a bad address is still refused (§5.4)
//  3. Content-Type (415), body size (413), UTF-8 (400 INVALID_ENCODING)
//  4. Authorization header present and well-formed (401)
//  5. body is one JSON object without duplicate keys (400 INVALID_BODY / DUPLICATE_KEY)
//  6. client_key known (401 UNKNOWN_CLIENT_KEY), signature over the raw body (401 INVALID_SIGNATURE)
//  7. the endpoint's own checks (collect.ts, transaction-status.ts)
// Bad input never gets a 5xx: every refusal is a Rejection with a 4xx status (answered as HTTP
// 200 with a numeric error_code under config rejectionStyle "ok-with-error-code").
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimulatorContext } from './context.ts';
import { normaliseAddress } from './config.ts';
import { checkSource, readAuthorization, findClient, checkSignature, withKeyClientId, clientNamedByBody } from './auth.ts';
import { STATUS_POSITION } from '../status/index.ts';
import { checkContentType, decodeUtf8 } from './http-body.ts';
import { readBody, type BodyRead } from '../http/index.ts';
import { readJsonMembers } from './json-body.ts';
import { handleCollect, type Accepted, type SignedRequest } from './collect.ts';
import { handleTransactionStatus } from './transaction-status.ts';
import { Rejection, rejectionAnswer } from './rejections.ts';

export const COLLECT_PATH = '/api/v1.0/collect/';
/** §4.2 as the suite takes it (harness/status): the path is not in the spec. */
export const TRANSACTION_STATUS_PATH = STATUS_POSITION.path;

type Handler = (ctx: SimulatorContext, request: SignedRequest) => Accepted;

const ROUTES: ReadonlyMap<string, Handler> = new Map([
  [COLLECT_PATH, handleCollect],
  [TRANSACTION_STATUS_PATH, handleTransactionStatus],
]);

export async function route(ctx: SimulatorContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const source = normaliseAddress(req.socket.remoteAddress);
  const target = req.url ?? '/';
  const qAt = target.indexOf('?');
  const path = qAt === -1 ? target : target.slice(0, qAt);
  const logPath = target.length > 200 ? `${target.slice(0, 200)}…` : target;
  const method = req.method ?? '?';
  const body = await readBody(req, { limit: ctx.config.maxBodyBytes });
  // Cut off, or the client gone: answered 413 with the connection closed.
  const closing = body.kind === 'cut-off' || body.kind === 'aborted';
  let status: number;
  try {
    const accepted = check(ctx, req, path, body);
    status = 200;
    send(res, 200, JSON.stringify(accepted.body));
    ctx.log.request({ source, method, path: logPath, status, verdict: 'accepted', reason: accepted.reason });
  } catch (error) {
    const rejection = error instanceof Rejection
      ? error
      : new Rejection('INTERNAL_ERROR', 'internal error in the simulator', error instanceof Error ? error.stack : String(error));
    const answer = rejectionAnswer(rejection, ctx.config.rejectionStyle);
    status = answer.status;
    const headers: Record<string, string> = {};
    if (rejection.code === 'METHOD_NOT_ALLOWED') headers['allow'] = 'POST';
    if (closing) headers['connection'] = 'close';
    send(res, status, answer.body, headers);
    const reason = rejection.logDetail ? `${rejection.message} (${rejection.logDetail})` : rejection.message;
    ctx.log.request({ source, method, path: logPath, status, verdict: rejection.code, reason });
  }
  if (closing) res.once('finish', () => req.socket.destroySoon());
}

function check(ctx: SimulatorContext, req: IncomingMessage, path: string, body: BodyRead): Accepted {
  const handler = ROUTES.get(path);
  if (!handler) throw new Rejection('NOT_FOUND', `no endpoint at ${path.slice(0, 100)}; the API lives at ${COLLECT_PATH} and ${TRANSACTION_STATUS_PATH}`);
  if (req.method !== 'POST') throw new Rejection('METHOD_NOT_ALLOWED', `${path} takes POST, not ${req.method}`);
  // Faults `status-ip-unchecked` and `status-unsigned`: the status endpoint left outside the checks collect gets.
  const statusQuery = path === TRANSACTION_STATUS_PATH;
  if (!(statusQuery && ctx.faults.has('status-ip-unchecked'))) {
    checkSource(req.socket.remoteAddress, ctx.sources, ctx.faults, req.headers['x-forwarded-for']);
  }
  checkContentType(req.headers['content-type']);
  if (body.kind !== 'ok') {
    throw new Rejection('BODY_TOO_LARGE', `the body exceeds ${ctx.config.maxBodyBytes} bytes`);
  }
  const text = decodeUtf8(body.bytes);
  if (statusQuery && ctx.faults.has('status-unsigned')) {
    const members = readJsonMembers(text);
    return handler(ctx, { members, client: clientNamedByBody(ctx.config.clients, members) });
  }
  const enqueued = path === COLLECT_PATH && ctx.faults.has('enqueues-before-verifying') ? enqueueUnverified(ctx, text) : undefined;
  // headersDistinct: Node's `headers` keeps only the first of two Authorization lines.
  const auth = readAuthorization(req.headersDistinct['authorization'], ctx.faults);
  const parsed = readJsonMembers(text);
  const client = findClient(ctx.config.clients, auth, parsed, ctx.faults);
  const members = withKeyClientId(parsed, client, ctx.faults);
  checkSignature(text, members, client.secretKey, auth, ctx.faults);
  return enqueued ?? handler(ctx, { members, client });
}

/**
 * Fault `enqueues-before-verifying`: the collect is stored and its callback scheduled for the
 * client its body names before the Authorization header and the signature are looked at (a
 * controller that queues the job first). Undefined when the body's own checks refuse it (a
 * number not whitelisted, no such client): then nothing was queued and the checks decide.
 */
function enqueueUnverified(ctx: SimulatorContext, text: string): Accepted | undefined {
  try {
    const members = readJsonMembers(text);
    return handleCollect(ctx, { members, client: clientNamedByBody(ctx.config.clients, members) });
  } catch (error) {
    if (error instanceof Rejection) return undefined;
    throw error;
  }
}

function send(res: ServerResponse, status: number, json: string, extra: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json), ...extra });
  res.end(json);
}
