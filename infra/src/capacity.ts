/**
 * The capacity model of a deployment (docs/deploy.md, "Capacity for 1,000 tables"): what an operator's
 * tables ask of the API per second, and the per-route throttles derived from it. Pure numbers, no CDK,
 * so the doc, the stack and the tests read the same figures.
 */

export interface CapacityModel {
  tables: number;
  /** One coup every this many seconds per table (bets, "no va más", deal, settle, next round). */
  roundSeconds: number;
  /** The part of it that takes bets: the peak assumes every table's window at once. */
  bettingSeconds: number;
  /** Positions per round, on average: the seats plus the standing bettors. */
  positionsPerRound: number;
  /** Calls per position: a bet plus, on average, half a raise, reduction or withdrawal. */
  callsPerPosition: number;
  /** Reads per position per round: its round (the result) and its wallet. */
  readsPerPosition: number;
  /** Throttles are the expected peak times this. */
  headroom: number;
}

/**
 * 1,000 tables of 45-second rounds (15 s of betting), 50 positions a round on average (14 seats of a
 * full table plus standing bettors; the busiest rounds take thousands, the quiet ones a few).
 */
export const MODEL_1000_TABLES: CapacityModel = {
  tables: 1_000,
  roundSeconds: 45,
  bettingSeconds: 15,
  positionsPerRound: 50,
  callsPerPosition: 1.5,
  readsPerPosition: 2,
  headroom: 1.5,
};

export interface Demand {
  /** Bet calls per second: the fleet's average, and the peak when all betting windows coincide. */
  betsPerSecond: { average: number; peak: number };
  /** Rounds opened (and resolved) per second. */
  roundsPerSecond: number;
  /** Round and wallet reads per second (average; they follow the results, not the betting window). */
  readsPerSecond: number;
  /** Positions settled per second (each round's positions, once). */
  positionsPerSecond: number;
  /** The same, per table. */
  perTable: { betsPerSecondPeak: number; roundsPerSecond: number; readsPerSecond: number };
}

export function demandOf(m: CapacityModel): Demand {
  const callsPerRound = m.positionsPerRound * m.callsPerPosition;
  const perTable = {
    betsPerSecondPeak: callsPerRound / m.bettingSeconds,
    roundsPerSecond: 1 / m.roundSeconds,
    readsPerSecond: (m.positionsPerRound * m.readsPerPosition) / m.roundSeconds,
  };
  return {
    betsPerSecond: {
      average: (m.tables * callsPerRound) / m.roundSeconds,
      peak: m.tables * perTable.betsPerSecondPeak,
    },
    roundsPerSecond: m.tables * perTable.roundsPerSecond,
    readsPerSecond: m.tables * perTable.readsPerSecond,
    positionsPerSecond: (m.tables * m.positionsPerRound) / m.roundSeconds,
    perTable,
  };
}

export interface RouteThrottle {
  rateLimit: number;
  burstLimit: number;
}

const up = (n: number, step: number) => Math.ceil(n / step) * step;

/**
 * Per-route throttles (API Gateway HTTP API route settings) from the model: the hot routes at their
 * peak times the headroom, the rest at small fixed rates that still serve any operator's tooling.
 * Keyed by routes.ts handler; a route not listed gets the stage default.
 */
export function routeThrottles(m: CapacityModel): Record<string, RouteThrottle> {
  const d = demandOf(m);
  const bets = up(d.betsPerSecond.peak * m.headroom, 100);
  const rounds = up(d.roundsPerSecond * 3 * m.headroom, 10); // open + resolve, retries, a void now and then
  const reads = up(d.readsPerSecond * m.headroom, 100);
  const limit = (rateLimit: number, burst = 2): RouteThrottle => ({
    rateLimit,
    burstLimit: Math.min(5_000, rateLimit * burst), // the account's burst quota caps any route
  });
  return {
    'place-bet': limit(bets, 1),
    'reduce-bets': limit(up(bets / 10, 10)),
    'cancel-bets': limit(up(bets / 10, 10)),
    'open-round': limit(rounds),
    'resolve-round': limit(rounds),
    'void-round': limit(up(rounds / 5, 10)),
    'get-round': limit(reads),
    'get-wallet': limit(reads),
    'get-scoreboard': limit(up(reads / 4, 100)),
    'get-seats': limit(up(reads / 4, 100)),
    'wallet-transaction': limit(up(d.positionsPerSecond / 5, 10)),
    'leave-table': limit(up(d.positionsPerSecond / 10, 10)),
  };
}

/** The stage default: every route without its own setting (admin, regulator and public routes). */
export const DEFAULT_ROUTE_THROTTLE: RouteThrottle = { rateLimit: 50, burstLimit: 100 };
