/** The ledger entries one position of a round moved money by: its bet debits, its payout or refund. */
import { refundKey, settleKey } from '../ledger-keys';
import type { LedgerEntry, PositionRecord, RoundRecord } from '../model';
import type { Store } from '../ports/store';

export interface PositionLedger {
  /** One per bet key, in the order the bets were placed (undefined: the entry is missing). */
  bets: (LedgerEntry | undefined)[];
  settle: LedgerEntry | undefined;
  refund: LedgerEntry | undefined;
}

export async function loadPositionLedger(
  store: Store,
  round: RoundRecord,
  p: PositionRecord,
): Promise<PositionLedger> {
  const wallet = { operatorId: round.operatorId, playerId: p.playerId };
  const [bets, settle, refund] = await Promise.all([
    Promise.all(p.betKeys.map((key) => store.get('ledger', { ...wallet, key }))),
    p.settledAt ? store.get('ledger', { ...wallet, key: settleKey(round.roundId, p.playerId) }) : undefined,
    p.refundedAt ? store.get('ledger', { ...wallet, key: refundKey(round.roundId, p.playerId) }) : undefined,
  ]);
  return { bets, settle, refund };
}

export const ledgerEntries = (l: PositionLedger): (LedgerEntry | undefined)[] => [
  ...l.bets,
  ...(l.settle ? [l.settle] : []),
  ...(l.refund ? [l.refund] : []),
];
