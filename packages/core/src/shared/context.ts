import type { TableConfig } from '@pyb/engine';
import { SHOE_SCHEME_V3, type ShoeScheme } from '@pyb/fairness';
import { type Deadline, deadlineStore, NO_DEADLINE } from './deadline';
import { type CoreDeps, type OperatorCache, operatorCache } from './deps';
import { classifiedKeys } from './key-failures';
import {
  BATCH_RESEND_MS,
  BEACON_MARGIN_SECONDS,
  CACHE_SIZES,
  INLINE_SETTLE_MAX,
  SETTLE_BATCH_SIZE,
} from './limits';
import { Lru } from './lru';
import type { KeyCertificateRecord, RoundRecord } from './model';
import type { Beacon } from './ports/beacon';
import { type CadenceRunner, noCadenceRunner } from './ports/cadence-runner';
import { type CloseDeadlines, noCloseDeadlines } from './ports/close-deadlines';
import type { KeyService } from './ports/key-service';
import { type Metrics, noMetrics } from './ports/metrics';
import type { OutboxQueue } from './ports/outbox-queue';
import {
  type DeadlineState,
  noRoundDeadlines,
  ROUND_DEADLINE_SECONDS,
  type RoundDeadlines,
} from './ports/round-deadlines';
import { type Clock, type Ids, randomIds, systemClock } from './ports/runtime';
import type { SettlementQueue } from './ports/settlement-queue';
import type { Store } from './ports/store';
import type { TimeStamper } from './ports/time-stamps';
import { noWallets, type Wallets } from './ports/wallet';
import type { ShoeDecks } from './shoe-decks';

/** What never changes about a round once it is open: what a bet needs besides the live state. */
export type RoundFacts = Pick<
  RoundRecord,
  | 'roundId'
  | 'tableId'
  | 'shoeId'
  | 'operatorId'
  | 'number'
  | 'seats'
  | 'gates'
  | 'tableRound'
  | 'openedAt'
  | 'closesAt'
  | 'betsOff'
>;

export interface Ctx {
  store: Store;
  keys: KeyService;
  clock: Clock;
  ids: Ids;
  /**
   * Dealt shoe orders (unsealed seeds), made on first use by `decksOf` (shoe-order.ts): only the
   * functions that deal or close a shoe then hold the dealing code (docs/architecture.md, "What a
   * function loads").
   */
  decks: ShoeDecks | undefined;
  /** Shoe configurations (fixed for a shoe's life), so a bet does not read the shoe. */
  configs: Lru<string, TableConfig>;
  /** Round facts, so a bet does not need the round item before its reads (2 round trips). */
  rounds: Lru<string, RoundFacts>;
  settleConcurrency: number;
  queue: SettlementQueue | undefined;
  inlineSettleMax: number;
  settleBatchSize: number;
  batchResendMs: number;
  metrics: Metrics;
  beacon: Beacon;
  beaconMarginSeconds: number;
  beaconWaitMs: number;
  /** The TSAs that anchor every head naming a beacon round (docs/time-stamps.md). */
  timeStamper: TimeStamper;
  codeVersion: string;
  shoeScheme: ShoeScheme;
  closeDeadlines: CloseDeadlines;
  /** Starts a cadence table's next round (a Step Functions execution; locally the same definition). */
  cadence: CadenceRunner;
  closeDeadlineSeconds: number;
  /** Where a round's interrupted-game check is scheduled, and the deadline of each state it may stick in. */
  roundDeadlines: RoundDeadlines;
  roundDeadlineSeconds: Record<DeadlineState, number>;
  /** Signing-key certificates read so far, by generation (they never change once written). */
  certificates: Map<number, KeyCertificateRecord>;
  wallets: Wallets;
  outbox: OutboxQueue | undefined;
  /** Operator records read, with when they go stale (undefined: no record, a hosted operator). */
  operators: OperatorCache;
  /**
   * The time this request (or job invocation) has left, and its abort signal: every retry loop stops
   * before it (retry.ts `attempts`), and `store` refuses writes once the signal fired (`withDeadline`).
   */
  deadline: Deadline;
  /** CoreDeps.testShoes: tables of fewer decks than the rulebooks' 6 or 8 (tests only). */
  testShoes: boolean;
  now(): string;
}

/** For functions that neither open shoes nor deal: a use case that asks for a round is a bug. */
const NO_BEACON: Beacon = {
  network: () =>
    Promise.reject(new Error('this context has no beacon (open-shoe and resolve-round pass one)')),
  round: () => Promise.reject(new Error('this context has no beacon (resolve-round passes one)')),
};

/** For functions that sign no head naming a beacon round: anchoring one is a bug, never skipped. */
const NO_TIME_STAMPER: TimeStamper = {
  anchor: () =>
    Promise.reject(
      new Error(
        'this context has no time-stamp authority (open-round, close-betting, resolve-round and void-round pass one)',
      ),
    ),
};

export function context(deps: CoreDeps): Ctx {
  const clock = deps.clock ?? systemClock;
  const beaconMarginSeconds = deps.beaconMarginSeconds ?? BEACON_MARGIN_SECONDS;
  // Refused at start, not at the first shoe: with a smaller margin the platform could close
  // contributions when the round is (nearly) out, and every verifier refuses its shoes (F7).
  if (!Number.isSafeInteger(beaconMarginSeconds) || beaconMarginSeconds < BEACON_MARGIN_SECONDS) {
    throw new RangeError(
      `BEACON_MARGIN_SECONDS is ${String(deps.beaconMarginSeconds)}: the margin between the close of contributions and the beacon round must be a whole number of seconds, at least ${BEACON_MARGIN_SECONDS} (docs/provably-fair.md §5)`,
    );
  }
  // Failures that must lock a table told apart from "not now" (key-failures.ts).
  const keys = classifiedKeys(deps.keys);
  return {
    store: deps.store,
    keys,
    clock,
    ids: deps.ids ?? randomIds,
    decks: undefined,
    configs: new Lru(CACHE_SIZES.shoeConfigs),
    rounds: new Lru(CACHE_SIZES.rounds),
    settleConcurrency: deps.settleConcurrency ?? 8,
    queue: deps.settlementQueue,
    inlineSettleMax: deps.inlineSettleMax ?? INLINE_SETTLE_MAX,
    settleBatchSize: deps.settleBatchSize ?? SETTLE_BATCH_SIZE,
    batchResendMs: deps.batchResendMs ?? BATCH_RESEND_MS,
    metrics: deps.metrics ?? noMetrics,
    beacon: deps.beacon ?? NO_BEACON,
    beaconMarginSeconds,
    beaconWaitMs: deps.beaconWaitMs ?? 10_000,
    timeStamper: deps.timeStamper ?? NO_TIME_STAMPER,
    codeVersion: deps.codeVersion ?? 'unknown',
    shoeScheme: deps.shoeScheme ?? SHOE_SCHEME_V3,
    closeDeadlines: deps.closeDeadlines ?? noCloseDeadlines,
    cadence: deps.cadenceRunner ?? noCadenceRunner,
    closeDeadlineSeconds: deps.closeDeadlineSeconds ?? 3600,
    roundDeadlines: deps.roundDeadlines ?? noRoundDeadlines,
    roundDeadlineSeconds: { ...ROUND_DEADLINE_SECONDS, ...deps.roundDeadlineSeconds },
    certificates: new Map(),
    wallets: deps.wallets ?? noWallets,
    outbox: deps.outboxQueue,
    operators: deps.operators ?? operatorCache(),
    deadline: deps.deadline ?? NO_DEADLINE,
    testShoes: deps.testShoes ?? false,
    now: () => clock.now().toISOString(),
  };
}

/**
 * The context of one request (or job invocation) with its deadline: the container's context (its
 * caches, its adapters) seen through a view whose `deadline` is this request's and whose `store`
 * refuses every write once the deadline's signal fired — the one path of all the request's writes,
 * so no work of it lands after its answer went out. What a use case sets on the view (the dealt
 * shoes, made on first use) lands on the container's context, for the next requests.
 */
export function withDeadline(ctx: Ctx, deadline: Deadline): Ctx {
  const store = deadlineStore(ctx.store, deadline.signal);
  return new Proxy(ctx, {
    get: (target, name, receiver) =>
      name === 'deadline' ? deadline : name === 'store' ? store : Reflect.get(target, name, receiver),
  });
}
