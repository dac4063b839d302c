// Part of every mutation unit (vitest.mutation.config.ts): the unit's folder loads. Stryker's
// vitest runner counts a test file that fails to load as no test run, so a mutant that breaks a
// module while it loads (a case table emptied, a constant that throws) "survived" every test
// file that imports it. Imported here inside a test, the same failure is a failing test: killed.
import { expect, it } from 'vitest';
import { MUTATION_UNITS } from './units.ts';

const unit = MUTATION_UNITS.find((u) => u.name === process.env['COLLECT_MUTATION_UNIT']);

it(`harness/${unit?.folder ?? '?'} loads, every export of its public face defined`, async () => {
  expect(unit, 'COLLECT_MUTATION_UNIT names a unit').toBeDefined();
  const face = (await import(`../../harness/${unit!.folder}/index.ts`)) as Record<string, unknown>;
  expect(Object.keys(face).length).toBeGreaterThan(0);
  for (const [name, value] of Object.entries(face)) expect(value, name).not.toBeUndefined();
});
