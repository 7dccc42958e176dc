import { defineConfig } from 'vitest/config';

/**
 * Two tiers (`./scripts/test` runs both; `./scripts/test --project fast` only the first):
 *
 * - fast: no Java, no DynamoDB Local. Pure packages, the use-case integration tests and the
 *   model-based money test on the in-memory Store (PYB_STORE=memory), the Store contract on it.
 * - dynamodb: DynamoDB Local is started once for the run (globalSetup). The same integration tests,
 *   the Store contract and a bounded model-based run on the DynamoDB adapter, the handlers, e2e over
 *   HTTP, and the CDK app (it bundles every handler).
 */
const onBothStores = ['test/integration/**/*.test.ts', 'test/model/**/*.test.ts'];

/**
 * PYB_TEST_SEQUENCE_SEED=<integer>: files and the tests in each run in an order shuffled with that
 * seed (vitest prints `Running tests with seed "<n>"` at the start), so an order a test silently
 * relies on shows up, and a failing order is replayed with the same seed (docs/testing.md, "Order
 * and load"). Unset: the usual order.
 */
const sequenceSeed = process.env.PYB_TEST_SEQUENCE_SEED;
if (sequenceSeed !== undefined && !/^\d{1,15}$/.test(sequenceSeed)) {
  throw new Error(`PYB_TEST_SEQUENCE_SEED must be an integer (got "${sequenceSeed}")`);
}
const sequence = sequenceSeed
  ? { shuffle: { files: true, tests: true }, seed: Number(sequenceSeed) }
  : undefined;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // PYB_CLOCK_START: every test process's clock starts there (docs/testing.md, "Time in tests");
    // FC_SEED/FC_PATH replay a property test's failure (docs/testing.md, "Chance in tests").
    setupFiles: ['test/setup/clock.ts', 'test/setup/fast-check.ts'],
    ...(sequence && { sequence }),
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          // One module graph for the tier's files (a file still gets its own stores, keys and
          // beacon): the core, zod's schemas and the BLS and P-256 curve tables are loaded once per
          // run instead of once per file — about half the tier's CPU. So a file that changes global
          // state (process.env, a mocked AWS client class) puts it back in afterAll.
          isolate: false,
          include: [
            'packages/*/test/**/*.test.ts',
            'bench/test/**/*.test.ts',
            'functions/test/http.test.ts',
            'functions/test/handlers.test.ts',
            'test/runtime/**/*.test.ts',
            'test/**/*.memory.test.ts',
            'test/contracts/currencies.test.ts',
            'test/contracts/bundles.test.ts',
            'web/test/**/*.test.ts',
            ...onBothStores,
          ],
          exclude: ['packages/store-dynamodb/**', '**/*.dynamodb.test.ts', '**/node_modules/**'],
          env: { PYB_STORE: 'memory' },
        },
      },
      {
        extends: true,
        test: {
          name: 'dynamodb',
          include: [
            'packages/store-dynamodb/test/**/*.test.ts',
            'functions/test/**/*.test.ts',
            'test/**/*.dynamodb.test.ts',
            'test/e2e/**/*.test.ts',
            'test/contracts/openapi.test.ts',
            'infra/test/**/*.test.ts',
            ...onBothStores,
          ],
          exclude: [
            'functions/test/http.test.ts',
            'functions/test/handlers.test.ts',
            '**/*.memory.test.ts',
            '**/node_modules/**',
          ],
          globalSetup: ['test/setup/dynamodb.ts'],
          env: { PYB_STORE: 'dynamodb' },
        },
      },
    ],
  },
});
