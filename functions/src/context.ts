import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  CachedPrincipalStore,
  type Clock,
  type IdempotencyStore,
  type KeyService,
  type PrincipalStore,
  type SettlementQueue,
  type Store,
  systemClock,
} from '@pyb/core';
import { type Ctx, context as useCaseContext } from '@pyb/core/use-cases';
import {
  DynamoIdempotencyStore,
  DynamoPrincipalStore,
  DynamoStore,
  type TableNames,
  tableNamesFromEnv,
} from '@pyb/store-dynamodb';
import { coreMetrics } from './metrics';

/**
 * The composition root shared by every function: the DynamoDB adapters, built once per Lambda
 * container (or once per local server) from the environment:
 *   TABLE_PREFIX / TABLE_GAME, TABLE_WALLETS, ...  table names (@pyb/store-dynamodb tableNamesFromEnv)
 *   DYNAMODB_ENDPOINT                                DynamoDB Local (dev, tests); unset on AWS
 *   SETTLEMENT_QUEUE_URL                             the settlement queue (./queue: built by the
 *                                                    functions that send to it)
 *
 * Nothing here loads the key service or a use case: a function imports its own use case from
 * `@pyb/core/use-cases` and, if it seals, signs or publishes keys, `keysOf` from `./keys`, so each
 * bundle holds only what its function runs (docs/benchmarks.md, "Lambda bundles and cold start").
 */
export interface AppContext {
  /** The environment the adapters were built from (the key service reads its settings from it). */
  env: Record<string, string | undefined>;
  tables: TableNames;
  doc: DynamoDBDocumentClient;
  store: Store;
  principals: PrincipalStore;
  idempotency: IdempotencyStore;
  clock: Clock;
  /** The key service: set by the local server and tests, else built on first use by `keysOf` (./keys). */
  keys?: KeyService;
  /** The settlement queue: built on first use by `queueOf` (./queue), or set by the local server and tests. */
  settlementQueue?: SettlementQueue;
  /** Per container: the use cases' context for each key service and queue (it caches shoe orders and configs). */
  readonly ctxs: WeakMap<KeyService, Map<SettlementQueue | undefined, Ctx>>;
}

export function buildContext(env: Record<string, string | undefined> = process.env): AppContext {
  const endpoint = env.DYNAMODB_ENDPOINT;
  const client = new DynamoDBClient(
    endpoint
      ? {
          endpoint,
          region: env.AWS_REGION ?? 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {},
  );
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  const tables = tableNamesFromEnv(env);
  return {
    env,
    tables,
    doc,
    // Cursors stay valid across containers: every one of a deployment seals them with CURSOR_KEY.
    store: new DynamoStore({
      tables,
      doc,
      ...(env.CURSOR_KEY && { cursorKey: Buffer.from(env.CURSOR_KEY, 'base64') }),
    }),
    // Cached per container: a revoked key works at most PRINCIPAL_TTL_MS more (docs/deploy.md).
    principals: new CachedPrincipalStore(new DynamoPrincipalStore(doc, tables.principals), systemClock),
    idempotency: new DynamoIdempotencyStore(doc, tables.idempotency),
    clock: systemClock,
    ctxs: new WeakMap(),
  };
}

/** For functions that never seal, sign or publish: a use case that tries is a bug, not a 5xx to retry. */
const NO_KEYS: KeyService = new Proxy({} as KeyService, {
  get: (_target, method) => () =>
    Promise.reject(
      new Error(`this function has no key service (${String(method)}); see functions/src/keys.ts`),
    ),
});

/**
 * The use cases' context on this container's adapters (and `keys`, for functions that need them; the
 * settlement `queue`, for those that hand settlement over: ./queue).
 */
export function useCases(context: AppContext, keys: KeyService = NO_KEYS, queue?: SettlementQueue): Ctx {
  let byQueue = context.ctxs.get(keys);
  if (!byQueue) {
    byQueue = new Map();
    context.ctxs.set(keys, byQueue);
  }
  let ctx = byQueue.get(queue);
  if (!ctx) {
    ctx = useCaseContext({
      store: context.store,
      keys,
      clock: context.clock,
      metrics: coreMetrics,
      ...(queue && { settlementQueue: queue }),
    });
    byQueue.set(queue, ctx);
  }
  return ctx;
}

let current: AppContext | undefined;

/** The container's context (built on first use, so a cold start pays for it once). */
export const appContext = (): AppContext => {
  current ??= buildContext();
  return current;
};

/** The local server and tests install their own context (same handlers, other adapters). */
export function setAppContext(context: AppContext | undefined): void {
  current = context;
}
