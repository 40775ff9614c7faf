import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['api/src/**/*.test.ts', 'api/test/**/*.test.ts', 'cli/test/**/*.test.ts', 'web/test/**/*.test.ts'],
    // `*.postgres.test.ts` check what only Postgres has (row-level security); the SQLite pass leaves them out.
    exclude: process.env.TEST_DATABASE_URL ? configDefaults.exclude : [...configDefaults.exclude, '**/*.postgres.test.ts'],
    globalSetup: ['api/test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: a few workers, so server start-ups inside tests do not starve each other.
    maxWorkers: 2,
  },
});
