/**
 * Voided rounds, seen after the reveal: a void deals no card, so the coup a voided round would have
 * dealt is the shoe's next coup at that point (the one the next dealt round then dealt — unless a
 * dealer error burned cards first, seed 004: then the cards burned next), and the
 * house's net result had it been played is what its positions would have lost minus what they would
 * have won. The export reports it per round and per shoe; the verifier recomputes it.
 */
import {
  betList,
  burnCoup,
  type Card,
  type CoupResult,
  nextCoup,
  parseCard,
  playCoup,
  type ShoeCoup,
  type ShoeState,
  settle,
  startShoe,
  type TableConfig,
} from '@pyb/engine';
import type { BeaconRound } from './beacon';
import { type RecordedPosition, recordedCoup, type VoidReport } from './bundle';
import type { Shoe } from './shoe';

/**
 * The house's net on positions had `coup` been played: stakes minus payouts, plus commission that
 * would have been owed (DEFERRED mode collects it later; IMMEDIATE mode already nets it off the payout).
 */
export function houseNet(
  table: TableConfig,
  positions: readonly Pick<RecordedPosition, 'bets'>[],
  coup: CoupResult,
): number {
  let net = 0;
  for (const p of positions) {
    const s = settle(table, betList(p.bets), coup);
    net += s.stake - s.payout + s.commissionOwed;
  }
  return net;
}

export interface VoidableRound {
  roundId: string;
  number: number;
  status: 'SETTLED' | 'VOIDED';
  voidReason?: string | undefined;
  /** Voided for a dealer error that burned its cards (they leave the shoe). */
  burned?: unknown;
  positions: readonly Pick<RecordedPosition, 'bets'>[];
}

/** A step of the shoe in play order, as a void sees it: a coup dealt, or a round voided. */
export type VoidStep = { kind: 'DEALT' } | { kind: 'VOIDED'; roundId: string; burned: boolean };

/**
 * The one definition of what a voided round would have dealt: the shoe's next coup at the void
 * (undefined once the shoe has ended). A void that burned its cards (seed 004) moves the shoe past
 * them, so a void just before a burn would have dealt the burned cards — not the coup the next dealt
 * round then dealt. The export, the close, the verifier and the round replay all read it here.
 */
export function voidedCoups(
  table: TableConfig,
  shoe: Pick<Shoe, 'order' | 'cutIndex'>,
  steps: readonly VoidStep[],
): Map<string, ShoeCoup | undefined> {
  let state: ShoeState = startShoe(shoe.order);
  const coups = new Map<string, ShoeCoup | undefined>();
  for (const step of steps) {
    if (step.kind === 'DEALT') {
      if (!state.finished) state = nextCoup(table, shoe.order, shoe.cutIndex, state).state;
      continue;
    }
    coups.set(step.roundId, state.finished ? undefined : nextCoup(table, shoe.order, shoe.cutIndex, state));
    // A burned coup's cards left the shoe: the next round deals after them (engine burnCoup).
    if (step.burned && !state.finished) state = burnCoup(table, shoe.order, shoe.cutIndex, state).state;
  }
  return coups;
}

/** The void report of a revealed shoe, its rounds in play order (voided ones deal nothing). */
export function voidReport(table: TableConfig, shoe: Shoe, rounds: readonly VoidableRound[]): VoidReport {
  const coups = voidedCoups(
    table,
    shoe,
    rounds.map((r) =>
      r.status === 'SETTLED'
        ? { kind: 'DEALT' }
        : { kind: 'VOIDED', roundId: r.roundId, burned: r.burned !== undefined },
    ),
  );
  return reportOf(table, rounds, coups);
}

/** The cards a pyb-shoe/3 dealer-error void burned, as ROUND_VOIDED `burned` (or the bundle) records them. */
export interface BurnedV3 {
  start: number;
  /** card codes, or cards in notation (a bundle's) */
  cards: readonly (Card | string)[];
  cutCardOut?: boolean;
  last?: boolean;
  beacon?: BeaconRound;
}

/** A step of a pyb-shoe/3 shoe in play order, as a void sees it (from the chain: COUP_DEALT, ROUND_VOIDED). */
export type VoidStepV3 =
  | { kind: 'DEALT' }
  | { kind: 'VOIDED'; roundId: string; burned?: BurnedV3 | undefined };

/** What a pyb-shoe/3 void would have dealt: the burned cards played by the tableau. */
export interface VoidedCoupV3 {
  /** the number the next dealt coup took (a burn takes none) */
  index: number;
  start: number;
  result: CoupResult;
  cutCardOut: boolean;
  last: boolean;
  beacon?: BeaconRound;
}

/**
 * pyb-shoe/3's definition of what a voided round would have dealt (docs/provably-fair.md §15.9): a
 * void without a burn drew nothing — no round's randomness was ever drawn for it, so it has no coup
 * (undefined); a dealer-error burn drew its cards from its own round, and they are the coup it would
 * have been, as the tableau plays them. Throws if the burned cards are not one coup's worth.
 */
export function voidedCoupsV3(steps: readonly VoidStepV3[]): Map<string, VoidedCoupV3 | undefined> {
  const coups = new Map<string, VoidedCoupV3 | undefined>();
  let dealt = 0;
  for (const step of steps) {
    if (step.kind === 'DEALT') {
      dealt += 1;
      continue;
    }
    const burned = step.burned;
    if (!burned) {
      coups.set(step.roundId, undefined);
      continue;
    }
    const cards = burned.cards.map((c) => (typeof c === 'string' ? parseCard(c) : c));
    const result = playCoup(cards);
    if (result.cardsUsed !== cards.length)
      throw new RangeError(
        `round ${step.roundId} burned ${cards.length} cards, a coup of them takes ${result.cardsUsed}`,
      );
    coups.set(step.roundId, {
      index: dealt,
      start: burned.start,
      result,
      cutCardOut: burned.cutCardOut ?? false,
      last: burned.last ?? false,
      ...(burned.beacon && { beacon: { round: burned.beacon.round, signature: burned.beacon.signature } }),
    });
  }
  return coups;
}

export interface VoidableRoundV3 extends Omit<VoidableRound, 'burned'> {
  burned?: BurnedV3 | undefined;
}

/** The void report of a pyb-shoe/3 shoe, its rounds in play order (voidReport's, by voidedCoupsV3). */
export function voidReportV3(table: TableConfig, rounds: readonly VoidableRoundV3[]): VoidReport {
  const coups = voidedCoupsV3(
    rounds.map((r) =>
      r.status === 'SETTLED' ? { kind: 'DEALT' } : { kind: 'VOIDED', roundId: r.roundId, burned: r.burned },
    ),
  );
  return reportOf(table, rounds, coups);
}

/** The report of the voided rounds, given the coup each would have dealt (either scheme's walk). */
function reportOf(
  table: TableConfig,
  rounds: readonly Omit<VoidableRound, 'burned'>[],
  coups: ReadonlyMap<string, (Parameters<typeof recordedCoup>[0] & { result: CoupResult }) | undefined>,
): VoidReport {
  const report: VoidReport = { count: 0, houseNet: 0, rounds: [] };
  for (const round of rounds) {
    if (round.status === 'SETTLED') continue;
    const coup = coups.get(round.roundId);
    const net = coup ? houseNet(table, round.positions, coup.result) : 0;
    report.count += 1;
    report.houseNet += net;
    report.rounds.push({
      roundId: round.roundId,
      number: round.number,
      reason: round.voidReason ?? '',
      coup: coup ? recordedCoup(coup) : null,
      houseNet: net,
    });
  }
  return report;
}
