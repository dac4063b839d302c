import { Command, Option } from 'commander';
import type { SetExitCode } from '../command.ts';
import { UsageError } from '../../tool/index.ts';
import { clientIdFrom, refuseUnusableSecrets } from '../secret-env.ts';
import { DatabaseError } from '../../database/index.ts';
import {
  RECEIVER_FAULTS, ReceiverConfigError, generateTestToken, isReceiverFault, loadReceiverConfigFile, startReceiver,
  type ConfirmsInFile, type ReceiverConfigInput, type ReceiverConfirmConfig, type ReceiverFault,
} from '../../receiver/index.ts';
import { STATUS_POSITION } from '../../status/index.ts';

// `collect-conformance receiver`: the reference receiver (§4.3, §6 receiver rules) standalone,
// so a team can point a service (or the simulator) at a correct receiver, or at a faulty one.

interface ReceiverOptions {
  config?: string;
  host?: string;
  port?: string;
  fault: string[];
  listFaults?: boolean;
  timeScale?: string;
  workMs?: string;
  callbackPath?: string;
  confirms?: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port: must be an integer 0-65535 (got ${JSON.stringify(value)})`);
  return port;
}

function parsePositive(flag: string, value: string, allowZero: boolean): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw new UsageError(`${flag}: must be a number ${allowZero ? '>= 0' : '> 0'} (got ${JSON.stringify(value)})`);
  }
  return n;
}

function listFaults(): void {
  const width = Math.max(...RECEIVER_FAULTS.map((f) => f.name.length));
  const refWidth = Math.max(...RECEIVER_FAULTS.map((f) => f.specRef.length));
  for (const fault of RECEIVER_FAULTS) {
    process.stdout.write(`${fault.name.padEnd(width)}  ${fault.specRef.padEnd(refWidth)}  ${fault.description}\n`);
  }
}

/**
 * Confirming (§6 rule 5): the file's `confirms`, the base URL of --confirms over it, the client's
 * keys from the environment (required: they must be the service's, so none is generated).
 */
function confirmsFrom(file: ConfirmsInFile | undefined, baseUrl: string | undefined): ReceiverConfirmConfig | undefined {
  if (file === undefined && baseUrl === undefined) return undefined;
  const names = ['COLLECT_CLIENT_KEY', 'COLLECT_SECRET_KEY'] as const;
  const missing = names.filter((name) => process.env[name] === undefined);
  if (missing.length > 0) {
    throw new UsageError(`confirming outcomes (--confirms, or confirms in the config file) signs status queries with the client's keys at the service: set ${missing.join(' and ')}`, 'ERR_SECRET_ENV');
  }
  refuseUnusableSecrets(process.env, names);
  const { status, clientId, ...rest } = file ?? {};
  return {
    ...rest,
    baseUrl: baseUrl ?? file!.baseUrl,
    clientId: clientIdFrom(process.env, clientId, 'ERR_RECEIVER_CONFIG'),
    clientKey: process.env.COLLECT_CLIENT_KEY!,
    secretKey: process.env.COLLECT_SECRET_KEY!,
    ...(status ? { status: { ...STATUS_POSITION, ...status } } : {}),
  };
}

async function runReceiver(options: ReceiverOptions): Promise<void> {
  let fileConfig: ReceiverConfigInput = {};
  let listen: { host?: string; port?: number } = {};
  let fileConfirms: ConfirmsInFile | undefined;
  try {
    if (options.config) ({ config: fileConfig, listen, confirms: fileConfirms } = loadReceiverConfigFile(options.config));
  } catch (error) {
    if (error instanceof ReceiverConfigError) throw new UsageError(error.message, error.code);
    throw error;
  }
  const faults: ReceiverFault[] = [...(fileConfig.faults ?? [])];
  for (const name of options.fault) {
    if (!isReceiverFault(name)) throw new UsageError(`--fault: unknown fault ${JSON.stringify(name)} (see --list-faults)`);
    if (!faults.includes(name)) faults.push(name);
  }
  refuseUnusableSecrets(process.env, ['COLLECT_CALLBACK_TOKEN']);
  const envToken = process.env.COLLECT_CALLBACK_TOKEN;
  const generated = envToken === undefined;
  const callbackToken = generated ? generateTestToken() : envToken;
  const config: ReceiverConfigInput = { ...fileConfig, callbackToken, faults };
  const confirms = confirmsFrom(fileConfirms, options.confirms);
  if (confirms) config.confirms = confirms;
  if (options.timeScale !== undefined) config.timeScale = parsePositive('--time-scale', options.timeScale, false);
  if (options.workMs !== undefined) config.workMs = parsePositive('--work-ms', options.workMs, true);
  if (options.callbackPath !== undefined) config.callbackPath = options.callbackPath;
  if (options.host !== undefined) listen.host = options.host;
  if (options.port !== undefined) listen.port = parsePort(options.port);

  let receiver;
  try {
    receiver = await startReceiver(config, listen);
  } catch (error) {
    if (error instanceof ReceiverConfigError) throw new UsageError(error.message, error.code);
    // A store (config file "store") that cannot be opened: no driver, no connection, a refused password.
    if (error instanceof DatabaseError) throw new UsageError(`the receiver's database: ${error.message}`, error.code);
    const errno = error as NodeJS.ErrnoException;
    if (errno.code === 'EADDRINUSE' || errno.code === 'EACCES' || errno.code === 'EADDRNOTAVAIL') {
      throw new UsageError(`cannot listen on ${listen.host ?? '127.0.0.1'}:${listen.port ?? 0} (${errno.code})`, 'ERR_LISTEN');
    }
    throw error;
  }

  // The one test value this process generated is shown once, so the caller can configure the
  // service with it; a token from the environment is never printed.
  if (generated) {
    process.stderr.write(`callback token (generated test value; set COLLECT_CALLBACK_TOKEN to choose one): ${callbackToken}\n`);
  }
  process.stderr.write(`callback URL: ${receiver.callbackUrl}\n`);
  process.stderr.write(receiver.hooksUrl ? `hooks URL: ${receiver.hooksUrl}\n` : 'hooks: off\n');
  if (confirms) {
    const endpoint = confirms.status ?? STATUS_POSITION;
    process.stderr.write(`confirming outcomes (§6 rule 5) with ${endpoint.method} ${confirms.baseUrl.replace(/\/+$/, '')}${endpoint.path} as client ${confirms.clientId}\n`);
  }
  if (faults.length > 0) process.stderr.write(`faults on: ${faults.join(', ')}\n`);
  if (config.store) process.stderr.write(`records kept in the database named by the config file's store (${config.store.mode})\n`);
  process.stdout.write(`listening on ${receiver.url}\n`);

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write(`${signal}: finishing in-flight work, then closing\n`);
      receiver.close().then(() => {
        process.stderr.write('receiver closed\n');
        resolve();
      }, (error: unknown) => {
        process.stderr.write(`receiver close failed: ${String(error)}\n`);
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export function receiverCommand(setExitCode: SetExitCode): Command {
  return new Command('receiver')
    .description('run the reference callback receiver (test hooks included) until SIGINT or SIGTERM')
    .option('--config <file>', 'config file (JSON, see harness/receiver/config.schema.json)')
    .option('--host <host>', 'address to listen on (default: 127.0.0.1)')
    .option('--port <n>', 'port to listen on, 0 for any free port (default: 0)')
    .option('--callback-path <path>', 'where callbacks are served (default: /callback; the hooks stay at /_conformance)')
    .option('--confirms <url>', 'confirm each outcome with the status endpoint of the service at this base URL before applying it (§6 rule 5; keys from COLLECT_CLIENT_KEY and COLLECT_SECRET_KEY, client id from COLLECT_CLIENT_ID, else 2)')
    .addOption(new Option('--fault <name>', 'switch a fault on (repeatable; see --list-faults)').argParser(collect).default([]))
    .option('--list-faults', 'list the fault switches and exit')
    .option('--time-scale <x>', 'multiply every delay (1 is real time; 0.01 makes seconds into 10 ms)')
    .option('--work-ms <n>', 'fulfilment work after each applied outcome, in ms before scaling (default: 5000)')
    .action(async (options: ReceiverOptions) => {
      if (options.listFaults) {
        listFaults();
        setExitCode(0);
        return;
      }
      await runReceiver(options);
      setExitCode(0);
    });
}
