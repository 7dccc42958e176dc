import type { RecordedPosition } from '@pyb/fairness';
import type { PositionRecord, RoundTotals } from '../shared';

/**
 * A stored position as the audit chain and the exported bundle record it. The digests of the chain
 * (`betsDigest`, `settlementsDigest`, `refundsDigest` in @pyb/fairness) are computed over this shape,
 * by the core when it writes the chain and by every verifier when it checks it: one definition.
 */
export const recordedPosition = (p: PositionRecord, voided = false): RecordedPosition => ({
  playerId: p.playerId,
  bets: p.bets,
  stake: p.stake,
  calls: p.calls,
  settlement: p.settlement ?? null,
  ledgerSeq: (voided ? p.refundSeq : p.settleSeq) ?? null,
});

export const recordedPositions = (positions: readonly PositionRecord[], voided = false): RecordedPosition[] =>
  positions.map((p) => recordedPosition(p, voided));

/** A round's totals: the sums of its positions' stakes and settlements. */
export function totalsOf(positions: readonly PositionRecord[]): RoundTotals {
  const sum = (f: (p: PositionRecord) => number) => positions.reduce((s, p) => s + f(p), 0);
  return {
    positions: positions.length,
    stake: sum((p) => p.stake),
    payout: sum((p) => p.settlement?.payout ?? 0),
    commission: sum((p) => p.settlement?.commission ?? 0),
    commissionOwed: sum((p) => p.settlement?.commissionOwed ?? 0),
  };
}
