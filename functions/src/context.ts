import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  type Beacon,
  CachedPrincipalStore,
  type CadenceRunner,
  type Clock,
  type CloseDeadlines,
  DEADLINE_STATES,
  type Deadline,
  type IdempotencyStore,
  type KeyService,
  type OutboxQueue,
  type PrincipalStore,
  type RoundDeadlines,
  type SessionStore,
  type SettlementQueue,
  type Store,
  systemClock,
  type TimeStamper,
  type TokenSigner,
  type Wallets,
} from '@pyb/core';
import {
  type CoreDeps,
  type Ctx,
  type OperatorCache,
  operatorCache,
  context as useCaseContext,
  withDeadline,
} from '@pyb/core/use-cases';
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
 *   CODE_VERSION                                     the build named in every shoe statement
 *   BEACON_MARGIN_SECONDS, BEACON_WAIT_MS            the beacon round's margin, how long a first coup waits
 *   SHOE_SCHEME                                      the dealing scheme of new shoes: pyb-shoe/3 (default);
 *                                                    pyb-shoe/2 only with KEY_SERVICE=local (tests that
 *                                                    stack a shoe by its seeds), never on AWS
 *   SHOE_CLOSE_DEADLINE_SECONDS                      how long an ended shoe may stay unclosed
 *   ROUND_DEADLINE_OPEN_SECONDS, …_CLOSED_SECONDS,   how long a round may stay taking bets, closed and
 *   …_SETTLING_SECONDS                               not dealt, settling, before the interrupted-game
 *                                                    policy acts (./round-deadlines; docs/rules.md)
 *   INLINE_SETTLE_MAX                                positions a resolve settles in its request (default 50;
 *                                                    more go to the settlement queue: SETTLING)
 *   TSA_URLS, TSA_CERTS, TSA_TIMEOUT_MS, TSA_WINDOW_MS  the time-stamp authorities (./time-stamps)
 *   TOKEN_KEY_ID, LAUNCH_URL                         the player-token KMS key; the game page of launch URLs
 *                                                    (./sessions)
 *   LIVE_BROWSER_URL                                 where players' browsers receive live events (./sessions)
 *
 * Nothing here loads the key service or a use case: a function imports its own use case from
 * `@pyb/core/use-cases` and, if it seals, signs or publishes keys, `keysOf` from `./keys` (if it
 * names or waits for a beacon round, `beaconOf` from `./beacon`; if it ends shoes, `closeDeadlinesOf`
 * from `./close-deadlines`), so each bundle holds only what its function runs (docs/benchmarks.md, "Lambda bundles and cold start").
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
  /** The randomness beacon: set by the local server and tests, else built on first use by `beaconOf` (./beacon). */
  beacon?: Beacon;
  /** The time-stamp authorities: set by tests, else built on first use by `timeStamperOf` (./time-stamps). */
  timeStamper?: TimeStamper;
  /** Where ended shoes' close deadlines go: likewise, `closeDeadlinesOf` (./close-deadlines). */
  closeDeadlines?: CloseDeadlines;
  /** Where rounds' interrupted-game checks go: likewise, `roundDeadlinesOf` (./round-deadlines). */
  roundDeadlines?: RoundDeadlines;
  /** Where a cadence table's rounds start: likewise, `cadenceRunnerOf` (./cadence), or the local runner. */
  cadenceRunner?: CadenceRunner;
  /** Seamless operators' wallets and the outbox queue: built on first use by ./seamless, or set by tests. */
  wallets?: Wallets;
  outboxQueue?: OutboxQueue;
  /** Players' sessions and the player-token key: built on first use by `sessionsOf` (./sessions), or set by tests. */
  sessions?: SessionStore;
  tokens?: TokenSigner;
  /** Per container: the use cases' context for each key service (it caches shoe orders and configs). */
  readonly ctxs: WeakMap<KeyService, Ctx>;
  /**
   * The operator records the contexts read, one cache for all of them: a wallet-mode change made in
   * this process is seen by all its use cases at once (other containers: within OPERATOR_TTL_MS).
   */
  operators?: OperatorCache;
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
 * New shoes deal by pyb-shoe/3. pyb-shoe/2 (the whole order fixed when contributions close) is kept
 * for the local key service only: a test stacks such a shoe by its seeds; on AWS it is refused.
 */
function shoeSchemeOf(env: Record<string, string | undefined>): NonNullable<CoreDeps['shoeScheme']> {
  // Literals, not @pyb/fairness's constants: this module is in every function's bundle.
  const scheme = env.SHOE_SCHEME || 'pyb-shoe/3';
  if (scheme === 'pyb-shoe/3' || (scheme === 'pyb-shoe/2' && env.KEY_SERVICE === 'local')) return scheme;
  throw new Error(
    `SHOE_SCHEME is ${scheme}: new shoes deal by pyb-shoe/3; pyb-shoe/2 is for KEY_SERVICE=local only (docs/provably-fair.md §15)`,
  );
}

/** The settings of the fairness scheme a deployment may tune (numbers from the environment). */
function settingsOf(env: Record<string, string | undefined>): Partial<CoreDeps> {
  const number = (name: string) =>
    env[name] === undefined || env[name] === '' ? undefined : Number(env[name]);
  const margin = number('BEACON_MARGIN_SECONDS');
  const wait = number('BEACON_WAIT_MS');
  const deadline = number('SHOE_CLOSE_DEADLINE_SECONDS');
  const inline = number('INLINE_SETTLE_MAX');
  const roundDeadlines = Object.fromEntries(
    DEADLINE_STATES.flatMap((state) => {
      const seconds = number(`ROUND_DEADLINE_${state}_SECONDS`);
      return seconds === undefined ? [] : [[state, seconds]];
    }),
  );
  return {
    codeVersion: env.CODE_VERSION ?? 'unknown',
    shoeScheme: shoeSchemeOf(env),
    ...(margin !== undefined && { beaconMarginSeconds: margin }),
    ...(wait !== undefined && { beaconWaitMs: wait }),
    ...(deadline !== undefined && { closeDeadlineSeconds: deadline }),
    ...(inline !== undefined && { inlineSettleMax: inline }),
    ...(Object.keys(roundDeadlines).length > 0 && { roundDeadlineSeconds: roundDeadlines }),
  };
}

/**
 * The use cases' context on this container's adapters (and `keys`, a beacon, close deadlines and the
 * settlement queue, for the functions that need them: ./queue). One context per key service; the
 * beacon, the deadlines and the queue a function passes are attached to it (a process runs one of each).
 */
export function useCases(
  context: AppContext,
  keys: KeyService = NO_KEYS,
  extras: {
    beacon?: Beacon;
    timeStamper?: TimeStamper;
    closeDeadlines?: CloseDeadlines;
    roundDeadlines?: RoundDeadlines;
    cadence?: CadenceRunner;
    queue?: SettlementQueue;
    wallets?: Wallets;
    outbox?: OutboxQueue;
  } = {},
): Ctx {
  let ctx = context.ctxs.get(keys);
  if (!ctx) {
    context.operators ??= operatorCache();
    ctx = useCaseContext({
      store: context.store,
      keys,
      clock: context.clock,
      metrics: coreMetrics,
      operators: context.operators,
      ...settingsOf(context.env),
    });
    context.ctxs.set(keys, ctx);
  }
  if (extras.beacon) ctx.beacon = extras.beacon;
  if (extras.timeStamper) ctx.timeStamper = extras.timeStamper;
  if (extras.closeDeadlines) ctx.closeDeadlines = extras.closeDeadlines;
  if (extras.roundDeadlines) ctx.roundDeadlines = extras.roundDeadlines;
  if (extras.cadence) ctx.cadence = extras.cadence;
  if (extras.queue) ctx.queue = extras.queue;
  if (extras.wallets) ctx.wallets = extras.wallets;
  if (extras.outbox) ctx.outbox = extras.outbox;
  return startingRequest ? withDeadline(ctx, startingRequest) : ctx;
}

/** The deadline of the request whose handler is starting (synchronously) now, if any. */
let startingRequest: Deadline | undefined;

/**
 * Starts a handler's work (`start`, the route's `run`) so that the use-case contexts it takes with
 * `useCases` carry this request's deadline (core's `withDeadline`: retry loops stop before it, writes
 * stop once it aborts). Every handler calls `useCases` synchronously as it starts (`run` is
 * `(input) => useCase(useCases(context, ...), ...)`), so a slot set for that synchronous start is
 * exact, with no async context to carry: a context taken later (the local settlement queue's
 * consumer) is the container's own, with no request's deadline.
 */
export function startWithDeadline<T>(deadline: Deadline, start: () => T): T {
  const outer = startingRequest;
  startingRequest = deadline;
  try {
    return start();
  } finally {
    startingRequest = outer;
  }
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
