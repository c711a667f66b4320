import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`: every project's unit tier in one vitest run (one process, workers shared by all
 * projects), so the tier pays vitest's start-up once instead of once per project. Each project keeps its
 * own configuration (vitest.shared.ts decides what the unit tier includes).
 */
export default defineConfig({
  test: {
    projects: ['libs/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'tools/*/vitest.config.ts'],
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: join(import.meta.dirname, 'reports', 'vitest-unit', 'unit.json') }]],
  },
});
