import { defineConfig } from 'vitest/config';
import main from './vitest.config.ts';
import { E2E_FILES } from './suites/support/tiers.ts';

// `npm run test:e2e`: the end-to-end suites (suites/support/tiers.ts), with the main run's settings.
export default defineConfig({ ...main, test: { ...main.test, include: [...E2E_FILES], exclude: ['node_modules/**'], maxWorkers: 3 } });
