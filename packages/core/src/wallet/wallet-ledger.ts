/**
 * Wallet movements. Every change of a wallet is one ledger entry written in the same transaction as
 * the wallet, conditional on the wallet's sequence number (so balance-before is exact and two
 * movements can never both apply to the same state) and on what it takes being available. The ledger
 * is itself a hash chain per wallet. A movement outside rounds (credit, debit, responsible-gaming
 * change, commission collection, session end) also puts a copy of its entry under the operator's
 * movements of its UTC day (Store.listMovements); a round's movements (bets, payouts, refunds) do not.
 */
import { eventHash } from '@pyb/fairness';
import type { LedgerEntry, LedgerKind, WalletRecord, WalletRg, WriteOp } from '../shared';
import { DomainError } from '../shared';
import { countMovement } from './responsible-gaming-rules';

export const walletGenesis = (operatorId: string, playerId: string): string =>
  `wallet:${operatorId}:${playerId}`;

/** The ledger entry without its hash fields: what is hashed. */
export const ledgerBody = (entry: LedgerEntry): Omit<LedgerEntry, 'prevHash' | 'hash'> => {
  const { prevHash: _p, hash: _h, ...body } = entry;
  return body;
};

export interface Movement {
  kind: LedgerKind;
  /** Scoped key: `c:<client key>` or `s:<system key>`. */
  key: string;
  requestHash: string;
  /** Change of the balance (signed). */
  amount: number;
  /** Change of the deferred commission owed. */
  owed?: number;
  /** Change of the amount reserved for open BANKER bets. */
  reserved?: number;
  at: string;
  roundId?: string;
  shoeId?: string;
  tableId?: string;
  reference?: string;
  bets?: LedgerEntry['bets'];
  /** The table session the movement belongs to (a bet's, or the settled position's). */
  sessionId?: string;
  /**
   * The wallet's responsible-gaming state to write, when the movement changes more than its counters
   * (a bet's session, the operator's settings); default: the counters moved by this entry.
   */
  rg?: WalletRg;
}

export interface MovementPlan {
  ops: WriteOp[];
  entry: LedgerEntry;
  wallet: WalletRecord;
}

export const insufficientFunds = (wallet: WalletRecord, needed: number): DomainError =>
  new DomainError(
    'INSUFFICIENT_FUNDS',
    'INSUFFICIENT_FUNDS',
    `the wallet has ${wallet.available} available, ${needed} needed`,
    {
      available: wallet.available,
      needed,
    },
  );

/** Plans a movement on `wallet` (as read); throws INSUFFICIENT_FUNDS if it would take more than is available. */
export function planMovement(wallet: WalletRecord, m: Movement, create = false): MovementPlan {
  const owed = wallet.owed + (m.owed ?? 0);
  const reserved = wallet.reserved + (m.reserved ?? 0);
  const balance = wallet.balance + m.amount;
  const available = balance - owed - reserved;
  const taken = wallet.available - available;
  if (available < 0 || owed < 0 || reserved < 0 || balance < 0) throw insufficientFunds(wallet, taken);
  for (const n of [balance, owed, reserved]) {
    if (!Number.isSafeInteger(n))
      throw new DomainError('UNPROCESSABLE', 'AMOUNT_TOO_LARGE', 'amount exceeds the safe range');
  }
  const seq = wallet.seq + 1;
  const body: Omit<LedgerEntry, 'prevHash' | 'hash'> = JSON.parse(
    JSON.stringify({
      operatorId: wallet.operatorId,
      playerId: wallet.playerId,
      seq,
      key: m.key,
      requestHash: m.requestHash,
      kind: m.kind,
      currency: wallet.currency,
      amount: m.amount,
      balanceBefore: wallet.balance,
      balanceAfter: balance,
      owedAfter: owed,
      reservedAfter: reserved,
      roundId: m.roundId,
      shoeId: m.shoeId,
      tableId: m.tableId,
      reference: m.reference,
      bets: m.bets,
      sessionId: m.sessionId,
      at: m.at,
    }),
  );
  const hash = eventHash(wallet.head, body);
  // The responsible-gaming counters move with the entry, in the same write (no extra item).
  const rg = countMovement(m.rg ?? wallet.rg, m);
  const entry: LedgerEntry = { ...body, prevHash: wallet.head, hash };
  const next: WalletRecord = {
    ...wallet,
    balance,
    owed,
    reserved,
    available,
    seq,
    head: hash,
    rg,
    updatedAt: m.at,
  };
  const key = { operatorId: wallet.operatorId, playerId: wallet.playerId };
  const walletOp: WriteOp = create
    ? { kind: 'put', entity: 'wallet', key, item: next }
    : {
        kind: 'update',
        entity: 'wallet',
        key,
        set: { balance, owed, reserved, available, seq, head: hash, rg, updatedAt: m.at },
        // The sequence number pins the state the movement was computed from; the availability check
        // states the invariant on its own (what it takes is there).
        expect: { seq: wallet.seq, available: { gte: Math.max(0, taken) } },
      };
  const ops: WriteOp[] = [
    walletOp,
    { kind: 'put', entity: 'ledger', key: { ...key, key: m.key }, item: entry },
  ];
  // A movement outside rounds is also kept by time (the regulator feed finds it there); a round's
  // movements are found through the round's positions, so a bet writes nothing more (#11 capacity).
  if (m.roundId === undefined) {
    ops.push({ kind: 'put', entity: 'movement', key: { ...key, at: m.at, seq }, item: entry });
  }
  return { ops, entry, wallet: next };
}

/** A wallet that does not exist yet: plan its first movement with `create` (a conditional put). */
export function newWallet(operatorId: string, playerId: string, currency: string, at: string): WalletRecord {
  return {
    operatorId,
    playerId,
    currency,
    balance: 0,
    owed: 0,
    reserved: 0,
    available: 0,
    seq: 0,
    head: walletGenesis(operatorId, playerId),
    createdAt: at,
    updatedAt: at,
  };
}
