import {
  ID_GRAMMAR,
  isCurrency,
  PLAYER_ID_PATTERN,
  type ProblemCode,
  RESOURCE_ID_PATTERN,
} from '@pyb/contracts';
import type { TableConfig } from '@pyb/engine';
import { textProblem } from '@pyb/fairness';
import { type Actor, canRead, canWrite } from './actor';
import { type Deadline, deadlineStore, NO_DEADLINE } from './deadline';
import { DomainError, notFound, type Resource } from './errors';
import { classifiedKeys } from './key-failures';
import { Lru } from './lru';
import type { KeyCertificateRecord, OperatorRecord, RoundRecord } from './model';
import type { Beacon } from './ports/beacon';
import { type CloseDeadlines, noCloseDeadlines } from './ports/close-deadlines';
import type { KeyService } from './ports/key-service';
import { type Metrics, noMetrics } from './ports/metrics';
import type { OutboxQueue } from './ports/outbox-queue';
import { type Clock, type Ids, randomIds, systemClock } from './ports/runtime';
import type { SettlementQueue } from './ports/settlement-queue';
import type { Store } from './ports/store';
import { noWallets, type Wallets } from './ports/wallet';
import type { ShoeDecks } from './shoe-decks';

/**
 * Cache sizes per process, from the capacity model of docs/deploy.md (1,000 tables): any container may
 * serve any table, so each cache holds every table's entry with room for a shoe or round changing.
 */
export const CACHE_SIZES = {
  /** Shoe configurations: 1,000 tables × (the shoe in play + the next one). */
  shoeConfigs: 2_048,
  /** The fixed facts of rounds (table, shoe, gates, seats): 1,000 open rounds + recently finished ones. */
  rounds: 4_096,
  /** Dealt shoe orders (a KMS decrypt each): one per table in play, ~1 KB each. */
  shoeOrders: 1_024,
  /** Operator records (wallet mode): a platform serves tens of operators. */
  operators: 256,
} as const;

/** Positions settled in the resolve request at most; more go to the settlement queue in batches. */
export const INLINE_SETTLE_MAX = 50;
/** Positions per settlement batch (one queue message). */
export const SETTLE_BATCH_SIZE = 50;
/** Resolve re-sends a fanned-out round's unfinished batches only once they are this old. */
export const BATCH_RESEND_MS = 120_000;

/**
 * How long a container trusts an operator's record (its wallet mode) it read: a bet reads it at most
 * once per this period per container, so the hosted bet path keeps its two round trips. A change of
 * mode takes effect within it (docs/deploy.md: change modes between shoes).
 */
export const OPERATOR_TTL_MS = 60_000;

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
  /** Seconds between the close of contributions and the beacon round that fixes the order. Default 5. */
  beaconMarginSeconds?: number;
  /** How long a first deal waits in-process for its beacon round before answering BEACON_PENDING. Default 10 s. */
  beaconWaitMs?: number;
  /** The build that runs (source revision or code hash), named in every statement. */
  codeVersion?: string;
  /** Where the check "was this ended shoe closed in time" is scheduled. Default: nowhere. */
  closeDeadlines?: CloseDeadlines;
  /** How long after its end a shoe must be closed (seed revealed) before an alarm. Default 3600 s. */
  closeDeadlineSeconds?: number;
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
}

/** Operator records read, with when they go stale (record undefined: none, a hosted operator). */
export type OperatorCache = Lru<string, { record: OperatorRecord | undefined; until: number }>;

export const operatorCache = (): OperatorCache => new Lru(CACHE_SIZES.operators);

/** What never changes about a round once it is open: what a bet needs besides the live state. */
export type RoundFacts = Pick<
  RoundRecord,
  'roundId' | 'tableId' | 'shoeId' | 'operatorId' | 'number' | 'seats' | 'gates' | 'tableRound' | 'openedAt'
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
  codeVersion: string;
  closeDeadlines: CloseDeadlines;
  closeDeadlineSeconds: number;
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
  now(): string;
}

/** For functions that neither open shoes nor deal: a use case that asks for a round is a bug. */
const NO_BEACON: Beacon = {
  network: () =>
    Promise.reject(new Error('this context has no beacon (open-shoe and resolve-round pass one)')),
  round: () => Promise.reject(new Error('this context has no beacon (resolve-round passes one)')),
};

export function context(deps: CoreDeps): Ctx {
  const clock = deps.clock ?? systemClock;
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
    beaconMarginSeconds: deps.beaconMarginSeconds ?? 5,
    beaconWaitMs: deps.beaconWaitMs ?? 10_000,
    codeVersion: deps.codeVersion ?? 'unknown',
    closeDeadlines: deps.closeDeadlines ?? noCloseDeadlines,
    closeDeadlineSeconds: deps.closeDeadlineSeconds ?? 3600,
    certificates: new Map(),
    wallets: deps.wallets ?? noWallets,
    outbox: deps.outboxQueue,
    operators: deps.operators ?? operatorCache(),
    deadline: deps.deadline ?? NO_DEADLINE,
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

export type Access = 'read' | 'write';

/** Tenancy: unknown and foreign resources look the same (NOT_FOUND); regulators cannot write. */
export function guard<T extends { operatorId: string }>(
  actor: Actor,
  record: T | undefined,
  what: Resource,
  id: string,
  access: Access,
): T {
  if (!record || !canRead(actor, record.operatorId)) throw notFound(what, id);
  if (access === 'write' && !canWrite(actor, record.operatorId)) {
    throw new DomainError('FORBIDDEN', 'READ_ONLY', `this key may not change ${what} ${id}`);
  }
  return record;
}

/**
 * The operator a wallet call is about: regulators name a supervised one, others act on their own.
 * An operator the key may not read is answered as the thing asked for not being there (`missing`).
 */
export function walletOperator(
  actor: Actor,
  operatorId: string | undefined,
  access: Access,
  missing: { what: Resource; id: string } = { what: 'wallet', id: operatorId ?? actor.operatorId },
): string {
  const op = operatorId ?? actor.operatorId;
  if (!canRead(actor, op)) throw notFound(missing.what, missing.id);
  if (access === 'write' && !canWrite(actor, op)) {
    throw new DomainError('FORBIDDEN', 'READ_ONLY', 'this key may not move money');
  }
  return op;
}

export function requireWriter(actor: Actor): void {
  if (!canWrite(actor, actor.operatorId)) {
    throw new DomainError('FORBIDDEN', 'READ_ONLY', 'this key is read-only');
  }
}

export const invalid = (code: ProblemCode, message: string, details?: Record<string, unknown>): DomainError =>
  new DomainError('INVALID', code, message, details);

export const conflict = (code: ProblemCode, message: string): DomainError =>
  new DomainError('CONFLICT', code, message);

/** Not now, later: the HTTP edge answers 503 with Retry-After. */
export const unavailable = (code: ProblemCode, message: string, retryAfterSeconds: number): DomainError =>
  new DomainError('UNAVAILABLE', code, message, { retryAfterSeconds });

/** An id the platform minted (table, shoe, round): the grammar of @pyb/contracts. */
export function checkId(name: string, value: unknown): string {
  if (typeof value !== 'string' || !RESOURCE_ID_PATTERN.test(value)) {
    throw invalid('INVALID_INPUT', `${name} must be ${ID_GRAMMAR.resource}`);
  }
  return value;
}

/** Free text (a note, a reference, a name): clean, well-formed Unicode (@pyb/fairness textProblem). */
export function checkText(name: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.length > max) {
    throw invalid('INVALID_INPUT', `${name} must be at most ${max} characters`);
  }
  const problem = textProblem(value);
  if (problem) throw invalid('INVALID_INPUT', `${name} ${problem}`);
  return value;
}

/** An ISO 4217 currency code (the list of @pyb/contracts). */
export function checkCurrency(value: unknown): string {
  if (!isCurrency(value)) throw invalid('INVALID_INPUT', 'currency must be an ISO 4217 code such as EUR');
  return value;
}

/** The operator's id for a player: the grammar of @pyb/contracts. */
export function checkPlayerId(value: unknown): string {
  if (typeof value !== 'string' || !PLAYER_ID_PATTERN.test(value)) {
    throw invalid('INVALID_INPUT', `playerId must be ${ID_GRAMMAR.player}`);
  }
  return value;
}

export function checkAmount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw invalid('AMOUNT_INVALID', `${name} must be a positive safe integer (minor units)`);
  }
  return value;
}

export { checkIdempotencyKey, keyReused, requestHash } from './idempotency/key';
