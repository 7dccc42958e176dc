/**
 * The records each round commits into the audit chain by a digest (docs/provably-fair.md §7), and a
 * coup or burn as the bundle records it. The core writes them, the verifier recomputes them: one
 * definition, here.
 */
import { type CoupResult, dealtCards, handNotation, showCard } from '@pyb/engine';
import { digest } from './audit';
import type { BeaconRound } from './beacon';
import type { RecordedBurn, RecordedCoup, RecordedPosition } from './bundle';

/** BETTING_CLOSED `data.betsDigest`: the accepted bets, final at "no va más". */
export const betsRecord = (p: RecordedPosition) => ({
  id: p.playerId,
  bets: p.bets,
  stake: p.stake,
  calls: p.calls,
});
/** ROUND_SETTLED `data.settlementsDigest`: what each position was paid and by which ledger entry. */
export const settlementRecord = (p: RecordedPosition) => ({
  id: p.playerId,
  stake: p.stake,
  settlement: p.settlement,
  ledgerSeq: p.ledgerSeq,
});
/** ROUND_VOIDED `data.refundsDigest`: the stakes given back. */
export const refundRecord = (p: RecordedPosition) => ({
  id: p.playerId,
  bets: p.bets,
  stake: p.stake,
  ledgerSeq: p.ledgerSeq,
});

export const betsDigest = (positions: readonly RecordedPosition[]): string =>
  digest(positions.map(betsRecord));
export const settlementsDigest = (positions: readonly RecordedPosition[]): string =>
  digest(positions.map(settlementRecord));
export const refundsDigest = (positions: readonly RecordedPosition[]): string =>
  digest(positions.map(refundRecord));

/** A pyb-shoe/3 step's round as recorded: its number and signature (a stored `randomness` stays out). */
const beaconOf = (beacon: BeaconRound | undefined) =>
  beacon && { beacon: { round: beacon.round, signature: beacon.signature } };

/** A burned coup as a bundle or proof records it (cards in notation; pyb-shoe/3: with its round). */
export const recordedBurn = (burn: {
  start: number;
  cards: readonly number[];
  beacon?: BeaconRound | undefined;
}): RecordedBurn => ({
  start: burn.start,
  cards: burn.cards.map(showCard),
  ...beaconOf(burn.beacon),
});

/** A dealt coup as the bundle records it (cards in notation; a stored non-card shows as `?<n>`; pyb-shoe/3: with its round). */
export const recordedCoup = (coup: {
  index: number;
  start: number;
  result: CoupResult;
  beacon?: BeaconRound | undefined;
}): RecordedCoup => ({
  index: coup.index,
  start: coup.start,
  cards: dealtCards(coup.result).map(showCard),
  winner: coup.result.winner,
  player: handNotation(coup.result.player),
  banker: handNotation(coup.result.banker),
  natural: coup.result.natural,
  playerPair: coup.result.playerPair,
  bankerPair: coup.result.bankerPair,
  ...beaconOf(coup.beacon),
});
