/**
 * Every coup re-dealt from the shoe order and replayed by the engine; in a bundle, every position
 * re-settled and every refund checked; the void report recomputed.
 */
import {
  betList,
  burnCoup,
  type CoupResult,
  cardsText,
  formatCard,
  nextCoup,
  parseCard,
  type ShoeState,
  settle,
  startShoe,
  type TableConfig,
  validateBets,
} from '@pyb/engine';
import type { ProofRound, RecordedBurn, RecordedPosition, RecordedRound, VoidReport } from './bundle';
import { canonicalJson } from './canonical';
import type { Shoe } from './shoe';
import { checkLedger } from './verify-ledger';
import type { Report } from './verify-report';

export const parseAll = (cards: readonly string[]) => cards.map(parseCard);

type AnyRound = RecordedRound | ProofRound;
const positionsOf = (round: AnyRound): readonly RecordedPosition[] | undefined =>
  'positions' in round ? round.positions : undefined;

export function checkRounds(report: Report, rounds: readonly AnyRound[], table: TableConfig, shoe: Shoe) {
  let state: ShoeState = startShoe(shoe.order);
  rounds.forEach((round, k) => {
    const prefix = `round.${round.number}`;
    report.add(
      `${prefix}.sequence`,
      round.number === k + 1,
      round.number === k + 1
        ? `round ${round.roundId}, ${round.status.toLowerCase()}`
        : `round ${round.roundId} is the ${k + 1}th of the shoe but numbered ${round.number}`,
    );
    if (round.status === 'VOIDED') {
      checkVoidedRound(report, prefix, round);
      if (round.burned) state = checkBurn(report, prefix, round.burned, table, shoe, state);
      return;
    }
    if (state.finished) {
      report.add(
        `${prefix}.shoe-end`,
        false,
        `round ${round.roundId} was dealt after the cut card ended the shoe`,
      );
      return;
    }
    const recorded = round.coup;
    if (!recorded) {
      report.add(`${prefix}.cards`, false, 'a settled round without a coup');
      return;
    }
    let next: ReturnType<typeof nextCoup>;
    try {
      next = nextCoup(table, shoe.order, shoe.cutIndex, state);
    } catch (error) {
      report.add(`${prefix}.cards`, false, `cannot deal this coup: ${(error as Error).message}`);
      return;
    }
    const { result } = next;
    const expected = Array.from(shoe.order.subarray(next.start, next.start + result.cardsUsed));
    report.try(`${prefix}.cards`, () => {
      if (recorded.index !== next.index || recorded.start !== next.start) {
        return [
          false,
          `recorded as coup ${recorded.index} from card ${recorded.start}, but it is coup ${next.index} from card ${next.start}`,
        ];
      }
      const cards = parseAll(recorded.cards);
      const at = firstDifference(expected, cards);
      return at < 0
        ? [
            true,
            `coup ${next.index}, cards ${next.start}..${next.start + result.cardsUsed - 1}: ${cardsText(expected)}`,
          ]
        : [
            false,
            `card ${next.start + at} should be ${expected[at] === undefined ? '(none)' : formatCard(expected[at])}, recorded ${recorded.cards[at] ?? '(none)'}; the shoe deals ${cardsText(expected)}, recorded ${recorded.cards.join(' ')}`,
          ];
    });
    checkOutcome(report, prefix, result, recorded);
    for (const position of positionsOf(round) ?? []) {
      checkSettlement(report, prefix, position, table, result);
      checkLedger(report, prefix, position, 'SETTLED');
    }
    if (next.last) {
      report.add(
        `${prefix}.shoe-end`,
        true,
        `the last coup of the shoe (after the cut card: ${table.afterCutCard})`,
      );
    }
    state = next.state;
  });
}

/** The recorded outcome against the engine's replay of the coup's cards. */
export function checkOutcome(
  report: Report,
  prefix: string,
  result: CoupResult,
  recorded: NonNullable<AnyRound['coup']>,
) {
  report.try(`${prefix}.outcome`, () => {
    const diffs: string[] = [];
    const eq = (what: string, a: unknown, b: unknown) => {
      if (a !== b) diffs.push(`${what}: expected ${String(a)}, recorded ${String(b)}`);
    };
    eq('winner', result.winner, recorded.winner);
    eq('Punto cards', cardsText(result.player.cards), cardsText(parseAll(recorded.player.cards)));
    eq('Banca cards', cardsText(result.banker.cards), cardsText(parseAll(recorded.banker.cards)));
    eq('Punto total', result.player.total, recorded.player.total);
    eq('Banca total', result.banker.total, recorded.banker.total);
    eq('natural', result.natural, recorded.natural);
    eq('Punto pair', result.playerPair, recorded.playerPair);
    eq('Banca pair', result.bankerPair, recorded.bankerPair);
    return diffs.length === 0
      ? [
          true,
          `${result.winner} ${result.player.total}-${result.banker.total}${result.natural ? ', natural' : ''}`,
        ]
      : [false, diffs.join('; ')];
  });
}

/**
 * A dealer-error void that burned its coup's cards (seed 004; engine burnCoup): the recorded cards are
 * the ones the tableau would have dealt from the shoe's cursor. Returns the shoe's state after them.
 */
function checkBurn(
  report: Report,
  prefix: string,
  recorded: RecordedBurn,
  table: TableConfig,
  shoe: Shoe,
  state: ShoeState,
): ShoeState {
  if (state.finished) {
    report.add(`${prefix}.burn`, false, 'cards burned after the cut card ended the shoe');
    return state;
  }
  let burned: ReturnType<typeof burnCoup>;
  try {
    burned = burnCoup(table, shoe.order, shoe.cutIndex, state);
  } catch (error) {
    report.add(`${prefix}.burn`, false, `cannot burn this coup: ${(error as Error).message}`);
    return state;
  }
  report.try(`${prefix}.burn`, () => {
    const range = `${burned.start}..${burned.start + burned.cards.length - 1}`;
    if (recorded.start !== burned.start)
      return [
        false,
        `recorded as burned from card ${recorded.start}, but the coup starts at card ${burned.start}`,
      ];
    const at = firstDifference(burned.cards, parseAll(recorded.cards));
    return at < 0
      ? [true, `a dealer error voided the coup: cards ${range} burned, ${cardsText(burned.cards)}`]
      : [
          false,
          `the coup at card ${burned.start} burns ${cardsText(burned.cards)} (cards ${range}), recorded ${recorded.cards.join(' ')}`,
        ];
  });
  if (burned.last) {
    report.add(
      `${prefix}.shoe-end`,
      true,
      `the burned cards ended the shoe (after the cut card: ${table.afterCutCard})`,
    );
  }
  return burned.state;
}

/** A voided round deals no card; in a bundle each position gets its stake back and nothing else. */
export function checkVoidedRound(report: Report, prefix: string, round: AnyRound) {
  report.add(
    `${prefix}.cards`,
    round.coup === null,
    round.coup === null
      ? `voided (${round.voidReason ?? 'no reason given'}): no cards dealt`
      : 'a voided round must not record a coup',
  );
  for (const p of positionsOf(round) ?? []) {
    const stake = betList(p.bets).reduce((s, b) => s + b.amount, 0);
    const ok = p.settlement === null && p.stake === stake;
    report.add(
      `${prefix}.player.${p.playerId}.refund`,
      ok,
      ok
        ? `stake ${stake} refunded`
        : p.settlement !== null
          ? 'a voided position must not be settled'
          : `the bets add up to ${stake}, the position records a stake of ${p.stake}`,
    );
    checkLedger(report, prefix, p, 'VOIDED');
  }
}

export function checkSettlement(
  report: Report,
  prefix: string,
  position: RecordedPosition,
  table: TableConfig,
  result: CoupResult,
) {
  const id = `${prefix}.player.${position.playerId}`;
  const bets = betList(position.bets);
  // Every bet withdrawn before "no va más": the position stays, with nothing placed and nothing paid.
  if (bets.length === 0) {
    report.add(
      `${id}.bets`,
      position.stake === 0 && (position.settlement?.bets.length ?? 0) === 0,
      position.stake === 0
        ? 'every bet withdrawn before "no va más"'
        : `no bet, but a stake of ${position.stake}`,
    );
    const s = position.settlement;
    report.add(
      `${id}.payout`,
      !s || (s.stake === 0 && s.payout === 0 && s.commission === 0 && s.commissionOwed === 0),
      s ? `stake ${s.stake}, payout ${s.payout}` : 'nothing to settle',
    );
    return;
  }
  report.try(`${id}.bets`, () => {
    validateBets(table, bets);
    const stake = bets.reduce((s, b) => s + b.amount, 0);
    if (stake !== position.stake)
      return [false, `the bets add up to ${stake}, the position records a stake of ${position.stake}`];
    return [true, bets.map((b) => `${b.type} ${b.amount}`).join(', ')];
  });
  report.try(`${id}.payout`, () => {
    const expected = settle(table, bets, result);
    const recorded = position.settlement;
    if (!recorded) return [false, 'a position of a settled round without a settlement'];
    const diffs: string[] = [];
    for (const e of expected.bets) {
      const r = recorded.bets.find((b) => b.type === e.type);
      if (!r) {
        diffs.push(`${e.type}: not settled`);
        continue;
      }
      for (const field of ['amount', 'result', 'payout', 'commission', 'commissionOwed'] as const) {
        if (e[field] !== r[field])
          diffs.push(`${e.type} ${field}: expected ${e[field]}, recorded ${r[field]}`);
      }
    }
    if (recorded.bets.length !== expected.bets.length) {
      diffs.push(`${recorded.bets.length} bets settled, ${expected.bets.length} placed`);
    }
    for (const field of ['stake', 'payout', 'commission', 'commissionOwed'] as const) {
      if (expected[field] !== recorded[field])
        diffs.push(`${field}: expected ${expected[field]}, recorded ${recorded[field]}`);
    }
    return diffs.length === 0
      ? [
          true,
          `stake ${expected.stake}, payout ${expected.payout}, commission ${expected.commission}, owed ${expected.commissionOwed}`,
        ]
      : [false, diffs.join('; ')];
  });
}

/** The bundle's void report against the one the revealed shoe gives (`expected`: voidReport or voidReportV3). */
export function checkVoidReport(report: Report, claimed: VoidReport, compute: () => VoidReport) {
  report.try('voids.report', () => {
    const expected = compute();
    if (canonicalJson(expected) === canonicalJson(claimed)) {
      return [
        true,
        expected.count === 0
          ? 'no round was voided'
          : `${expected.count} voided round(s); played, they would have netted the house ${expected.houseNet}: ${expected.rounds.map((r) => `round ${r.number} (${r.reason}) ${r.coup ? `${r.coup.winner} ${r.coup.cards.join(' ')}` : 'no coup left'}, ${r.houseNet}`).join('; ')}`,
      ];
    }
    const diffs: string[] = [];
    if (claimed.count !== expected.count)
      diffs.push(`count: expected ${expected.count}, reported ${claimed.count}`);
    if (claimed.houseNet !== expected.houseNet)
      diffs.push(`house net: expected ${expected.houseNet}, reported ${claimed.houseNet}`);
    for (const e of expected.rounds) {
      const c = claimed.rounds.find((r) => r.roundId === e.roundId);
      if (!c) diffs.push(`round ${e.number} is not reported`);
      else if (canonicalJson(c) !== canonicalJson(e))
        diffs.push(`round ${e.number}: reported otherwise than the shoe deals`);
    }
    return [false, diffs.join('; ') || 'the report differs from the one the revealed shoe gives'];
  });
}

function firstDifference(expected: readonly number[], recorded: readonly number[]): number {
  const n = Math.max(expected.length, recorded.length);
  for (let i = 0; i < n; i++) if (expected[i] !== recorded[i]) return i;
  return -1;
}
