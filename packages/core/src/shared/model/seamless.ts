/** The records of the operators (their wallet mode) and the calls to seamless wallets (index.ts: what the model is). */
import type {
  CreditKind,
  SeamlessRefusalCode,
  SeamlessSummaryData,
  SeamlessTxOp,
  SeamlessTxState,
  WalletMode,
} from '@pyb/contracts';
import type { Bets } from './tables';

/**
 * An operator: how its players hold their money (docs/seamless-wallet.md). No record = `hosted`
 * (every operator from before #15). Read by the bet path through a per-process cache
 * (OPERATOR_TTL_MS), so a hosted bet pays no read for it in the steady state.
 */
export interface OperatorRecord {
  operatorId: string;
  walletMode: WalletMode;
  /** Seamless mode: where the operator's wallet listens and which secret signs the calls. */
  seamless?: {
    /** The wallet's base URL (no trailing slash), e.g. `https://wallet.operator.example/pyb`. */
    baseUrl: string;
    /**
     * Where the HMAC secret is: a Secrets Manager secret ARN or name in AWS; `env:<NAME>` for a
     * variable of the process (the local stack). Never the secret itself.
     */
    secretRef: string;
  };
  createdAt: string;
  updatedAt: string;
  /** Changes recorded so far (OperatorEventRecord): numbers the next one. Absent: none yet. */
  changes?: number;
}

/** An operator's wallet mode and wallet, as one change left or found them. */
export type OperatorWalletState = Pick<OperatorRecord, 'walletMode' | 'seamless'>;

/**
 * One change of an operator's wallet mode or wallet (audit table, append-only): who, when, old → new.
 * Written in the transaction that writes the operator's record.
 */
export interface OperatorEventRecord {
  operatorId: string;
  seq: number;
  type: 'WALLET_SET';
  at: string;
  /** The key's role, operator and id (`provision:<user>` for the provisioning script). */
  by: { role: string; operatorId: string; keyId?: string };
  from: OperatorWalletState;
  to: OperatorWalletState;
}

export type { CreditKind, SeamlessTxOp, SeamlessTxState };

/**
 * One call the platform makes to an operator's seamless wallet, by its txId: the platform's books of
 * that wallet (replay, recall and reconciliation read them). States: docs/seamless-wallet.md §5.
 *
 * - DEBIT (`dbt_`): a bet's stake. DEBIT_PENDING -> DEBITED | DEBIT_REFUSED | ROLLBACK_PENDING ->
 *   ROLLED_BACK. Written before the wallet is called; DEBITED in the position's transaction.
 * - CREDIT (`crd_`): a payout, refund or commission release. CREDIT_PENDING (written in the
 *   transaction that settles / refunds / reduces the position: the outbox) -> CREDITED. A REFUND
 *   written by a reduce/withdraw is one of the position's calls (its txId in `PositionRecord.debits`,
 *   `requestHash` and `bets` set, like a debit's).
 * - ROLLBACK (`rbk_`): cancels the debit `debitTxId`. ROLLBACK_PENDING (the outbox) -> ROLLED_BACK,
 *   the debit's record moving to ROLLED_BACK in the same transaction.
 *
 * Pending credits and rollbacks are the outbox: the OutboxQueue carries their txIds, the delivery
 * use case calls the wallet until it answers OK.
 */
export interface SeamlessTxRecord {
  txId: string;
  op: SeamlessTxOp;
  /** CREDIT: what it gives back. */
  creditKind?: CreditKind;
  /** ROLLBACK: the debit it cancels. */
  debitTxId?: string;
  /** DEBIT in ROLLBACK_PENDING / ROLLED_BACK: the rollback that cancels it. */
  rollbackTxId?: string;
  operatorId: string;
  playerId: string;
  currency: string;
  /** Minor units, > 0. */
  amount: number;
  roundId: string;
  tableId: string;
  /** What the money is for, the same on every retry (`roundId:playerId:<call>`). */
  betRef: string;
  state: SeamlessTxState;
  /** Calls made to the wallet with this txId so far (a debit: at most 1). */
  attempts: number;
  createdAt: string;
  updatedAt: string;
  /** When the last call was made. */
  attemptedAt?: string;
  /** When it reached a final state. */
  resolvedAt?: string;
  /** DEBIT_REFUSED: the wallet's refusal (or a credit's, which a person must look at). */
  refusal?: { code: SeamlessRefusalCode; message?: string };
  /** The wallet's own id of the booking, as it answered. */
  operatorTxId?: string;
  /** The player's balance in the operator's wallet after this call, as it answered. */
  balanceAfter?: number;
  /** ROLLBACK answered OK: whether a debit was given back (false: the debit never arrived). */
  applied?: boolean;
  /** Why the last call's outcome was unknown (still pending). */
  lastError?: string;
  /**
   * DEBIT, and the REFUND of a reduce/withdraw: hash of the client's request (the same idempotency key
   * with another call is refused).
   */
  requestHash?: string;
  /** DEBIT: the bets this stake is for; the REFUND of a reduce/withdraw: the bets it takes back. */
  bets?: Bets;
  /** DEBIT: the seat the client asked for, if any. */
  seat?: number;
  /** DEBIT given up (ROLLBACK_PENDING / ROLLED_BACK): why — what a retry of the bet is answered. */
  rollbackReason?: 'UNKNOWN_OUTCOME' | 'BETTING_CLOSED' | 'NOT_PLACED' | 'ABANDONED';
  /** DEBIT and the REFUND of a reduce/withdraw: the shoe of its round (the call's answer names it). */
  shoeId?: string;
  /**
   * The part of `amount` that is a commission reserve (a DEFERRED table's Banca bet: docs/rules.md,
   * "Deferred commission in seamless mode"): a DEBIT's reserve taken, a REFUND's given back, a
   * ROLLBACK's as its debit's. Absent: none. A COMMISSION_RELEASE is all reserve.
   */
  commissionReserve?: number;
  /** COMMISSION_RELEASE: the position's debits whose reserve it gives back. */
  debitTxIds?: string[];
}

/**
 * The seamless reconciliation of one operator's UTC day, stored by the daily job (a re-run replaces
 * it): the summary of that day's transactions (bounded: sums and at most SEAMLESS_UNRESOLVED_NAMED_MAX
 * unresolved ones named) and how many stuck credits and rollbacks it handed to the outbox again.
 */
export interface SeamlessReportRecord {
  operatorId: string;
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  from: string;
  to: string;
  /** When the job made it. */
  asOf: string;
  summary: SeamlessSummaryData;
  redelivered: number;
}
