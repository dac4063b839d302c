import { Command, Option } from 'commander';
import { connect } from 'node:net';
import type { SetExitCode } from '../command.ts';
import { UsageError, TargetUnreachableError } from '../../tool/index.ts';
import { Redactor } from '../../secrets/index.ts';
import type { VerifyProviderOptions } from '../../contracts/index.ts';
import { colorFor } from '../color.ts';
import { PLAIN_CHILD_ENV, runWithPlainStdout } from '../plain-output.ts';

// `collect-conformance pact verify`: verifies a user's own implementation against the pact files
// shipped in vectors/pacts/. Pact's native core prints its own report; this command adds one
// summary line and the exit status (0 verified, 1 failed, 2 bad usage, 3 unreachable).
// Secrets come from the environment only, never from arguments (they would show in `ps`).

// The native core otherwise sends usage metrics; set before Pact is loaded (it is imported
// lazily below, after this line has run).
process.env['PACT_DO_NOT_TRACK'] = 'true';

interface VerifyCliOptions {
  side: 'receiver' | 'service';
  baseUrl: string;
  hooksUrl?: string;
  callbackPath?: string;
  clientId?: string;
  callbackUrl?: string;
  whitelistedNumber?: string;
  notWhitelistedNumber?: string;
  pactFile?: string;
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
}

const ENV = {
  token: 'COLLECT_CALLBACK_TOKEN',
  secret: 'COLLECT_SECRET_KEY',
  clientKey: 'COLLECT_CLIENT_KEY',
} as const;

export function pactCommand(setExitCode: SetExitCode): Command {
  const verify = new Command('verify')
    .description('verify a provider against the shipped pact files (vectors/pacts/)')
    .addOption(new Option('--side <side>', 'which provider: receiver (the callback pact) or service (the collect pact)').choices(['receiver', 'service']).makeOptionMandatory())
    .requiredOption('--base-url <url>', 'base URL of the provider under test')
    .option('--hooks-url <url>', 'receiver: base URL of the test hooks (POST {hooks}/transactions); without it states are not seeded')
    .option('--callback-path <path>', 'receiver: path of the callback endpoint (default: /callback)')
    .option('--client-id <n>', 'service: your client_id (default: 2, the pact example)')
    .option('--callback-url <url>', 'service: callback_url sent in collect requests (default: https://merchant.example/…, as in the pact)')
    .option('--whitelisted-number <digits>', 'service: a customer number your sandbox whitelists (default: 0244000001)')
    .option('--not-whitelisted-number <digits>', 'service: a customer number your sandbox refuses (default: 0244999999)')
    .option('--pact-file <file>', 'verify this pact file instead of the shipped one')
    .addOption(new Option('--log-level <level>', 'Pact log level').choices(['trace', 'debug', 'info', 'warn', 'error']).default('warn'))
    .addHelpText('after', `
Secrets are read from the environment: ${ENV.token} (receiver side), ${ENV.clientKey} and
${ENV.secret} (service side). The verifier never sees them: a request filter in this process
puts them into each request (token in place of the pact's placeholder; every collect and status
request re-signed over the exact bytes forwarded).`)
    .exitOverride()
    .action(async (options: VerifyCliOptions) => {
      const plain = !colorFor(process.stdout, process.env) && process.env[PLAIN_CHILD_ENV] === undefined;
      setExitCode(plain ? await runWithPlainStdout(['pact', 'verify', ...argsOf(options)]) : await runVerify(options));
    });
  return new Command('pact').description('Pact contracts: verify a provider against the shipped pacts').addCommand(verify);
}

async function runVerify(options: VerifyCliOptions): Promise<number> {
  const baseUrl = httpUrl('--base-url', options.baseUrl);
  const env = process.env;
  let secrets: string[];
  let verifyOptions: VerifyProviderOptions;
  if (options.side === 'receiver') {
    for (const flag of ['clientId', 'callbackUrl', 'whitelistedNumber', 'notWhitelistedNumber'] as const) {
      if (options[flag] !== undefined) throw new UsageError(`--${kebab(flag)}: only for --side service`);
    }
    const token = required(env, ENV.token, 'the receiver side');
    const callbackPath = options.callbackPath ?? '/callback';
    if (!callbackPath.startsWith('/')) throw new UsageError(`--callback-path: must start with "/" (got ${JSON.stringify(callbackPath)})`);
    secrets = [token];
    verifyOptions = {
      side: 'receiver', baseUrl, callbackToken: token, callbackPath,
      ...(options.hooksUrl !== undefined ? { hooksUrl: httpUrl('--hooks-url', options.hooksUrl) } : {}),
    };
  } else {
    for (const flag of ['hooksUrl', 'callbackPath'] as const) {
      if (options[flag] !== undefined) throw new UsageError(`--${kebab(flag)}: only for --side receiver`);
    }
    const clientKey = required(env, ENV.clientKey, 'the service side');
    const secretKey = required(env, ENV.secret, 'the service side');
    const clientId = options.clientId === undefined ? 2 : Number(options.clientId);
    if (!/^\d+$/.test(options.clientId ?? '2') || !Number.isSafeInteger(clientId)) {
      throw new UsageError(`--client-id: must be a non-negative integer (got ${JSON.stringify(options.clientId)})`);
    }
    for (const flag of ['whitelistedNumber', 'notWhitelistedNumber'] as const) {
      const value = options[flag];
      if (value !== undefined && !/^[0-9]+$/.test(value)) throw new UsageError(`--${kebab(flag)}: must be digits (got ${JSON.stringify(value)})`);
    }
    secrets = [clientKey, secretKey];
    verifyOptions = {
      side: 'service', baseUrl, credentials: { clientId, clientKey, secretKey },
      ...(options.callbackUrl !== undefined ? { callbackUrl: httpUrl('--callback-url', options.callbackUrl) } : {}),
      customerNumbers: {
        ...(options.whitelistedNumber !== undefined ? { whitelisted: options.whitelistedNumber } : {}),
        ...(options.notWhitelistedNumber !== undefined ? { notWhitelisted: options.notWhitelistedNumber } : {}),
      },
    };
  }
  if (options.pactFile !== undefined) verifyOptions.pactFile = options.pactFile;
  if (options.logLevel !== undefined) verifyOptions.logLevel = options.logLevel;

  const { verifyProvider, ContractError } = await loadContracts();
  await ensureReachable(baseUrl);
  const redactor = new Redactor(secrets);
  let outcome: Awaited<ReturnType<typeof verifyProvider>>;
  try {
    outcome = await verifyProvider(verifyOptions);
  } catch (error) {
    if (error instanceof ContractError && error.code === 'ERR_PACT_FILE') throw new UsageError(error.message, error.code);
    throw error;
  }
  const out = (line: string) => process.stdout.write(`${redactor.text(line)}\n`);
  for (const problem of outcome.stateErrors) out(`provider state failed: ${problem}`);
  if (outcome.ok) {
    out(`pact verify: ${options.side} at ${baseUrl} satisfies ${outcome.pactFile}`);
    return 0;
  }
  out(`pact verify: ${options.side} at ${baseUrl} FAILED ${outcome.failures.length} interaction(s) of ${outcome.pactFile}`);
  for (const failure of outcome.failures) out(`  - ${failure}`);
  return 1;
}

/** The package name and range a user installs to verify pacts (docs/command-line.md "Pact contracts"). */
export const PACT_PACKAGE = '@pact-foundation/pact@^16.5';

/**
 * Pact is an optional peer dependency: heavy (a native core, an HTTP stack) and needed by this
 * subcommand alone. Missing, it is a usage error (exit 2) that says how to install it.
 */
async function loadContracts(): Promise<typeof import('../../contracts/index.ts')> {
  try {
    return await import('../../contracts/index.ts');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes("'@pact-foundation/pact'");
    if (!missing) throw error;
    throw new UsageError(
      `pact verify needs Pact, an optional peer dependency that is not installed: run \`npm install --save-dev ${PACT_PACKAGE}\` (in the project that installs collect-conformance) and try again`,
      'ERR_PACT_MISSING',
    );
  }
}

function required(env: NodeJS.ProcessEnv, name: string, what: string): string {
  const value = env[name];
  if (value === undefined || value === '') throw new UsageError(`${name}: must be set in the environment for ${what}`, 'ERR_MISSING_SECRET');
  return value;
}

function httpUrl(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag}: not a URL (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag}: must be http:// or https:// (got ${JSON.stringify(value)})`);
  return value.replace(/\/+$/, '');
}

/** The options back as arguments, for the child that runs with plain output. */
function argsOf(options: VerifyCliOptions): string[] {
  return Object.entries(options).flatMap(([name, value]) => (value === undefined ? [] : [`--${kebab(name)}`, String(value)]));
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Exit 3 (DESIGN.md) when the first connection to the provider fails. */
async function ensureReachable(baseUrl: string): Promise<void> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setTimeout(5000);
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    const fail = (reason: string) => {
      socket.destroy();
      reject(new TargetUnreachableError(`--base-url: cannot connect to ${url.host} (${reason})`));
    };
    socket.once('timeout', () => fail('timed out after 5 s'));
    socket.once('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
  });
}
