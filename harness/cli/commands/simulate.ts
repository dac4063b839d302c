// `collect-conformance simulate`: the reference service as a local sandbox (DESIGN.md "simulate").
// Prints exactly one line on stdout, `listening on <URL>`; everything else goes to stderr.
import { Command, InvalidArgumentError } from 'commander';
import type { SetExitCode } from '../command.ts';
import { UsageError } from '../../tool/index.ts';
import { clientIdFrom, refuseUnusableSecrets } from '../secret-env.ts';
import {
  startSimulator, credentialsFromEnv, loadSimulatorConfigFile, sandboxNumbersFromEnv, isSimulatorFault,
  SIMULATOR_FAULTS, SimulatorConfigError, type SimulatorConfig, type SimulatorFault,
} from '../../simulator/index.ts';

interface SimulateOptions {
  config?: string;
  host: string;
  port: number;
  listFaults?: boolean;
  fault: string[];
  timeScale?: number;
}

export function simulateCommand(setExitCode: SetExitCode): Command {
  return new Command('simulate')
    .description('run the reference service (collect, transaction_status, callbacks) as a local sandbox')
    .option('--config <file>', 'config file (JSON, see harness/simulator/config.schema.json)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on, 0 for any free port', parsePort, 0)
    .option('--list-faults', 'list the fault switches and exit')
    .option('--fault <name>', 'switch a fault on (repeatable; see --list-faults)', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--time-scale <x>', 'multiply every delay (1 is real time; 0.01 makes seconds into 10 ms)', parseScale)
    .action(async (options: SimulateOptions) => {
      if (options.listFaults) {
        process.stdout.write(formatFaults());
        return;
      }
      await simulate(options, process.env);
      setExitCode(0);
    });
}

export function formatFaults(): string {
  const width = Math.max(...SIMULATOR_FAULTS.map((f) => f.name.length));
  return SIMULATOR_FAULTS.map((f) => `${f.name.padEnd(width)}  ${f.specRef.padEnd(22)}  ${f.description}\n`).join('');
}

/** Starts the simulator and resolves once it has stopped (SIGINT or SIGTERM). */
async function simulate(options: SimulateOptions, env: NodeJS.ProcessEnv): Promise<void> {
  let fileConfig: Partial<SimulatorConfig> = {};
  let fileClientId: number | undefined;
  if (options.config) {
    try {
      const loaded = loadSimulatorConfigFile(options.config, env);
      fileConfig = loaded.config;
      fileClientId = loaded.clientId;
    } catch (error) {
      if (error instanceof SimulatorConfigError) throw new UsageError(error.message, error.code);
      throw error;
    }
  }
  const unknown = options.fault.filter((f) => !isSimulatorFault(f));
  if (unknown.length > 0) {
    throw new UsageError(`--fault: unknown fault ${unknown.join(', ')} (see --list-faults)`, 'ERR_SIMULATOR_CONFIG');
  }
  const clientId = clientIdFrom(env, fileClientId, 'ERR_SIMULATOR_CONFIG');
  refuseUnusableSecrets(env, ['COLLECT_CLIENT_KEY', 'COLLECT_SECRET_KEY', 'COLLECT_CALLBACK_TOKEN']);
  const credentials = credentialsFromEnv(env, clientId);
  const config: Partial<SimulatorConfig> = {
    ...fileConfig,
    clients: credentials.clients,
    callbackToken: credentials.callbackToken,
    whitelist: fileConfig.whitelist ?? { sources: ['127.0.0.1', '::1'], customerNumbers: sandboxNumbersFromEnv(env) },
    faults: [...new Set<SimulatorFault>([...(fileConfig.faults ?? []), ...(options.fault as SimulatorFault[])])],
    ...(options.timeScale !== undefined ? { timeScale: options.timeScale } : {}),
  };
  if (credentials.generated.length > 0) {
    // Printed once, deliberately: these are throw-away test values for this run only.
    const client = credentials.clients[0]!;
    process.stderr.write(
      'test credentials for this run (generated, not real; set COLLECT_CLIENT_KEY, COLLECT_SECRET_KEY and COLLECT_CALLBACK_TOKEN to choose them):\n' +
      `  client_id=${client.clientId}\n` +
      (credentials.generated.includes('client_key') ? `  client_key=${client.clientKey}\n` : '') +
      (credentials.generated.includes('secret_key') ? `  secret_key=${client.secretKey}\n` : '') +
      (credentials.generated.includes('callback_token') ? `  callback_token=${credentials.callbackToken}\n` : ''),
    );
  }
  let sim;
  try {
    sim = await startSimulator(config, { host: options.host, port: options.port }, {
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    if (error instanceof SimulatorConfigError) throw new UsageError(error.message, error.code);
    throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`, 'ERR_LISTEN');
  }
  const running = sim;
  const mode = running.config.mode;
  process.stderr.write(
    `simulate: ${mode} mode, client_id ${clientId}, sources ${running.config.whitelist.sources.join(' ')}, ` +
    `numbers ${running.config.whitelist.customerNumbers.join(' ') || '(none)'}, ` +
    `time scale ${running.config.timeScale}${running.config.faults.length ? `, faults ${running.config.faults.join(' ')}` : ''}\n`,
  );
  // Handlers before the line: a supervisor may signal as soon as it reads it, and a signal
  // with no handler yet would kill the process with in-flight callbacks unreported.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write(`simulate: ${signal}, stopping (finishing callbacks on the wire)\n`);
      void running.close().then(() => {
        process.stderr.write('simulate: stopped\n');
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(`listening on ${running.url}\n`);
  await stopped;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return n;
}

function parseScale(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('the time scale is a number above 0');
  return n;
}
