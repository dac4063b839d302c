// The command loads a subcommand's module only when that subcommand runs or shows its help; the
// top-level --help lists the others from static summaries in harness/cli/index.ts. These must
// say exactly what the commands themselves say.
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../harness/cli/index.ts';

const noExit = () => {};

describe('lazy subcommands: the top-level help is the one of the fully loaded program', () => {
  it('collect-conformance --help lists every subcommand with its own description and [options]', async () => {
    const lazy = await buildProgram(noExit, []);
    const eager = await buildProgram(noExit, 'all');
    expect(lazy.helpInformation()).toBe(eager.helpInformation());
    expect(lazy.commands.map((c) => c.name())).toEqual(eager.commands.map((c) => c.name()));
  });
  it('a chosen subcommand is the real one (its options are there), the others placeholders', async () => {
    const program = await buildProgram(noExit, ['vectors']);
    const options = (name: string) => program.commands.find((c) => c.name() === name)!.options.length;
    expect(options('vectors')).toBeGreaterThan(0);
    expect(options('run')).toBe(0);
  });
});
