/**
 * The deal of a pyb-shoe/3 shoe (docs/provably-fair.md §15.11): the start from the shoe entropy, and
 * each coup or burn from its own beacon round — a round whose BLS signature holds (`round.N.beacon`)
 * and that is the one its BETTING_CLOSED named, the first published `marginSeconds` after betting
 * closed (`round.N.beacon-named`). Then the walk of checkDealV3, the outcomes, the settlements and,
 * in a bundle, the void report.
 */
import { parseCard, playCoup, type TableConfig } from '@pyb/engine';
import { dataOf, type Event, type Evidence } from './audit-events';
import { type BeaconRound, beaconRandomness, beaconRoundAfter, roundTime, verifyBeaconRound } from './beacon';
import { BUNDLE_FORMAT, type RecordedPosition } from './bundle';
import { hexToBytes } from './bytes';
import { contributionsDigest, shoeEntropyFor } from './entropy';
import type { ShoeInputsV3 } from './shoe-v3';
import type { StatementBeacon } from './statement';
import { checkLedger } from './verify-ledger';
import type { Report } from './verify-report';
import { checkOutcome, checkSettlement, checkVoidedRound, checkVoidReport, parseAll } from './verify-rounds';
import { checkDealV3, type RecordedStepV3 } from './verify-v3';
import { voidReportV3 } from './voids';

const at = (e: Event | undefined) => String(e?.at);

/** `round.N.beacon` and `round.N.beacon-named` of one coup or burn. */
async function checkRound(
  report: Report,
  prefix: string,
  network: StatementBeacon,
  beacon: BeaconRound,
  closed: Event | undefined,
) {
  const signed = await verifyBeaconRound(network, beacon);
  report.add(
    `${prefix}.beacon`,
    signed,
    signed
      ? `BLS signature of round ${beacon.round} by network ${network.chainHash} is valid`
      : `the signature given for beacon round ${beacon.round} does not verify with the network's public key`,
  );
  report.try(`${prefix}.beacon-named`, () => {
    if (!closed) return [false, 'betting never closed on this round: no beacon round was named for it'];
    const expected = beaconRoundAfter(network, at(closed), network.marginSeconds);
    const named = dataOf(closed).beaconRound;
    if (named !== expected || beacon.round !== expected)
      return [
        false,
        `betting closed at ${at(closed)}: the first round published ${network.marginSeconds} s later is ${expected}; BETTING_CLOSED named ${String(named)}, the cards were drawn from ${beacon.round}`,
      ];
    const published = new Date(roundTime(network, expected) * 1000).toISOString();
    return [
      true,
      `round ${expected}, published ${published}, named when betting closed at ${at(closed)} (${network.marginSeconds} s margin)`,
    ];
  });
}

const flag = (value: unknown) => value === true;
const positionsOf = (round: Evidence['rounds'][number]): readonly RecordedPosition[] =>
  'positions' in round ? round.positions : [];

export async function checkShoeV3(report: Report, evidence: Evidence, table: TableConfig, list: Event[]) {
  const { statement } = evidence;
  let entropy: string | undefined;
  report.try('shoe.deal', () => {
    entropy = shoeEntropyFor(statement, contributionsDigest(evidence.contributions), evidence.beacon);
    return [
      true,
      `pyb-shoe/3: the start from the server seed and the shoe entropy ${entropy}, each coup from the beacon round named when its betting closed`,
    ];
  });
  if (!entropy) return;
  const inputs: ShoeInputsV3 = {
    serverSeed: hexToBytes(evidence.serverSeed),
    entropy,
    shoeId: statement.shoeId,
    decks: statement.decks,
    cutCard: statement.cutCard,
    afterCutCard: table.afterCutCard,
  };
  const ofRound = (roundId: string, type: string) =>
    list.find((e) => e.roundId === roundId && e.type === type);
  const steps: RecordedStepV3[] = [];
  const stepOf = (id: string, kind: 'COUP' | 'BURN', beacon: BeaconRound, recorded: unknown) => {
    const r = (recorded ?? {}) as Record<string, unknown>;
    return {
      id,
      kind,
      beacon: { round: beacon.round, randomness: beaconRandomness(beacon.signature) },
      cutCardOut: flag(r.cutCardOut),
      last: flag(r.last),
    };
  };
  let coups = 0;
  for (const [k, round] of evidence.rounds.entries()) {
    const prefix = `round.${round.number}`;
    report.add(
      `${prefix}.sequence`,
      round.number === k + 1,
      round.number === k + 1
        ? `round ${round.roundId}, ${round.status.toLowerCase()}`
        : `round ${round.roundId} is the ${k + 1}th of the shoe but numbered ${round.number}`,
    );
    const closed = ofRound(round.roundId, 'BETTING_CLOSED');
    if (round.status === 'VOIDED') {
      checkVoidedRound(report, prefix, round);
      const burned = round.burned;
      if (!burned?.beacon) continue;
      await checkRound(report, prefix, statement.beacon, burned.beacon, closed);
      const recorded = dataOf(ofRound(round.roundId, 'ROUND_VOIDED')).burned;
      steps.push({
        ...stepOf(`${prefix}.burn`, 'BURN', burned.beacon, recorded),
        start: burned.start,
        cards: parseAll(burned.cards),
      });
      continue;
    }
    const coup = round.coup;
    if (!coup?.beacon) {
      report.add(`${prefix}.cards`, false, 'a settled round without a coup drawn from a beacon round');
      continue;
    }
    await checkRound(report, prefix, statement.beacon, coup.beacon, closed);
    const recorded = dataOf(ofRound(round.roundId, 'COUP_DEALT'));
    steps.push({
      ...stepOf(prefix, 'COUP', coup.beacon, recorded),
      index: coups++,
      start: coup.start,
      cards: parseAll(coup.cards),
    });
    // The outcome is the tableau's over the recorded cards; `.cards` ties those to the draw.
    let result: ReturnType<typeof playCoup>;
    try {
      result = playCoup(parseAll(coup.cards));
    } catch (error) {
      report.add(`${prefix}.outcome`, false, `cannot play these cards: ${(error as Error).message}`);
      continue;
    }
    if (result.cardsUsed !== coup.cards.length) {
      report.add(
        `${prefix}.outcome`,
        false,
        `${coup.cards.length} cards recorded, the tableau plays ${result.cardsUsed}`,
      );
      continue;
    }
    checkOutcome(report, prefix, result, coup);
    for (const position of positionsOf(round)) {
      checkSettlement(report, prefix, position, table, result);
      checkLedger(report, prefix, position, 'SETTLED');
    }
  }
  checkDealV3(
    report,
    inputs,
    {
      shown: parseCard(evidence.burn.shown),
      burned: parseAll(evidence.burn.cards ?? []),
      count: evidence.burn.burned,
      cutIndex: evidence.cutIndex,
    },
    steps,
    steps.at(-1)?.last ?? false,
  );
  if (evidence.format === BUNDLE_FORMAT) {
    const rounds = evidence.rounds;
    checkVoidReport(report, evidence.voids, () => voidReportV3(table, rounds));
  }
}
