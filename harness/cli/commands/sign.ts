// `collect-conformance sign --body FILE`: every stage of §5.1/§5.2 for one body, so an
// integrator can compare their own signer stage by stage. The secret comes only from the
// environment (an argument would land in shell history and process lists) and is never printed.
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import type { SetExitCode } from '../command.ts';
import { UsageError } from '../../tool/index.ts';
import { signBody, SigningError } from '../../signing/index.ts';
import { Redactor } from '../../secrets/index.ts';

const SECRET_ENV = 'COLLECT_SECRET_KEY';
const CLIENT_KEY_ENV = 'COLLECT_CLIENT_KEY';

interface SignOptions {
  body: string;
  json?: boolean;
}

export function signCommand(setExitCode: SetExitCode): Command {
  return new Command('sign')
    .description(`print every signing stage for one body: pairs, message, signature, Authorization (secret from ${SECRET_ENV})`)
    .requiredOption('--body <file>', 'the raw JSON body, exactly the bytes that will be sent (- for stdin)')
    .option('--json', 'machine-readable output')
    .addHelpText('after', `
Environment:
  ${SECRET_ENV}   The secret key (required; never given as an argument, never printed)
  ${CLIENT_KEY_ENV}   The client key (optional; when set, the Authorization header is shown,
                       with the key itself redacted)`)
    .action((options: SignOptions) => {
      process.stdout.write(signOutput(options, process.env));
      setExitCode(0);
    });
}

/** Exported for tests: the text the command prints. */
export function signOutput(options: SignOptions, env: NodeJS.ProcessEnv): string {
  const secret = env[SECRET_ENV];
  if (secret === undefined || secret === '') {
    throw new UsageError(`the environment variable ${SECRET_ENV} is not set; export it with the secret key to sign with`, 'ERR_SECRET_MISSING');
  }
  const clientKey = env[CLIENT_KEY_ENV] || undefined;
  const redactor = new Redactor([secret, clientKey]);

  let bytes: Buffer;
  try {
    bytes = readFileSync(options.body === '-' ? 0 : options.body);
  } catch (error) {
    throw new UsageError(`--body ${options.body}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'ERR_BODY_UNREADABLE');
  }
  // JSON text is UTF-8 (RFC 8259 §8.1). A lenient decode would sign U+FFFD in place of the
  // bytes actually sent, so a body that is not UTF-8 is refused.
  let body: string;
  try {
    body = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(`--body ${options.body}: not UTF-8 text; JSON bodies are UTF-8 (RFC 8259 §8.1), and signing a decoded guess would not sign the bytes sent`, 'ERR_BODY_NOT_UTF8');
  }
  let stages;
  try {
    stages = signBody(body, secret, clientKey === undefined ? {} : { clientKey });
  } catch (error) {
    if (error instanceof SigningError) throw new UsageError(`--body ${options.body}: ${error.message}`, error.code);
    throw error;
  }

  if (options.json) {
    const out: Record<string, unknown> = { body: options.body, pairs: stages.pairs, message: stages.message, signature: stages.signature };
    if (stages.authorization !== undefined) out.authorization = stages.authorization;
    return `${redactor.text(JSON.stringify(out, null, 2))}\n`;
  }
  const lines = [
    `body           ${options.body} (${bytes.length} bytes)`,
    `pairs          ${stages.pairs.length}, sorted by code point, values as written`,
    ...stages.pairs.map(([k, v]) => `  ${k} = ${v}`),
    `message        ${stages.message}`,
    `signature      ${stages.signature}`,
    stages.authorization === undefined
      ? `authorization  (set ${CLIENT_KEY_ENV} to see the header)`
      : `authorization  ${stages.authorization}`,
  ];
  return `${redactor.text(lines.join('\n'))}\n`;
}
