// A vitest reporter beside the default one: counts the tests skipped because a program they need
// is missing (suites/support/programs.ts) and names each such program once, with what it is
// needed for and its install command. bin/test.js sets COLLECT_MISSING_PROGRAMS_FILE so these
// lines come last, after the type check and the Pact suites; a plain `vitest run` prints them.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { isPresent, PROGRAM_NAMES, PROGRAMS, type ProgramName } from './programs.ts';

const TAG = /\[needs ([a-z, ]+)\]/;

/** One plain line per missing program, in the order of PROGRAMS, or none. */
export function missingProgramLines(counts: ReadonlyMap<ProgramName, number>): string[] {
  return PROGRAM_NAMES.filter((name) => counts.has(name)).map((name) => {
    const tests = counts.get(name)!;
    const p = PROGRAMS[name];
    return `skipped ${tests} test${tests === 1 ? '' : 's'}: ${p.title} is not installed (needed for ${p.neededFor}); install it: ${p.install}`;
  });
}

export default class MissingProgramsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = new Map<ProgramName, number>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        if (test.result().state !== 'skipped') continue;
        const tag = TAG.exec(test.fullName);
        if (!tag) continue;
        const names = tag[1]!.split(', ').filter((n): n is ProgramName => (PROGRAM_NAMES as string[]).includes(n));
        for (const name of names.filter((n) => !isPresent(n))) counts.set(name, (counts.get(name) ?? 0) + 1);
      }
    }
    const lines = missingProgramLines(counts);
    const file = process.env.COLLECT_MISSING_PROGRAMS_FILE;
    if (file) writeFileSync(file, JSON.stringify(lines));
    else if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
