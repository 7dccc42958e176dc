/**
 * A closed pyb-shoe/3 shoe drawn again from its revealed seed (docs/provably-fair.md §15): its start
 * from the shoe entropy, then each coup and each dealer-error burn, in the chain's order, from the
 * beacon round its COUP_DEALT (or ROUND_VOIDED) records — checked to be the round that round's
 * BETTING_CLOSED named, with a signature that verifies. No coup is left to deal: under pyb-shoe/3 the
 * cards not drawn were never fixed. Pure: no key service, nothing unsealed.
 */
import type { Burn, CoupResult } from '@pyb/engine';
import {
  beaconRandomness,
  burnV3,
  drawCoupV3,
  hexToBytes,
  type ShoeStateV3,
  startShoeV3,
  verifyBeaconRound,
} from '@pyb/fairness';
import type { ReplayProblem, ShoeRecord } from '../../shared';
import type { AuditLog } from '../../trail';

export interface RevealedCoup {
  index: number;
  start: number;
  result: CoupResult;
  cutCardOut: boolean;
  last: boolean;
}

export interface RevealedBurn {
  start: number;
  cards: number[];
  cutCardOut: boolean;
  last: boolean;
}

export interface DrawnShoeV3 {
  /** The cards in the order they left the shoe (burn, coups, burned coups), by their number. */
  order: Uint8Array;
  cutIndex: number;
  burn: Burn;
  coups: RevealedCoup[];
  burns: Map<string, RevealedBurn>;
}

const problem = (code: string, detail: string, seq: number | null): ReplayProblem => ({
  code,
  detail,
  seq,
  playerId: null,
});

/** Each coup and burn drawn again from the seed and the round the chain records for it. */
export async function drawShoeV3(
  shoe: ShoeRecord,
  log: AuditLog,
  serverSeed: string,
  entropy: string,
  deal: ReplayProblem[],
): Promise<DrawnShoeV3> {
  const seed = hexToBytes(serverSeed);
  const { config } = shoe;
  let state: ShoeStateV3 = startShoeV3({
    serverSeed: seed,
    entropy,
    shoeId: shoe.shoeId,
    decks: config.decks,
    cutCard: config.cutCard,
    afterCutCard: config.afterCutCard,
  });
  const start = state;
  const cards: number[] = [state.burn.shown, ...state.burn.cards];
  const coups: RevealedCoup[] = [];
  const burns = new Map<string, RevealedBurn>();
  const named = new Map<string, number>();
  for (const { event, record } of log.events) {
    if (!event || state.finished) continue;
    if (event.type === 'BETTING_CLOSED' && event.roundId)
      named.set(event.roundId, event.data.beaconRound as number);
    const drawn =
      event.type === 'COUP_DEALT'
        ? (event.data.beacon as { round: number; signature: string } | undefined)
        : event.type === 'ROUND_VOIDED'
          ? (event.data.burned as { beacon?: { round: number; signature: string } } | undefined)?.beacon
          : undefined;
    if (!drawn || !event.roundId) continue;
    const round = { round: drawn.round, signature: drawn.signature };
    if (
      named.get(event.roundId) !== round.round ||
      !(await verifyBeaconRound(shoe.statement.beacon, round))
    ) {
      deal.push(
        problem(
          'BEACON_MISMATCH',
          `the cards of round ${event.roundId} were drawn from beacon round ${round.round}, not the one its "no va más" named (${String(named.get(event.roundId))}), or its signature does not verify`,
          record.seq,
        ),
      );
    }
    const beacon = { round: round.round, randomness: beaconRandomness(round.signature) };
    try {
      if (event.type === 'COUP_DEALT') {
        const coup = drawCoupV3(seed, state, { beacon });
        coups.push({
          index: coup.index,
          start: coup.start,
          result: coup.result,
          cutCardOut: coup.cutCardOut,
          last: coup.last,
        });
        cards.push(...coup.cards);
        state = coup.state;
      } else {
        const burned = burnV3(seed, state, { beacon });
        burns.set(event.roundId, {
          start: burned.start,
          cards: burned.cards,
          cutCardOut: burned.cutCardOut,
          last: burned.last,
        });
        cards.push(...burned.cards);
        state = burned.state;
      }
    } catch (error) {
      deal.push(problem('COUP_MISMATCH', `round ${event.roundId}: ${(error as Error).message}`, record.seq));
    }
  }
  return {
    order: Uint8Array.from(cards),
    cutIndex: start.cutIndex,
    burn: { shown: start.burn.shown, burned: start.burn.burned },
    coups,
    burns,
  };
}
