// Starting, routing and stopping the reference receiver.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Redactor } from '../secrets/index.ts';
import { handleCallback } from './callback-handler.ts';
import { resolveReceiverConfig, type ReceiverConfig, type ReceiverConfigInput } from './config.ts';
import type { ReceiverContext } from './context.ts';
import { handleHooks, isHooksPath } from './hooks.ts';
import { errorBody, sendJson } from './http.ts';
import { requestLogger, stderrSink } from './log.ts';
import { parseDatabaseUrl } from '../database/index.ts';
import { memoryStore } from './records.ts';
import { openSqlStore } from './sql-store.ts';
import { volumeOf } from './volume.ts';
import { WorkTracker } from './work.ts';
import { listenOn } from '../tool/index.ts';

export interface RunningReceiver {
  /** Base URL as bound, e.g. http://127.0.0.1:40123 */
  url: string;
  /** url + callbackPath */
  callbackUrl: string;
  /** url + hooksPath; '' when hooks are off */
  hooksUrl: string;
  /** The resolved configuration (callbackToken included: keep it out of output). */
  config: ReceiverConfig;
  /** Stops accepting, finishes in-flight requests and fulfilment work, then closes. */
  close(): Promise<void>;
}

export interface ListenOptions {
  host?: string;
  port?: number;
}

/** Grace period for connections still open once in-flight work is done. */
const CLOSE_GRACE_MS = 1000;

function pathOf(target: string): string {
  const qAt = target.indexOf('?');
  return qAt === -1 ? target : target.slice(0, qAt);
}

function route(req: IncomingMessage, res: ServerResponse, ctx: ReceiverContext): Promise<void> {
  const path = pathOf(req.url ?? '');
  if (path === ctx.config.callbackPath) return handleCallback(req, res, path, ctx);
  if (isHooksPath(path, ctx)) return handleHooks(req, res, path, ctx);
  req.resume();
  sendJson(res, 404, errorBody('ERR_NOT_FOUND', `nothing at ${JSON.stringify(path)}`));
  ctx.log({ area: 'other', method: req.method ?? '', path, rawQuery: '', status: 404, result: 'not found' });
  return Promise.resolve();
}

function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

export async function startReceiver(config: ReceiverConfigInput = {}, listen: ListenOptions = {}): Promise<RunningReceiver> {
  const resolved = resolveReceiverConfig(config);
  const databaseUrl = resolved.store ? parseDatabaseUrl(resolved.store.url) : undefined;
  const redactor = new Redactor([resolved.callbackToken, ...(databaseUrl?.ok ? databaseUrl.value.secrets : [])]);
  const work = new WorkTracker();
  const store = resolved.store ? await openSqlStore(resolved.store) : memoryStore();
  const ctx: ReceiverContext = {
    config: resolved,
    faults: new Set(resolved.faults),
    store,
    work,
    volume: volumeOf(resolved.volume),
    log: requestLogger(resolved.log ?? stderrSink, redactor),
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    route(req, res, ctx).catch((error: unknown) => {
      // A bug, not an answer: still one log line, and a 500 if nothing was sent yet.
      (resolved.log ?? stderrSink)(redactor.text(`${new Date().toISOString()} receiver internal error: ${error instanceof Error ? error.stack : String(error)}`));
      if (!res.headersSent) sendJson(res, 500, errorBody('ERR_INTERNAL', 'internal error'));
      else res.destroy();
    });
  };
  const server: Server = resolved.tls
    ? createHttpsServer({ key: resolved.tls.key, cert: resolved.tls.cert }, onRequest)
    : createHttpServer(onRequest);

  try {
    await listenOn(server, listen.port ?? 0, listen.host ?? '127.0.0.1');
  } catch (error) {
    await store.close();
    throw error;
  }

  const address = server.address() as AddressInfo;
  const url = `${resolved.tls ? 'https' : 'http'}://${urlHost(address)}:${address.port}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    callbackUrl: url + resolved.callbackPath,
    hooksUrl: resolved.hooks ? url + resolved.hooksPath : '',
    config: resolved,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await work.drain();
        await ctx.volume.queue.drain();
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        await closed;
        clearTimeout(force);
        await store.close();
      })();
      return closing;
    },
  };
}
