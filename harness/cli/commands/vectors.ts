import { Command } from 'commander';
import type { SetExitCode } from '../index.ts';

// Placeholder until this command is built; see harness/README.md for its contract.
export function vectorsCommand(setExitCode: SetExitCode): Command {
  return new Command('vectors').description('(not built yet)').action(() => {
    process.stderr.write('collect-conformance vectors: not built yet\n');
    setExitCode(1);
  });
}
