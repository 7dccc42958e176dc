/** The audit checks of a round's money: its bets, its refunds (voided) and its settlement. */
import {
  BET_TYPES,
  betList,
  type CoupResult,
  settle,
  type TableConfig,
  worstCaseCommission,
} from '@pyb/engine';
import { betsDigest, refundsDigest, settlementsDigest } from '@pyb/fairness';
import type { ReplayProblem, RoundRecord } from '../../shared';
import { same } from '../../shared';
import { recordedPositions, totalsOf } from '../../trail';
import { Problems, type RoundEvidence } from './evidence';
import { callsProblem, stakedByType } from './ledger';
import { engineCoup } from './round-checks';
import { eventOf } from './round-events';

/** The stored bets: their stakes, their calls in the ledger, and the digest BETTING_CLOSED committed. */
export function betsProblems({ round, positions, log, ledgers, shoe }: RoundEvidence): ReplayProblem[] {
  const p = new Problems();
  for (const pos of positions) {
    const sum = betList(pos.bets).reduce((s, b) => s + b.amount, 0);
    if (sum !== pos.stake) {
      p.add(
        'STAKE_MISMATCH',
        `${pos.playerId}: the bets add up to ${sum}, the position records a stake of ${pos.stake}`,
        null,
        pos.playerId,
      );
    }
    const ledger = ledgers.get(pos.playerId);
    if (!ledger) continue;
    const debited = stakedByType(ledger.bets);
    for (const type of BET_TYPES) {
      if ((debited[type] ?? 0) !== (pos.bets[type] ?? 0)) {
        p.add(
          'BETS_MISMATCH',
          `${pos.playerId}: the position holds ${type} ${pos.bets[type] ?? 0}, the bet calls in the ledger ${debited[type] ?? 0}`,
          null,
          pos.playerId,
        );
      }
    }
    const problem = callsProblem(pos, ledger.bets);
    if (problem) p.add('LEDGER_MISMATCH', `${pos.playerId}: ${problem}`, null, pos.playerId);
    if (ledger.reserved !== undefined) {
      // Its debits reserved, on top of the stakes, exactly the worst-case commission of its Banca bet.
      const { reserved } = ledger;
      const worst = worstCaseCommission(shoe.statement.table as TableConfig, betList(pos.bets));
      if (reserved !== pos.reserve || pos.reserve !== worst) {
        p.add(
          'LEDGER_MISMATCH',
          `${pos.playerId}: the debits reserved ${reserved} for commission, the position ${pos.reserve}; the rules' worst case is ${worst}`,
          null,
          pos.playerId,
        );
      }
    }
  }
  const closed = eventOf(log.ofRound(round.roundId), 'BETTING_CLOSED')?.event;
  if (!closed) return p.list;
  const recomputed = betsDigest(recordedPositions(positions), shoe.digestSalt);
  if (closed.data.betsDigest !== recomputed) {
    p.add(
      'BETS_DIGEST',
      `the stored bets (digest ${recomputed}) are not the bets committed when betting closed (${String(closed.data.betsDigest)})`,
      closed.seq,
    );
  }
  const _stake = positions.reduce((s, x) => s + x.stake, 0);
  if (closed.data.positions !== positions.length) {
    p.add(
      'BETS_TOTAL',
      `BETTING_CLOSED recorded ${String(closed.data.positions)} positions; stored: ${positions.length}`,
      closed.seq,
    );
  }
  return p.list;
}

export const voiding = (round: RoundRecord) => round.status === 'VOIDED' || round.status === 'VOIDING';

/** The coup the rules deal: from the re-dealt shoe once revealed, else the recorded cards replayed. */
export function rulesCoup(e: RoundEvidence): { coup: CoupResult; revealed: boolean } | undefined {
  const { round, reveal } = e;
  if (!round.coup) return undefined;
  const revealed = reveal.status === 'REVEALED' ? reveal.shoe?.coups[round.coup.index]?.result : undefined;
  return {
    coup: revealed ?? engineCoup(round).result ?? round.coup.result,
    revealed: revealed !== undefined,
  };
}

/** A voided round's refunds: every stake given back once, by its ledger entry, and their digest. */
function refundProblems({ round, positions, log, ledgers, shoe }: RoundEvidence): ReplayProblem[] {
  const p = new Problems();
  for (const pos of positions) {
    if (pos.settledAt)
      p.add(
        'SETTLEMENT_MISMATCH',
        `${pos.playerId}: a voided round's position was settled`,
        null,
        pos.playerId,
      );
    if (round.status === 'VOIDED' && !pos.refundedAt)
      p.add(
        'REFUND_MISSING',
        `${pos.playerId}: the round is voided but the stake was not refunded`,
        null,
        pos.playerId,
      );
    const refund = ledgers.get(pos.playerId)?.refund;
    if (
      ledgers.has(pos.playerId) &&
      pos.refundedAt &&
      (refund?.amount !== pos.stake || refund.seq !== pos.refundSeq || refund.kind !== 'REFUND')
    ) {
      p.add(
        'LEDGER_MISMATCH',
        `${pos.playerId}: refunded ${pos.stake}, the ledger refund says ${refund?.amount ?? 'nothing'}`,
        null,
        pos.playerId,
      );
    }
  }
  const voided = eventOf(log.ofRound(round.roundId), 'ROUND_VOIDED')?.event;
  if (voided) {
    const recomputed = refundsDigest(recordedPositions(positions, true), shoe.digestSalt);
    if (voided.data.refundsDigest !== recomputed) {
      p.add(
        'REFUNDS_DIGEST',
        `the stored refunds (digest ${recomputed}) are not the ones ROUND_VOIDED committed (${String(voided.data.refundsDigest)})`,
        voided.seq,
      );
    }
  }
  return p.list;
}

/**
 * Each position settled as the engine settles it against the coup the rules deal, paid by its ledger
 * entry, the settlements committed by ROUND_SETTLED and summed in the round's totals; or, for a voided
 * round, the refunds.
 */
export function settlementProblems(e: RoundEvidence): ReplayProblem[] {
  const { round, positions, log, ledgers, shoe } = e;
  if (voiding(round)) return refundProblems(e);
  const rules = rulesCoup(e);
  if (!rules) return [];
  const p = new Problems();
  const table = shoe.statement.table as TableConfig;
  for (const pos of positions) {
    if (!pos.settledAt) {
      if (round.status === 'SETTLED')
        p.add(
          'SETTLEMENT_MISSING',
          `${pos.playerId}: the round is settled but this position is not`,
          null,
          pos.playerId,
        );
      continue;
    }
    const expected = settle(table, betList(pos.bets), rules.coup);
    const stored = pos.settlement;
    const diffs: string[] = [];
    for (const b of expected.bets) {
      const s = stored?.bets.find((x) => x.type === b.type);
      if (!s) diffs.push(`${b.type} not settled`);
      else
        for (const f of ['amount', 'result', 'payout', 'commission', 'commissionOwed'] as const) {
          if (b[f] !== s[f]) diffs.push(`${b.type} ${f}: the rules give ${b[f]}, stored ${s[f]}`);
        }
    }
    if ((stored?.bets.length ?? 0) !== expected.bets.length)
      diffs.push(`${stored?.bets.length ?? 0} bets settled, ${expected.bets.length} placed`);
    for (const f of ['stake', 'payout', 'commission', 'commissionOwed'] as const) {
      if (expected[f] !== stored?.[f])
        diffs.push(`${f}: the rules give ${expected[f]}, stored ${stored?.[f]}`);
    }
    if (diffs.length > 0)
      p.add('SETTLEMENT_MISMATCH', `${pos.playerId}: ${diffs.join('; ')}`, null, pos.playerId);
    const ledger = ledgers.get(pos.playerId);
    if (ledger) {
      const moved = ledger.settle?.amount ?? 0;
      const paid = stored?.payout ?? 0;
      if (
        moved !== paid ||
        ledger.settle?.seq !== pos.settleSeq ||
        (ledger.settle && ledger.settle.kind !== 'PAYOUT')
      ) {
        p.add(
          'LEDGER_MISMATCH',
          `${pos.playerId}: paid ${paid}, the ledger's payout entry credited ${moved}`,
          null,
          pos.playerId,
        );
      }
      // A seamless commission reserve: what the settlement does not owe goes back, by its own credit.
      const release = pos.reserve - expected.commissionOwed;
      if (ledger.released !== undefined && ledger.released !== Math.max(release, 0)) {
        p.add(
          'LEDGER_MISMATCH',
          `${pos.playerId}: a commission reserve of ${pos.reserve} owes ${expected.commissionOwed}, its release credited ${ledger.released}`,
          null,
          pos.playerId,
        );
      }
    }
  }
  const settled = eventOf(log.ofRound(round.roundId), 'ROUND_SETTLED')?.event;
  if (settled) {
    const recomputed = settlementsDigest(recordedPositions(positions), shoe.digestSalt);
    if (settled.data.settlementsDigest !== recomputed) {
      p.add(
        'SETTLEMENTS_DIGEST',
        `the stored settlements (digest ${recomputed}) are not the ones ROUND_SETTLED committed (${String(settled.data.settlementsDigest)})`,
        settled.seq,
      );
    }
    if (round.totals && !same(round.totals, totalsOf(positions))) {
      p.add('TOTALS_MISMATCH', "the round's totals are not the sum of its positions", settled.seq);
    }
  }
  return p.list;
}
