// A vitest reporter beside the default one: counts the tests skipped because a program they need
// is missing (suites/support/programs.ts), or under CI=true the blocks that failed for it, and
// names each such program once, with what it is needed for and its install command. bin/test.js sets COLLECT_MISSING_PROGRAMS_FILE so these
// lines come last, after the type check and the Pact suites; a plain `vitest run` prints them.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { isPresent, PROGRAM_NAMES, PROGRAMS, type ProgramName } from './programs.ts';

const TAG = /\[needs ([a-z, ]+)\]/;

/** What the run did instead of running a missing program's tests. */
export interface MissingTally {
  /** Tests skipped for it (a developer's machine). */
  skipped: number;
  /** Blocks that failed for it (under CI=true each is one failing test). */
  failedBlocks: number;
}

/** One plain line per missing program, in the order of PROGRAMS, or none. */
export function missingProgramLines(tallies: ReadonlyMap<ProgramName, MissingTally>): string[] {
  return PROGRAM_NAMES.filter((name) => tallies.has(name)).map((name) => {
    const { skipped, failedBlocks } = tallies.get(name)!;
    const p = PROGRAMS[name];
    const done = [
      ...(skipped > 0 ? [`skipped ${skipped} test${skipped === 1 ? '' : 's'}`] : []),
      ...(failedBlocks > 0 ? [`failed ${failedBlocks} test block${failedBlocks === 1 ? '' : 's'} (CI=true)`] : []),
    ].join(', ');
    return `${done}: ${p.title} is not installed (needed for ${p.neededFor}); install it: ${p.install}`;
  });
}

const CI_FAILURE = /^requires .+ under CI=true$/;

export default class MissingProgramsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tallies = new Map<ProgramName, MissingTally>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        const failedInCi = state === 'failed' && CI_FAILURE.test(test.name);
        if (state !== 'skipped' && !failedInCi) continue;
        const tag = TAG.exec(test.fullName);
        if (!tag) continue;
        const names = tag[1]!.split(', ').filter((n): n is ProgramName => (PROGRAM_NAMES as string[]).includes(n));
        for (const name of names.filter((n) => !isPresent(n))) {
          const tally = tallies.get(name) ?? { skipped: 0, failedBlocks: 0 };
          if (failedInCi) tally.failedBlocks++;
          else tally.skipped++;
          tallies.set(name, tally);
        }
      }
    }
    const lines = missingProgramLines(tallies);
    const file = process.env.COLLECT_MISSING_PROGRAMS_FILE;
    if (file) writeFileSync(file, JSON.stringify(lines));
    else if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
