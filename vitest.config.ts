import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['api/src/**/*.test.ts', 'api/test/**/*.test.ts', 'cli/test/**/*.test.ts', 'web/test/**/*.test.ts'],
    globalSetup: ['api/test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: a few workers, so server start-ups inside tests do not starve each other.
    maxWorkers: 2,
  },
});
