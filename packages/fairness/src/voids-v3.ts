/**
 * pyb-shoe/3's voided rounds (docs/provably-fair.md §15): a void draws no card — unless a dealer error
 * burned them (seed 004), drawn for it from its own beacon round. So the coup a burned round would
 * have dealt is its burned cards as the tableau deals them, and a void that burned nothing would have
 * dealt nothing anyone can know: no coup, houseNet 0. The close, the export and the verifier read it here.
 */
import { type Card, playCoup, type TableConfig } from '@pyb/engine';
import { recordedCoup, type VoidReport } from './bundle';
import { houseNet, type VoidableRound } from './voids';

export interface VoidableRoundV3 extends VoidableRound {
  burned?: { start: number; cards: readonly Card[] };
}

/** The void report of a pyb-shoe/3 shoe, its rounds in play order (a burn takes no coup number). */
export function voidReportV3(table: TableConfig, rounds: readonly VoidableRoundV3[]): VoidReport {
  const report: VoidReport = { count: 0, houseNet: 0, rounds: [] };
  let dealt = 0;
  for (const round of rounds) {
    if (round.status === 'SETTLED') {
      dealt += 1;
      continue;
    }
    const burned = round.burned;
    const coup = burned ? { index: dealt, start: burned.start, result: playCoup(burned.cards) } : undefined;
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
