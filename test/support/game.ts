/**
 * Plays shoes through the use cases with a deterministic crowd of players, and recomputes what every
 * wallet must hold independently: from the revealed seed (fairness dealShoe), the engine's shoe runner
 * and settle() over the bets the test itself placed.
 */
import { type Actor, type Core, DomainError, type RoundView, type ShoeView } from '@pyb/core';
import {
  type Bet,
  type BetType,
  betLimit,
  type CoupResult,
  ShoeRunner,
  settle,
  type TableConfig,
  Xoshiro128,
} from '@pyb/engine';
import { dealShoe, hexToBytes, shoeEntropyFor } from '@pyb/fairness';
import { type Dealing, type DealingStack, openRoundDealing } from './dealt';

export const PATTERNS: readonly BetType[][] = [
  ['PLAYER'],
  ['BANKER'],
  ['TIE'],
  ['PLAYER', 'TIE'],
  ['BANKER', 'TIE'],
  ['PLAYER', 'PLAYER_PAIR'],
  ['BANKER', 'BANKER_PAIR'],
  ['PLAYER_PAIR', 'BANKER_PAIR'],
  ['BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR'],
];

export interface PlayedRound {
  roundId: string;
  voided: boolean;
  /** player -> the whole position (after raises) */
  bets: Map<string, Bet[]>;
  view: RoundView;
}

export interface PlayOptions {
  core: Core;
  actor: Actor;
  tableId: string;
  players: readonly string[];
  config: TableConfig;
  seed: string;
  clientSeed?: string;
  /** Round numbers (1-based) to void instead of resolve. */
  voidRounds?: readonly number[];
  /** Patterns to choose from (default all). */
  patterns?: readonly BetType[][];
  /** Called after each resolved round. */
  afterRound?: (round: PlayedRound, index: number) => Promise<void>;
  /** Stop after this many rounds even if the shoe has not ended. */
  maxRounds?: number;
  /**
   * The shoe must deal what `deals` asks of its coups: round 1 is opened with a client seed chosen
   * for it (./dealt; `clientSeed` is then ignored). Without it, the coups are whatever the shoe deals.
   */
  dealing?: Pick<Dealing, 'deals' | 'deps' | 'label'> & { stack: DealingStack };
}

const amountFor = (config: TableConfig, type: BetType, rng: Xoshiro128): number => {
  const { min } = betLimit(config, type)!;
  return min * (1 + (rng.nextU32() % 4));
};

/** Plays rounds until the cut card ends the shoe; returns what was bet in each round. */
export async function playShoe(o: PlayOptions): Promise<PlayedRound[]> {
  const rng = new Xoshiro128(o.seed);
  const patterns = o.patterns ?? PATTERNS;
  const rounds: PlayedRound[] = [];
  for (let n = 1; ; n++) {
    const round =
      n === 1 && o.dealing
        ? (await openRoundDealing(o.dealing.stack, o.actor, { tableId: o.tableId, ...o.dealing })).round
        : await o.core.openRound(o.actor, {
            tableId: o.tableId,
            ...(n === 1 && o.clientSeed !== undefined && { clientSeed: o.clientSeed }),
          });
    const bets = new Map<string, Bet[]>();
    for (const playerId of o.players) {
      if (rng.nextU32() % 7 === 0) continue; // sits this coup out
      const pattern = patterns[rng.nextU32() % patterns.length]!;
      const position: Bet[] = pattern.map((type) => ({ type, amount: amountFor(o.config, type, rng) }));
      await o.core.placeBet(o.actor, {
        roundId: round.roundId,
        playerId,
        bets: position,
        idempotencyKey: `${round.roundId}-${playerId}-1`,
      });
      if (rng.nextU32() % 5 === 0) {
        // A second call raises one of his bets.
        const raised = position[rng.nextU32() % position.length]!;
        const extra = betLimit(o.config, raised.type)!.min;
        await o.core.placeBet(o.actor, {
          roundId: round.roundId,
          playerId,
          bets: [{ type: raised.type, amount: extra }],
          idempotencyKey: `${round.roundId}-${playerId}-2`,
        });
        raised.amount += extra;
      }
      bets.set(playerId, position);
    }
    const voided = o.voidRounds?.includes(n) ?? false;
    const view = voided
      ? await o.core.voidRound(o.actor, { roundId: round.roundId, reason: 'EXPOSED_CARD' })
      : await o.core.resolveRound(o.actor, { roundId: round.roundId });
    const played = { roundId: round.roundId, voided, bets, view };
    rounds.push(played);
    await o.afterRound?.(played, n);
    if (view.lastCoup || (o.maxRounds !== undefined && n >= o.maxRounds)) return rounds;
  }
}

/**
 * The coups of the shoe as the revealed seed deals them, with the entropy recomputed from what the
 * shoe published (the contributions' digest and the beacon round), independent of anything else stored.
 */
export function coupsOfClosedShoe(shoe: ShoeView, config: TableConfig): CoupResult[] {
  return runnerOfClosedShoe(shoe, config)
    .all()
    .map((c) => c.result);
}

/** The shoe as the revealed seeds deal it, to walk coup by coup (or burn by burn). */
export function runnerOfClosedShoe(shoe: ShoeView, config: TableConfig): ShoeRunner {
  if (!shoe.serverSeed || !shoe.beacon || !shoe.contributions.digest)
    throw new Error('the shoe is not closed');
  const entropy = shoeEntropyFor(shoe.statement, shoe.contributions.digest, shoe.beacon);
  const deck = dealShoe({
    serverSeed: hexToBytes(shoe.serverSeed),
    clientSeed: entropy,
    shoeId: shoe.shoeId,
    decks: config.decks,
    cutCard: config.cutCard,
  });
  return new ShoeRunner(config, deck.order, deck.cutIndex);
}

export interface Expected {
  /** Net change of each wallet's balance (payouts − stakes, refunds cancel stakes). */
  net: Map<string, number>;
  /** DEFERRED: commission each player owes over the shoe. */
  owed: Map<string, number>;
}

/** What each wallet must have gained or lost: engine settle() of each position against the dealt coups. */
export function expectedOutcome(
  config: TableConfig,
  rounds: readonly PlayedRound[],
  coups: readonly CoupResult[],
): Expected {
  const net = new Map<string, number>();
  const owed = new Map<string, number>();
  const dealt = rounds.filter((r) => !r.voided);
  if (dealt.length !== coups.length) {
    throw new Error(`${dealt.length} rounds were dealt but the shoe deals ${coups.length} coups`);
  }
  dealt.forEach((round, i) => {
    for (const [player, bets] of round.bets) {
      const s = settle(config, bets, coups[i]!);
      net.set(player, (net.get(player) ?? 0) + s.payout - s.stake);
      owed.set(player, (owed.get(player) ?? 0) + s.commissionOwed);
    }
  });
  return { net, owed };
}

/** Every ledger entry of a wallet, oldest first. */
export async function wholeLedger(core: Core, actor: Actor, playerId: string) {
  const entries = [];
  let cursor: string | undefined;
  do {
    const page = await core.getLedger(actor, { playerId, limit: 100, ...(cursor && { cursor }) });
    entries.push(...page.entries);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return entries.reverse();
}

/** The DomainError code a promise rejects with (fails the test if it resolves or throws something else). */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('expected a DomainError');
}
