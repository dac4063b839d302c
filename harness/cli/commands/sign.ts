import { Command } from 'commander';
import type { SetExitCode } from '../index.ts';

// Placeholder until this command is built; see harness/README.md for its contract.
export function signCommand(setExitCode: SetExitCode): Command {
  return new Command('sign').description('(not built yet)').action(() => {
    process.stderr.write('collect-conformance sign: not built yet\n');
    setExitCode(1);
  });
}
