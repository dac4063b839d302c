import { defineConfig } from 'vitest/config';
import main from './vitest.config.ts';
import { E2E_SUITES, type E2eGroup } from './suites/support/tiers.ts';

// `npm run test:e2e`: the end-to-end suites (suites/support/tiers.ts) with the main run's
// settings, three files at once, in three groups one after the other: the suites whose verdicts
// rest on scaled timing first, alone, then the ones that keep the cores busy, then the ones whose
// subject is a child process (suites/support/tiers.ts).
const filesOf = (group: E2eGroup) => E2E_SUITES.filter((s) => s.group === group).map((s) => s.file);

export default defineConfig({
  ...main,
  test: {
    ...main.test,
    // The root includes nothing of its own: its projects name the files.
    include: [],
    exclude: ['node_modules/**'],
    // Artillery's first install (minutes) before any suite, not beside the timed ones.
    globalSetup: [...(main.test?.globalSetup as string[]), 'suites/storm/artillery-setup.ts'],
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'timed', include: filesOf('timed'), sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'busy', include: filesOf('busy'), sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'processes', include: filesOf('processes'), sequence: { groupOrder: 2 } } },
    ],
  },
});
