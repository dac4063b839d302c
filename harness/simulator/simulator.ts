// startSimulator: the reference service on http(s), 127.0.0.1 port 0 unless told otherwise.
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { Agent } from 'undici';
import { Redactor } from '../secrets/index.ts';
import { resolveConfig, type SimulatorConfig } from './config.ts';
import { generateCredentials } from './credentials.ts';
import { FaultSet, isSimulatorFault } from './faults.ts';
import { SimulatorConfigError } from './config-file.ts';
import { TransactionStore } from './store.ts';
import { CallbackDispatcher } from './callback-dispatcher.ts';
import { createLog, type LogSink } from './log.ts';
import { sourceSet, type SimulatorContext } from './context.ts';
import { route } from './router.ts';
import { listenOn, originOf } from '../tool/index.ts';

export interface RunningSimulator {
  url: string;
  config: SimulatorConfig;
  close(): Promise<void>;
}

export interface SimulatorOptions {
  /** One line per request and per callback event, already redacted. Silent when absent. */
  log?: LogSink;
}

export async function startSimulator(
  partial: Partial<SimulatorConfig> = {},
  listen: { host?: string; port?: number } = {},
  options: SimulatorOptions = {},
): Promise<RunningSimulator> {
  const config = resolveConfig(partial, () => generateCredentials());
  const unknown = config.faults.filter((f) => !isSimulatorFault(f));
  if (unknown.length > 0) throw new SimulatorConfigError(`/faults: unknown fault ${unknown.map((f) => JSON.stringify(f)).join(', ')}`);
  if (config.clients.length === 0) throw new SimulatorConfigError('/clients: at least one client is needed');

  const redactor = new Redactor([config.callbackToken, ...config.clients.flatMap((c) => [c.clientKey, c.secretKey])]);
  const log = createLog(options.log, redactor);
  const faults = new FaultSet(config.faults);
  const store = new TransactionStore();
  const agent = new Agent(config.callbackCa.length > 0 ? { connect: { ca: config.callbackCa } } : {});
  const callbacks = new CallbackDispatcher(config, faults, store, agent, log);
  const ctx: SimulatorContext = {
    config, faults, store, callbacks, agent, log,
    sources: sourceSet(config),
    customerNumbers: new Set(config.whitelist.customerNumbers),
  };

  const handler = (req: Parameters<typeof route>[1], res: Parameters<typeof route>[2]) => {
    route(ctx, req, res).catch((error: unknown) => {
      log.event(`request failed: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"success":false,"error_code":"INTERNAL_ERROR","error_message":"internal error in the simulator"}');
    });
  };
  const server: Server = config.tls
    ? createHttpsServer({ key: config.tls.key, cert: config.tls.cert }, handler)
    : createHttpServer(handler);
  server.on('clientError', (_error, socket) => {
    // Malformed HTTP: answer 400 rather than dropping silently, never a 5xx.
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  const host = listen.host ?? '127.0.0.1';
  const address = await listenOn(server, listen.port ?? 0, host);
  const url = originOf(address, config.tls ? 'https' : 'http');

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const abandoned = await callbacks.close();
      if (abandoned.length > 0) log.event(`shutdown: ${abandoned.length} scheduled callback step(s) abandoned`);
      // Requests still being answered get a moment; then connections are cut.
      const timer = setTimeout(() => server.closeAllConnections(), 2000);
      await stopped;
      clearTimeout(timer);
      await agent.close();
    })();
    return closing;
  };
  return { url, config, close };
}
