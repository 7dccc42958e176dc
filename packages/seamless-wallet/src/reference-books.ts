/**
 * The reference operator wallet's books (reference-wallet.ts serves them over HTTP): balances, every
 * transaction seen and its first answer, the booked entries — the protocol's semantics with no I/O.
 * Each txId is applied at most once and a repeat gets the first answer; a debit is refused (422) when
 * the player cannot pay; a rollback gives back an applied debit, or — if the debit never arrived —
 * books nothing and refuses that debit for ever (a tombstone).
 */
import { randomUUID } from 'node:crypto';
import type { SeamlessOk, SeamlessOperation, SeamlessRefusal, SeamlessRequests } from '@pyb/contracts';

export interface BookEntry {
  operatorTxId: string;
  txId: string;
  operation: 'debit' | 'credit' | 'rollback';
  playerId: string;
  currency: string;
  /** Signed: a debit is negative. Zero for a rollback of a debit that never arrived. */
  amount: number;
  roundId: string;
  betRef: string;
  kind?: string;
  debitTxId?: string;
  /** The part of the amount that is a commission reserve (deferred-commission tables), as sent. */
  commissionReserve?: number;
  /** A COMMISSION_RELEASE's debits, as sent. */
  debitTxIds?: string[];
  balanceAfter: number;
}

export interface Answer {
  status: number;
  body: SeamlessOk | SeamlessRefusal | { code: string; message: string };
}

interface Stored {
  fingerprint: string;
  answer: Answer;
}

const stable = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );

export class ReferenceBooks {
  private readonly balances = new Map<string, { currency: string; balance: number }>();
  private readonly transactions = new Map<string, Stored>();
  /** Debits rolled back before they arrived: refused if they ever do. */
  private readonly tombstones = new Set<string>();
  /** Debits given back by a rollback (a second rollback gives nothing). */
  private readonly rolledBack = new Set<string>();
  private readonly booked: BookEntry[] = [];

  fund(playerId: string, currency: string, amount: number): void {
    const account = this.balances.get(playerId);
    if (account && account.currency !== currency) throw new Error(`${playerId} holds ${account.currency}`);
    this.balances.set(playerId, { currency, balance: (account?.balance ?? 0) + amount });
  }

  balanceOf(playerId: string): number | undefined {
    return this.balances.get(playerId)?.balance;
  }

  /** The entries, in booking order. */
  entries(): readonly BookEntry[] {
    return [...this.booked];
  }

  /** What `POST /_control/books` answers. */
  snapshot(): { balances: Record<string, { currency: string; balance: number }>; entries: BookEntry[] } {
    return { balances: Object.fromEntries(this.balances), entries: [...this.booked] };
  }

  has(txId: string): boolean {
    return this.transactions.has(txId);
  }

  /** The protocol's semantics: idempotent per txId. */
  apply<O extends SeamlessOperation>(operation: O, request: SeamlessRequests[O]): Answer {
    if (operation === 'balance') {
      const b = request as SeamlessRequests['balance'];
      const account = this.balances.get(b.playerId);
      if (!account) return { status: 422, body: { code: 'UNKNOWN_PLAYER' } };
      if (account.currency !== b.currency) return { status: 422, body: { code: 'CURRENCY_MISMATCH' } };
      return { status: 200, body: { playerId: b.playerId, currency: b.currency, balance: account.balance } };
    }
    const tx = request as SeamlessRequests['debit' | 'credit' | 'rollback'];
    const seen = this.transactions.get(tx.txId);
    if (seen) {
      return seen.fingerprint === stable({ operation, tx })
        ? seen.answer
        : { status: 422, body: { code: 'TX_MISMATCH', message: 'this txId came with another body' } };
    }
    return this.remember(tx, this.book(operation as 'debit' | 'credit' | 'rollback', tx), operation);
  }

  remember(tx: { txId: string }, answer: Answer, operation: string = 'debit'): Answer {
    this.transactions.set(tx.txId, { fingerprint: stable({ operation, tx }), answer });
    return answer;
  }

  private book(
    operation: 'debit' | 'credit' | 'rollback',
    tx: SeamlessRequests['debit' | 'credit' | 'rollback'],
  ): Answer {
    const account = this.balances.get(tx.playerId);
    // A rollback is never refused: a debit for a player (or currency) the wallet does not hold was
    // refused or never arrived, so there is nothing to give back — applied: false, and that debit
    // is refused from now on like any debit rolled back before it arrived.
    if (operation === 'rollback' && (!account || account.currency !== tx.currency)) {
      return this.rollbackNothing(tx as SeamlessRequests['rollback']);
    }
    if (!account) return { status: 422, body: { code: 'UNKNOWN_PLAYER' } };
    if (account.currency !== tx.currency) return { status: 422, body: { code: 'CURRENCY_MISMATCH' } };
    let amount: number;
    let applied: boolean | undefined;
    if (operation === 'debit') {
      if (this.tombstones.has(tx.txId)) return { status: 422, body: { code: 'DEBIT_ROLLED_BACK' } };
      if (account.balance < tx.amount) return { status: 422, body: { code: 'INSUFFICIENT_FUNDS' } };
      amount = -tx.amount;
    } else if (operation === 'credit') {
      amount = tx.amount;
    } else {
      const debitTxId = (tx as SeamlessRequests['rollback']).debitTxId;
      const debit = this.transactions.get(debitTxId);
      const debitApplied = debit?.answer.status === 200 && !this.rolledBack.has(debitTxId);
      if (!debit) this.tombstones.add(debitTxId);
      if (debitApplied) this.rolledBack.add(debitTxId);
      applied = debitApplied;
      amount = debitApplied ? tx.amount : 0;
    }
    account.balance += amount;
    const operatorTxId = `op-${randomUUID()}`;
    this.booked.push({
      operatorTxId,
      txId: tx.txId,
      operation,
      playerId: tx.playerId,
      currency: tx.currency,
      amount,
      roundId: tx.roundId,
      betRef: tx.betRef,
      ...('kind' in tx && { kind: tx.kind }),
      ...('debitTxId' in tx && { debitTxId: tx.debitTxId }),
      ...(tx.commissionReserve !== undefined && { commissionReserve: tx.commissionReserve }),
      ...('debitTxIds' in tx && tx.debitTxIds !== undefined && { debitTxIds: tx.debitTxIds }),
      balanceAfter: account.balance,
    });
    return {
      status: 200,
      body: {
        txId: tx.txId,
        playerId: tx.playerId,
        currency: tx.currency,
        balance: account.balance,
        operatorTxId,
        ...(applied !== undefined && { applied }),
      },
    };
  }

  /** A rollback for a player or currency without an account: books nothing, balance 0 in that currency. */
  private rollbackNothing(tx: SeamlessRequests['rollback']): Answer {
    if (!this.transactions.has(tx.debitTxId)) this.tombstones.add(tx.debitTxId);
    const operatorTxId = `op-${randomUUID()}`;
    this.booked.push({
      operatorTxId,
      txId: tx.txId,
      operation: 'rollback',
      playerId: tx.playerId,
      currency: tx.currency,
      amount: 0,
      roundId: tx.roundId,
      betRef: tx.betRef,
      debitTxId: tx.debitTxId,
      balanceAfter: 0,
    });
    return {
      status: 200,
      body: {
        txId: tx.txId,
        playerId: tx.playerId,
        currency: tx.currency,
        balance: 0,
        operatorTxId,
        applied: false,
      },
    };
  }
}
