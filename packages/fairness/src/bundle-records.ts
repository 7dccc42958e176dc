/**
 * A coup or burn as the bundle records it. The core writes them, the verifier recomputes them: one
 * definition, here (the records the chain commits by a digest are in salted.ts).
 */
import { type CoupResult, dealtCards, handNotation, showCard } from '@pyb/engine';
import type { BeaconRound } from './beacon';
import type { RecordedBurn, RecordedCoup } from './bundle';

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
