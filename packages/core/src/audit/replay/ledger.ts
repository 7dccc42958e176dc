/** The ledger entries one position of a round moved money by: its bet calls, its payout or refund. */

import type { WalletMode } from '@pyb/contracts';
import { creditTxIdOf, stakePart } from '../../seamless';
import type { Bets, LedgerEntry, PositionRecord, RoundRecord, SeamlessTxRecord, Store } from '../../shared';
import { refundKey, settleKey, walletOfMark } from '../../shared';

export interface PositionLedger {
  /**
   * The entries of its calls (BET and BET_WITHDRAWAL of this round) in the wallet's ledger between the
   * position's first and last call, in order; a complete record has `calls` of them.
   */
  bets: LedgerEntry[];
  settle: LedgerEntry | undefined;
  refund: LedgerEntry | undefined;
  /**
   * Seamless, DEFERRED table: what its COMMISSION_RELEASE credit gives back (0: none recorded). A
   * hosted wallet releases a reserve inside its payout entry (`reservedAfter`); a seamless one with
   * a credit of its own.
   */
  released?: number;
  /**
   * Seamless: the commission reserve its debits hold after its last call (its last entry's
   * `reservedAfter`), which the position's reserve must equal. A hosted entry's `reservedAfter` is the
   * wallet's, across its positions: absent.
   */
  reserved?: number;
}

const isCall = (entry: LedgerEntry, roundId: string): boolean =>
  entry.roundId === roundId && (entry.kind === 'BET' || entry.kind === 'BET_WITHDRAWAL');

/**
 * A seamless transaction as the entry it stands for: the operator's wallet keeps the balance, the
 * platform's record of the call keeps what moved. Its seq is its number among the position's money
 * movements (calls 1..n, then the credit: PositionRecord.firstSeq/lastSeq/settleSeq/refundSeq), so
 * a seamless position is checked by the same rules as a hosted one. A call's REFUND credit (a
 * reduce/withdraw) is its BET_WITHDRAWAL entry. On a DEFERRED table its amount is the stake part, as a
 * hosted entry's, and `reservedAfter` the position's commission reserve after it (`reserved`); its
 * balances are the operator's around the whole call (stake and reserve); a balance the wallet has not
 * answered yet is 0.
 */
function seamlessEntry(
  tx: SeamlessTxRecord,
  seq: number,
  round: RoundRecord,
  opts: { call?: boolean; reserved?: number } = {},
): LedgerEntry {
  const debit = tx.op === 'DEBIT';
  const amount = stakePart(tx);
  const after = tx.balanceAfter ?? 0;
  const whole = debit ? -tx.amount : tx.amount;
  return {
    operatorId: tx.operatorId,
    playerId: tx.playerId,
    seq,
    key: tx.txId,
    requestHash: tx.requestHash ?? '',
    kind: debit ? 'BET' : opts.call ? 'BET_WITHDRAWAL' : tx.creditKind === 'REFUND' ? 'REFUND' : 'PAYOUT',
    currency: tx.currency,
    amount,
    balanceBefore: after - whole,
    balanceAfter: after,
    owedAfter: 0,
    reservedAfter: opts.reserved ?? 0,
    roundId: tx.roundId,
    shoeId: round.shoeId,
    tableId: tx.tableId,
    ...(tx.operatorTxId !== undefined && { reference: tx.operatorTxId }),
    ...(tx.bets !== undefined && { bets: tx.bets }),
    at: tx.createdAt,
    prevHash: '',
    hash: tx.txId,
  };
}

/**
 * A seamless position's money, from the records: its calls in order — debits (DEBITED) and the REFUND
 * credits of its reductions (committed with the position, so counted delivered or not) — then its credit.
 */
async function seamlessLedger(store: Store, round: RoundRecord, p: PositionRecord): Promise<PositionLedger> {
  const credit = async (kind: 'PAYOUT' | 'REFUND', seq: number | undefined) => {
    if (seq === undefined) return undefined;
    const tx = await store.get('seamlessTx', { txId: creditTxIdOf(round.roundId, p.playerId, kind) });
    return tx ? seamlessEntry(tx, seq, round) : undefined;
  };
  const [calls, settle, refund, release] = await Promise.all([
    Promise.all((p.debits ?? []).map((txId) => store.get('seamlessTx', { txId }))),
    p.settledAt ? credit('PAYOUT', p.settleSeq) : undefined,
    p.refundedAt ? credit('REFUND', p.refundSeq) : undefined,
    p.settledAt && p.reserve > 0
      ? store.get('seamlessTx', { txId: creditTxIdOf(round.roundId, p.playerId, 'COMMISSION_RELEASE') })
      : undefined,
  ]);
  // The reserve a position holds after each call: its debits add theirs, its refunds give theirs back.
  let reserved = 0;
  const bets = calls
    .map((tx, i) => {
      if (tx?.state !== 'DEBITED' && tx?.op !== 'CREDIT') return undefined;
      reserved += (tx.op === 'DEBIT' ? 1 : -1) * (tx.commissionReserve ?? 0);
      return seamlessEntry(tx, i + 1, round, { call: true, reserved });
    })
    .filter((e): e is LedgerEntry => e !== undefined);
  return {
    bets,
    settle,
    refund,
    released: release?.amount ?? 0,
    reserved: bets.at(-1)?.reservedAfter ?? 0,
  };
}

/** A hosted position's money: its entries in the player's wallet ledger. */
async function hostedLedger(store: Store, round: RoundRecord, p: PositionRecord): Promise<PositionLedger> {
  const wallet = { operatorId: round.operatorId, playerId: p.playerId };
  const [range, settle, refund] = await Promise.all([
    p.calls > 0 ? store.listLedgerRange(wallet.operatorId, wallet.playerId, p.firstSeq, p.lastSeq) : [],
    p.settledAt ? store.get('ledger', { ...wallet, key: settleKey(round.roundId, p.playerId) }) : undefined,
    p.refundedAt ? store.get('ledger', { ...wallet, key: refundKey(round.roundId, p.playerId) }) : undefined,
  ]);
  return { bets: range.filter((e) => isCall(e, round.roundId)), settle, refund };
}

type LedgerReader = (store: Store, round: RoundRecord, p: PositionRecord) => Promise<PositionLedger>;
const LEDGERS: Readonly<Record<WalletMode, LedgerReader>> = {
  hosted: hostedLedger,
  seamless: seamlessLedger,
};

/** A position's money as the wallet its stake was in recorded it (the position's mark). */
export const loadPositionLedger: LedgerReader = (store, round, p) =>
  LEDGERS[walletOfMark(p)](store, round, p);

export const ledgerEntries = (l: PositionLedger): (LedgerEntry | undefined)[] => [
  ...l.bets,
  ...(l.settle ? [l.settle] : []),
  ...(l.refund ? [l.refund] : []),
];

/** What the calls staked per type: bets add, withdrawals take back. */
export function stakedByType(calls: readonly LedgerEntry[]): Bets {
  const sums: Bets = {};
  for (const entry of calls) {
    const sign = entry.kind === 'BET_WITHDRAWAL' ? -1 : 1;
    for (const [type, amount] of Object.entries(entry.bets ?? {}) as [keyof Bets, number][]) {
      sums[type] = (sums[type] ?? 0) + sign * amount;
    }
  }
  return sums;
}

/**
 * Why a position's calls do not account for it, or undefined: as many entries as calls, the first and
 * last at the recorded sequence numbers, and their amounts adding up to the stake.
 */
export function callsProblem(p: PositionRecord, calls: readonly LedgerEntry[]): string | undefined {
  if (calls.length !== p.calls) {
    return `${p.calls} call(s) recorded, ${calls.length} entr${calls.length === 1 ? 'y' : 'ies'} of this round in the ledger between seq ${p.firstSeq} and ${p.lastSeq}`;
  }
  if (calls.length > 0 && (calls[0]!.seq !== p.firstSeq || calls[calls.length - 1]!.seq !== p.lastSeq)) {
    return `the calls' entries are not at seq ${p.firstSeq}..${p.lastSeq}`;
  }
  const taken = -calls.reduce((s, e) => s + e.amount, 0);
  if (taken !== p.stake) return `staked ${p.stake}, the ledger took ${taken}`;
  return undefined;
}
