// Entry point of the `collect-conformance` command: one file per subcommand in commands/.
import { Command, CommanderError } from 'commander';
import { UsageError, TargetUnreachableError } from './errors.ts';
import { runCommand } from './commands/run.ts';
import { simulateCommand } from './commands/simulate.ts';
import { receiverCommand } from './commands/receiver.ts';
import { vectorsCommand } from './commands/vectors.ts';
import { signCommand } from './commands/sign.ts';
import { pactCommand } from './commands/pact.ts';
import { toolVersion } from './version.ts';
import { EXIT_STATUS_HELP, styleHelp } from './help.ts';
import { terminalText } from '../report/index.ts';

/** Every subcommand builder receives this to report its exit status. */
export type SetExitCode = (code: number) => void;

export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const setExitCode: SetExitCode = (code) => {
    exitCode = code;
  };
  const program = new Command('collect-conformance')
    .description('conformance and contract tests for the collection API (signed collect requests, outcome callbacks)')
    .version(toolVersion(), '-V, --version', 'Print the version')
    .showHelpAfterError()
    .exitOverride()
    .addHelpText('after', EXIT_STATUS_HELP);
  for (const build of [runCommand, simulateCommand, receiverCommand, vectorsCommand, signCommand, pactCommand]) {
    program.addCommand(build(setExitCode).exitOverride());
  }
  // One help style for all (harness/cli/help.ts), applied here so that no command drifts.
  styleHelp(program);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    return exitStatusOf(error);
  }
  return exitCode;
}

function exitStatusOf(error: unknown): number {
  if (error instanceof CommanderError) {
    // --help and --version end through exitOverride with code 0.
    return error.exitCode === 0 ? 0 : 2;
  }
  if (error instanceof UsageError || error instanceof TargetUnreachableError) {
    // Messages may quote a target's text (a file's JSON, an answer): never raw to the terminal.
    process.stderr.write(`collect-conformance: ${terminalText(error.message)}\n`);
    return error.exitCode;
  }
  process.stderr.write(`collect-conformance: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
  return 1;
}
