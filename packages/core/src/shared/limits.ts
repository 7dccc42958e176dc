/** The defaults and cache sizes of a context (`CoreDeps` overrides the settlement ones). */
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

/**
 * Seconds between the close of contributions and the beacon round that fixes a shoe's order, unless
 * `CoreDeps.beaconMarginSeconds` says more; also the least accepted (a context with less is refused
 * at start, and the verifier refuses a statement with less: @pyb/fairness MIN_BEACON_MARGIN_SECONDS). The same value as @pyb/fairness's
 * DEFAULT_BEACON_MARGIN_SECONDS, not imported from it: that module (statement.ts) statically imports
 * the SHA-256 code, which would then move from a lazily loaded chunk into the static import of the
 * seamless jobs' bundles (docs/architecture.md, "What import() cannot defer").
 */
export const BEACON_MARGIN_SECONDS = 5;
