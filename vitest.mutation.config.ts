import { defineConfig } from 'vitest/config';
import { MUTATION_UNITS } from './suites/mutation/units.ts';

// The tests StrykerJS runs for one mutation unit (`npm run mutation`, suites/mutation/run.ts sets
// COLLECT_MUTATION_UNIT): that unit's test files only, none of the main run's set-up (the tests
// chosen run no installed command). Stryker's vitest runner adds its own pool (threads, one
// worker, one test at a time) and per-test coverage.
const name = process.env['COLLECT_MUTATION_UNIT'];
const unit = MUTATION_UNITS.find((u) => u.name === name);
if (!unit) throw new Error(`COLLECT_MUTATION_UNIT must name a unit of suites/mutation/units.ts (${MUTATION_UNITS.map((u) => u.name).join(', ')}), not ${JSON.stringify(name)}`);

export default defineConfig({
  test: {
    // loads.proof.ts: a mutant that breaks a module while it loads fails a test (not "no test ran").
    include: [...unit.tests, 'suites/mutation/loads.proof.ts'],
    // As `npm test`: a mutant that makes a case wait for ever fails its test there, not after a minute.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { PACT_DO_NOT_TRACK: 'true', COLLECT_MUTATION_UNIT: unit.name },
  },
});
