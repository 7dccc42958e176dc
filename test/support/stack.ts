/**
 * The use cases on a store, for integration tests: the in-memory Store (@pyb/store-memory) in the fast
 * tier, DynamoDB Local in the other (vitest.config.ts sets PYB_STORE per project). Same cases, same
 * assertions; `raw` reads and tampers with stored items (pk/sk as in docs/data-model.md) on either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBeacon } from '@pyb/beacon';
import { type Clock, type Core, type CoreDeps, createCore, type Store } from '@pyb/core';
import { LocalKeyService } from '@pyb/keys';
import { RecordingCloseDeadlines, RecordingRoundDeadlines } from '@pyb/scheduler';
import type { Item, LogicalTable } from '@pyb/store-dynamodb/layout';
import { MemoryStore } from '@pyb/store-memory';
import { skippingClock } from './clock';
import { type TestTimeStamps, testTimeStamps } from './time-stamps';

export type Backend = 'memory' | 'dynamodb';

/** The store the tests of this run use: PYB_STORE=memory|dynamodb (default dynamodb). */
export const backend = (): Backend => (process.env.PYB_STORE === 'memory' ? 'memory' : 'dynamodb');

/** Stored items as the table holds them, for tests that tamper with data. */
export interface RawItems {
  get(table: LogicalTable, key: { pk: string; sk: string }): Promise<Item | undefined>;
  put(table: LogicalTable, item: Item): Promise<void>;
  delete(table: LogicalTable, key: { pk: string; sk: string }): Promise<void>;
  /** A partition's items in sort-key order (strongly consistent). */
  partition(table: LogicalTable, pk: string): Promise<Item[]>;
}

/**
 * The beacon of the tests: a local one (its own BLS key in a temp folder) with 1-second rounds and a
 * 5-second margin (the least the core accepts); its waits take no real time (./clock).
 */
export const TEST_BEACON = { period: 1, marginSeconds: 5 } as const;

export interface TestStack {
  backend: Backend;
  /** DynamoDB only: the tables under their unique prefix, and their client. */
  tables?: import('./dynamodb').TestTables;
  store: Store;
  raw: RawItems;
  keys: LocalKeyService;
  keysDir: string;
  beacon: LocalBeacon;
  /** The local TSA every head naming a beacon round is anchored by (./time-stamps); `pem` is its pin. */
  timeStamps: TestTimeStamps;
  closeDeadlines: RecordingCloseDeadlines;
  roundDeadlines: RecordingRoundDeadlines;
  /** The clock of the core and the beacon (./clock): `sleep(ms)` moves it forward at once. */
  clock: Clock;
  /** The use cases on this stack; `coreWith(overrides)` builds another instance (e.g. a wrapped store). */
  core: Core;
  coreWith(overrides: Partial<CoreDeps> & { store?: Store }): Core;
  cleanup(): Promise<void>;
}

/**
 * A store (fresh tables under a unique prefix on DynamoDB Local) + a LocalKeyService and a local
 * beacon in a temp folder + recorded close deadlines + the use cases.
 */
export async function createTestStack(
  label = 'it',
  deps: Partial<CoreDeps> = {},
  on: Backend = backend(),
): Promise<TestStack> {
  const data =
    on === 'memory'
      ? (() => {
          const store = new MemoryStore();
          return { store, raw: store.raw as RawItems, tables: undefined, drop: async () => {} };
        })()
      : await (await import('./dynamodb')).dynamoStack(label);
  const keysDir = mkdtempSync(join(tmpdir(), 'pyb-keys-'));
  // The core and the beacon share one clock whose waits take no real time (./clock).
  const clock = skippingClock();
  const keys = new LocalKeyService({ dir: keysDir, env: {} });
  const beacon = new LocalBeacon({
    dir: join(keysDir, 'beacon'),
    period: TEST_BEACON.period,
    clock,
    env: {},
  });
  const timeStamps = await testTimeStamps(clock);
  const closeDeadlines = new RecordingCloseDeadlines();
  const roundDeadlines = new RecordingRoundDeadlines();
  const coreWith = (overrides: Partial<CoreDeps>) =>
    createCore({
      store: data.store,
      keys,
      beacon,
      beaconMarginSeconds: TEST_BEACON.marginSeconds,
      timeStamper: timeStamps.timeStamper,
      clock,
      closeDeadlines,
      roundDeadlines,
      codeVersion: 'test',
      // Short shoes (1 or 2 decks) keep a whole shoe to a handful of coups; the rulebooks' 6 or 8 is
      // what a core without it takes (test/integration/rules.test.ts, "6 or 8 decks").
      testShoes: true,
      ...deps,
      ...overrides,
    });
  return {
    backend: on,
    ...(data.tables && { tables: data.tables }),
    store: data.store,
    raw: data.raw,
    keys,
    keysDir,
    beacon,
    timeStamps,
    closeDeadlines,
    roundDeadlines,
    clock,
    core: coreWith({}),
    coreWith,
    cleanup: async () => {
      await data.drop();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}
