import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { MUTATION_UNITS } from './suites/mutation/units.ts';

// The tests StrykerJS runs for one mutation unit (`npm run mutation`, suites/mutation/run.ts sets
// COLLECT_MUTATION_UNIT): that unit's test files only, none of the main run's set-up (the tests
// chosen run no installed command). Stryker's vitest runner adds its own pool (threads, one
// worker, one test at a time) and per-test coverage.
const name = process.env['COLLECT_MUTATION_UNIT'];
const unit = MUTATION_UNITS.find((u) => u.name === name);
if (!unit) throw new Error(`COLLECT_MUTATION_UNIT must name a unit of suites/mutation/units.ts (${MUTATION_UNITS.map((u) => u.name).join(', ')}), not ${JSON.stringify(name)}`);

/**
 * Stryker stops a mutant's run at its first failing test (bail), and runs the files one at a time:
 * the quick known-answer files first (loads.proof.ts, then the unit's list in its order), the fault
 * sweeps (*.proof.ts) last. Vitest's own order is the reverse (the longest file first), which made
 * a mutant of a case table, caught in a second by case-list.test.ts, wait for every sweep first.
 */
const matches = (file: string, glob: string) => new RegExp(`/${glob.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`).test(file);
const rank = (file: string): number => {
  if (file.endsWith('/suites/mutation/loads.proof.ts')) return -1;
  const listed = unit.tests.findIndex((glob) => matches(file, glob));
  return (file.endsWith('.proof.ts') ? 1000 : 0) + (listed === -1 ? 999 : listed);
};
class QuickFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a.moduleId) - rank(b.moduleId));
  }
}

export default defineConfig({
  test: {
    // loads.proof.ts: a mutant that breaks a module while it loads fails a test (not "no test ran").
    include: [...unit.tests, 'suites/mutation/loads.proof.ts'],
    // As `npm test`: a mutant that makes a case wait for ever fails its test there, not after a minute.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CI=true: a test needing a missing program (PHP, Ruby, a JDK) fails instead of skipping, so
    // the run stops at its first test run naming the install command, rather than counting every
    // mutant only that test judges as a survivor (a signing run without PHP and Ruby had about
    // twice the survivors halfway through).
    env: { PACT_DO_NOT_TRACK: 'true', COLLECT_MUTATION_UNIT: unit.name, CI: 'true' },
    sequence: { sequencer: QuickFirst },
  },
});
