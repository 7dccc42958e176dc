/** A seamless position's credits at its settlement (seamless-stake.ts), and the reserve they give back. */
import type { PositionSettlement, TableConfig } from '@pyb/engine';
import { creditPart } from '../seamless';
import type { PositionRecord, WriteOp } from '../shared';

/**
 * A seamless position's credits at settlement: its PAYOUT (stake back plus winnings, in full: a
 * DEFERRED table takes no commission at payment), and the COMMISSION_RELEASE of its commission
 * reserve less what it now owes (a Banca bet that lost or pushed gets it all back; one that won owes
 * exactly its reserve, kept as the commission: docs/rules.md, "Deferred commission in seamless mode").
 */
export function seamlessCredits(
  position: PositionRecord,
  settlement: PositionSettlement,
  config: TableConfig,
  at: string,
): { op: WriteOp; txId: string }[] {
  const released = reserveReleased(position.reserve, settlement);
  return [
    ...(settlement.payout > 0
      ? [creditPart(position, 'PAYOUT', settlement.payout, config.currency, at)]
      : []),
    ...(released > 0 ? [creditPart(position, 'COMMISSION_RELEASE', released, config.currency, at)] : []),
  ];
}

/**
 * What a settled position's commission reserve gives back: the reserve less the commission the
 * settlement adds to the debt. The reserve is the worst case, so it always covers what is owed.
 */
export function reserveReleased(reserve: number, settlement: PositionSettlement): number {
  const released = reserve - settlement.commissionOwed;
  if (released < 0)
    throw new Error(`commission owed ${settlement.commissionOwed} exceeds the reserve ${reserve}`);
  return released;
}
