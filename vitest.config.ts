import { defineConfig } from 'vitest/config';

/**
 * Two tiers (`./scripts/test` runs both; `./scripts/test --project fast` only the first). A file's
 * tier follows from its name and folder, by this one rule (docs/testing.md, "Tiers"):
 *
 * - named `*.dynamodb.test.ts`, or under test/e2e/ (HTTP through the local stack) or infra/test/ (the
 *   CDK app: it bundles every handler) → dynamodb: DynamoDB Local (Java 17), started once for the run
 *   (globalSetup);
 * - under test/integration/ or test/model/ (written against the Store port) → both tiers, once on each
 *   store, unless named `*.memory.test.ts` (fast only) or `*.dynamodb.test.ts` (dynamodb only);
 * - any other `*.test.ts` → fast: Node only, the in-memory Store (PYB_STORE=memory).
 */
const ON_DYNAMODB_ONLY = ['**/*.dynamodb.test.ts', 'test/e2e/**/*.test.ts', 'infra/test/**/*.test.ts'];
const ON_BOTH_STORES = ['test/integration/**/*.test.ts', 'test/model/**/*.test.ts'];
const NOT_TESTS = ['**/node_modules/**', '**/.git/**', '**/cdk.out/**', '**/dist/**', '**/.data/**'];

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
          include: ['**/*.test.ts'],
          exclude: [...ON_DYNAMODB_ONLY, ...NOT_TESTS],
          env: { PYB_STORE: 'memory' },
        },
      },
      {
        extends: true,
        test: {
          name: 'dynamodb',
          include: [...ON_DYNAMODB_ONLY, ...ON_BOTH_STORES],
          exclude: ['**/*.memory.test.ts', ...NOT_TESTS],
          globalSetup: ['test/setup/dynamodb.ts'],
          env: { PYB_STORE: 'dynamodb' },
        },
      },
    ],
  },
});
