import { Command } from 'commander';
import type { SetExitCode } from '../index.ts';

// Placeholder until this command is built; see harness/README.md for its contract.
export function simulateCommand(setExitCode: SetExitCode): Command {
  return new Command('simulate').description('(not built yet)').action(() => {
    process.stderr.write('collect-conformance simulate: not built yet\n');
    setExitCode(1);
  });
}
