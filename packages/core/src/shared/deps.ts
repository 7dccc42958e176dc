import type { ShoeScheme } from '@pyb/fairness';
import type { Deadline } from './deadline';
import { CACHE_SIZES } from './limits';
import { Lru } from './lru';
import type { OperatorRecord } from './model';
import type { Beacon } from './ports/beacon';
import type { CadenceRunner } from './ports/cadence-runner';
import type { CloseDeadlines } from './ports/close-deadlines';
import type { KeyService } from './ports/key-service';
import type { Metrics } from './ports/metrics';
import type { OutboxQueue } from './ports/outbox-queue';
import type { DeadlineState, RoundDeadlines } from './ports/round-deadlines';
import type { Clock, Ids } from './ports/runtime';
import type { SettlementQueue } from './ports/settlement-queue';
import type { Store } from './ports/store';
import type { TimeStamper } from './ports/time-stamps';
import type { Wallets } from './ports/wallet';

/** What a process gives the core: its adapters, and the settings it overrides. */
export interface CoreDeps {
  store: Store;
  keys: KeyService;
  clock?: Clock;
  ids?: Ids;
  /** Positions settled (or refunded) at once by one process. Default 8. */
  settleConcurrency?: number;
  /** Where settlement batches go; absent, every round settles in its resolve request. */
  settlementQueue?: SettlementQueue;
  /** Default INLINE_SETTLE_MAX. */
  inlineSettleMax?: number;
  /** Default SETTLE_BATCH_SIZE. */
  settleBatchSize?: number;
  /** Default BATCH_RESEND_MS. */
  batchResendMs?: number;
  metrics?: Metrics;
  /**
   * The public randomness beacon every shoe's order waits for. Without one (functions that neither
   * open shoes nor deal), any use of it is an error: there is never a fallback to other entropy.
   */
  beacon?: Beacon;
  /** Seconds between the close of contributions and the beacon round that fixes the order. Default BEACON_MARGIN_SECONDS (5). */
  beaconMarginSeconds?: number;
  /** How long a first deal waits in-process for its beacon round before answering BEACON_PENDING. Default 10 s. */
  beaconWaitMs?: number;
  /**
   * The time-stamp authorities that anchor each head naming a beacon round (pyb-shoe/3). Without
   * one, closing contributions or betting on such a shoe fails: a head is never used unanchored.
   */
  timeStamper?: TimeStamper;
  /** The build that runs (source revision or code hash), named in every statement. */
  codeVersion?: string;
  /**
   * The dealing scheme of the shoes opened (docs/provably-fair.md §15). Default pyb-shoe/3.
   * pyb-shoe/2 shoes already open keep dealing and verifying as they were committed.
   */
  shoeScheme?: ShoeScheme;
  /** Where a cadence table's rounds are started (ports/cadence-runner.ts). Default: none. */
  cadenceRunner?: CadenceRunner;
  /** Where the check "was this ended shoe closed in time" is scheduled. Default: nowhere. */
  closeDeadlines?: CloseDeadlines;
  /** How long after its end a shoe must be closed (seed revealed) before an alarm. Default 3600 s. */
  closeDeadlineSeconds?: number;
  /** Where a round's interrupted-game check is scheduled (ports/round-deadlines.ts). Default: nowhere. */
  roundDeadlines?: RoundDeadlines;
  /** How long a round may stay in each state before the interrupted-game policy acts (ROUND_DEADLINE_SECONDS). */
  roundDeadlineSeconds?: Partial<Record<DeadlineState, number>>;
  /** The wallets of seamless operators (their base URL and secret). Default: none (hosted only). */
  wallets?: Wallets;
  /**
   * Where pending seamless credits and rollbacks go for delivery. Absent: each is tried once in the
   * request that wrote it, and left pending (reconciliation names it) if the wallet did not answer OK.
   */
  outboxQueue?: OutboxQueue;
  /**
   * The operator-record cache (OperatorCache), to share one between the contexts of a process: a
   * wallet-mode change made in it is then seen at once by all of them. Default: this context's own.
   */
  operators?: OperatorCache;
  /** The time the work has left (a request's, an invocation's). Default: none. Per request: `withDeadline`. */
  deadline?: Deadline;
  /**
   * Tests only: `createTable` takes a custom table of 1 to 8 decks, so a whole shoe is a handful of
   * coups. Default false: 6 or 8 decks, as the rulebooks allow (003:16, 004:8) and the API takes.
   */
  testShoes?: boolean;
}

/** Operator records read, with when they go stale (record undefined: none, a hosted operator). */
export type OperatorCache = Lru<string, { record: OperatorRecord | undefined; until: number }>;

export const operatorCache = (): OperatorCache => new Lru(CACHE_SIZES.operators);
