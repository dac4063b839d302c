// Entry point of the `collect-conformance` command: one file per subcommand in commands/.
import { Command, CommanderError } from 'commander';
import { UsageError, TargetUnreachableError } from '../tool/index.ts';
import { toolVersion } from '../tool/index.ts';
import type { CommandBuilder, SetExitCode } from './command.ts';
import { EXIT_STATUS_HELP, styleHelp } from './help.ts';

/** buildProgram's parameter, for its callers. */
export type { SetExitCode } from './command.ts';

/**
 * The subcommands, in help order. Each one's module (and all it imports: cases, simulator,
 * Pact…) is loaded only when that subcommand runs or shows its own help; the top-level --help
 * lists them from `summary` (checked against each command's own description by
 * suites/package/cli-loading.test.ts), so `collect-conformance --help` loads nothing heavy.
 */
const SUBCOMMANDS: ReadonlyArray<{ name: string; summary: string; hasOptions: boolean; load: () => Promise<CommandBuilder> }> = [
  { name: 'run', summary: 'run the conformance cases against a target (default: the embedded reference implementations)', hasOptions: true, load: async () => (await import('./commands/run.ts')).runCommand },
  { name: 'simulate', summary: 'run the reference service (collect, transaction_status, callbacks) as a local sandbox', hasOptions: true, load: async () => (await import('./commands/simulate.ts')).simulateCommand },
  { name: 'receiver', summary: 'run the reference callback receiver (test hooks included) until SIGINT or SIGTERM', hasOptions: true, load: async () => (await import('./commands/receiver.ts')).receiverCommand },
  { name: 'observe-check', summary: 'seed one record and read it back through a receiver target\'s hooksUrl or observe, then send one valid callback for a seeded record, printing each step', hasOptions: true, load: async () => (await import('./commands/observe-check.ts')).observeCheckCommand },
  { name: 'vectors', summary: 'run the golden vectors against the built-in signer or an external one (--signer)', hasOptions: true, load: async () => (await import('./commands/vectors.ts')).vectorsCommand },
  { name: 'sign', summary: 'print every signing stage for one body: pairs, message, signature, Authorization (secret from COLLECT_SECRET_KEY)', hasOptions: true, load: async () => (await import('./commands/sign.ts')).signCommand },
  { name: 'storm', summary: 'a callback storm against a receiver: duplicates, late copies and bad tokens at a rate, judged on its records', hasOptions: true, load: async () => (await import('./commands/storm.ts')).stormCommand },
  { name: 'pact', summary: 'Pact contracts: verify a provider against the shipped pacts', hasOptions: false, load: async () => (await import('./commands/pact.ts')).pactCommand },
];

/** The subcommand that argv runs or asks help for (`run …`, `help run`), if any. */
function chosenSubcommand(argv: readonly string[]): string | undefined {
  const words = argv.filter((a) => !a.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

/**
 * The program with the subcommands named in `load` built for real ('all': every one) and the
 * others as placeholders carrying only their name and summary (enough for the top-level help).
 */
export async function buildProgram(setExitCode: SetExitCode, load: readonly string[] | 'all'): Promise<Command> {
  const program = new Command('collect-conformance')
    .description('conformance and contract tests for the collection API (signed collect requests, outcome callbacks)')
    .version(toolVersion(), '-V, --version', 'Print the version')
    .showHelpAfterError()
    .exitOverride()
    .addHelpText('after', EXIT_STATUS_HELP);
  for (const sub of SUBCOMMANDS) {
    const real = load === 'all' || load.includes(sub.name);
    program.addCommand(real ? (await sub.load())(setExitCode).exitOverride() : new Command(sub.name).description(sub.summary));
  }
  // One help style for all (harness/cli/help.ts), applied here so that no command drifts.
  styleHelp(program);
  const help = program.createHelp();
  const placeholderTerm = (cmd: Command): string => {
    const sub = SUBCOMMANDS.find((s) => s.name === cmd.name());
    return sub?.hasOptions && cmd.options.length === 0 ? `${cmd.name()} [options]` : help.subcommandTerm(cmd);
  };
  program.configureHelp({ ...program.configureHelp(), subcommandTerm: placeholderTerm });
  return program;
}

let stdoutGuarded = false;

/**
 * A reader that stops early (`collect-conformance --help | head -3`) closes the pipe: the rest of
 * the output is dropped and the command ends as it would have (a run still writes its reports),
 * instead of dying on an unhandled EPIPE with a stack trace.
 */
function dropOutputOnceTheReaderLeaves(): void {
  if (stdoutGuarded) return;
  stdoutGuarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

export async function main(argv: readonly string[]): Promise<number> {
  dropOutputOnceTheReaderLeaves();
  let exitCode = 0;
  const setExitCode: SetExitCode = (code) => {
    exitCode = code;
  };
  try {
    const chosen = chosenSubcommand(argv);
    const program = await buildProgram(setExitCode, chosen === undefined ? [] : [chosen]);
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    return await exitStatusOfError(error);
  }
  return exitCode;
}

async function exitStatusOfError(error: unknown): Promise<number> {
  if (error instanceof CommanderError) {
    // --help and --version end through exitOverride with code 0.
    return error.exitCode === 0 ? 0 : 2;
  }
  if (error instanceof UsageError || error instanceof TargetUnreachableError) {
    // Messages may quote a target's text (a file's JSON, an answer): never raw to the terminal.
    // (Loaded here, not at the top: the report folder is not needed to show the help.)
    const { printable } = await import('../report/index.ts');
    process.stderr.write(`collect-conformance: ${printable(error.message)}\n`);
    return error.exitCode;
  }
  process.stderr.write(`collect-conformance: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
  return 1;
}
