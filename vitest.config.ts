import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'functions/**/*.test.ts',
      'infra/test/**/*.test.ts',
      'test/**/*.test.ts',
      'web/test/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/setup/dynamodb.ts'],
  },
});
