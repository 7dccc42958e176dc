/**
 * Seamless transactions (docs/seamless-wallet.md §5): their ids, references and the writes that move
 * them. A txId is derived, never drawn: a retried bet (same idempotency key) and a re-run settlement
 * find the record they wrote before.
 */
import type { CreditKind, SeamlessRequests } from '@pyb/contracts';
import { eventHash } from '@pyb/fairness';
import type { PositionRecord, SeamlessTxRecord, WriteOp } from '../shared';

/** How a seamless bet's debit is named: by operator, round, player and the client's idempotency key. */
export const debitTxIdOf = (operatorId: string, roundId: string, playerId: string, key: string): string =>
  `dbt_${eventHash('seamless:debit', { operatorId, roundId, playerId, key }).slice(0, 40)}`;

/**
 * How the REFUND credit of a seamless reduce/withdraw is named: like its debit, by operator, round,
 * player and the client's idempotency key (another hash domain: a withdrawal is not a debit).
 */
export const withdrawTxIdOf = (operatorId: string, roundId: string, playerId: string, key: string): string =>
  `crd_${eventHash('seamless:withdraw', { operatorId, roundId, playerId, key }).slice(0, 40)}`;

/** The one credit of a kind a position gets when it is settled or voided (its payout, or its refund). */
export const creditTxIdOf = (roundId: string, playerId: string, kind: CreditKind): string =>
  `crd_${eventHash('seamless:credit', { roundId, playerId, kind }).slice(0, 40)}`;

/** The rollback of a debit: one per debit. */
const rollbackTxIdOf = (debitTxId: string): string => `rbk_${debitTxId.slice(4)}`;

/** What the money is for, within the protocol's 128 characters: `roundId:playerId:what`. */
export function betRefOf(roundId: string, playerId: string, what: string): string {
  const ref = `${roundId}:${playerId}:${what}`;
  return ref.length <= 128
    ? ref
    : `${roundId}:${eventHash('seamless:player', playerId).slice(0, 16)}:${what.slice(0, 40)}`;
}

/** States nothing more happens to (the contracts' SEAMLESS_FINAL_STATES, as a set). */
export const isPendingState = (state: SeamlessTxRecord['state']): boolean =>
  state === 'DEBIT_PENDING' || state === 'CREDIT_PENDING' || state === 'ROLLBACK_PENDING';

/**
 * The credit of a seamless position (PAYOUT, REFUND or COMMISSION_RELEASE) as an outbox item: put in
 * the transaction that settles or refunds the position (the position's own condition makes it happen
 * once). `commissionReserve`: the part of a REFUND that gives a commission reserve back.
 */
export function creditPart(
  position: PositionRecord,
  kind: CreditKind,
  amount: number,
  currency: string,
  at: string,
  commissionReserve = 0,
): { op: WriteOp; txId: string } {
  const txId = creditTxIdOf(position.roundId, position.playerId, kind);
  const item: SeamlessTxRecord = {
    txId,
    op: 'CREDIT',
    creditKind: kind,
    operatorId: position.operatorId,
    playerId: position.playerId,
    currency,
    amount,
    roundId: position.roundId,
    tableId: position.tableId,
    betRef: betRefOf(position.roundId, position.playerId, kind.toLowerCase()),
    state: 'CREDIT_PENDING',
    attempts: 0,
    createdAt: at,
    updatedAt: at,
    ...(commissionReserve > 0 && { commissionReserve }),
    ...(kind === 'COMMISSION_RELEASE' && { debitTxIds: position.debits ?? [] }),
  };
  return { op: { kind: 'put', entity: 'seamlessTx', key: { txId }, item }, txId };
}

/**
 * Gives a debit up: the debit's record to ROLLBACK_PENDING (only from DEBIT_PENDING) and its rollback
 * put in the outbox, in one transaction. The debit is never sent again.
 */
export function rollbackParts(
  debit: SeamlessTxRecord,
  reason: NonNullable<SeamlessTxRecord['rollbackReason']>,
  at: string,
  lastError?: string,
): { ops: WriteOp[]; txId: string } {
  const txId = rollbackTxIdOf(debit.txId);
  const rollback: SeamlessTxRecord = {
    txId,
    op: 'ROLLBACK',
    debitTxId: debit.txId,
    operatorId: debit.operatorId,
    playerId: debit.playerId,
    currency: debit.currency,
    amount: debit.amount,
    roundId: debit.roundId,
    tableId: debit.tableId,
    betRef: debit.betRef,
    ...(debit.commissionReserve !== undefined && { commissionReserve: debit.commissionReserve }),
    state: 'ROLLBACK_PENDING',
    attempts: 0,
    createdAt: at,
    updatedAt: at,
  };
  return {
    txId,
    ops: [
      {
        kind: 'update',
        entity: 'seamlessTx',
        key: { txId: debit.txId },
        set: {
          state: 'ROLLBACK_PENDING',
          rollbackTxId: txId,
          rollbackReason: reason,
          updatedAt: at,
          ...(lastError !== undefined && { lastError }),
        },
        expect: { state: 'DEBIT_PENDING' },
      },
      { kind: 'put', entity: 'seamlessTx', key: { txId }, item: rollback },
    ],
  };
}

/** What every request a record stands for carries: its references, and how its amount splits. */
export const referencesOf = (tx: SeamlessTxRecord) => ({
  txId: tx.txId,
  playerId: tx.playerId,
  currency: tx.currency,
  amount: tx.amount,
  roundId: tx.roundId,
  tableId: tx.tableId,
  betRef: tx.betRef,
  ...(tx.commissionReserve !== undefined && { commissionReserve: tx.commissionReserve }),
});

/** The protocol request a record stands for. */
export const debitRequest = (tx: SeamlessTxRecord): SeamlessRequests['debit'] => referencesOf(tx);

/**
 * The stake part of a record's amount (what a hosted ledger entry would show: the reserve is held
 * apart, `reservedAfter`), signed as the player's balance moves.
 */
export function stakePart(tx: SeamlessTxRecord): number {
  const stake =
    tx.amount - (tx.creditKind === 'COMMISSION_RELEASE' ? tx.amount : (tx.commissionReserve ?? 0));
  return tx.op === 'DEBIT' ? -stake : stake;
}
