/**
 * The StakeSource port: where a round's money comes from and goes back to (docs/architecture.md,
 * "Stake sources"). Two implementations: the platform's own wallets (hosted-stake.ts: the money moves
 * inside the position's transaction, a wallet update and a ledger entry keyed by the idempotency
 * key) and the operator's wallet (seamless-stake.ts: a signed debit before the position's
 * transaction, credits written with it as outbox records and delivered after it); each in two halves,
 * its calls (`*-stake-calls.ts`) and its money (`*-stake.ts`). One is chosen per
 * operator where its record is read (stake-sources.ts), and a position keeps the one its stake came
 * from (`PositionRecord.wallet`) for its settlement or refund. The use cases (bets, settle, void,
 * leave) hold no `walletMode` test: they ask the source.
 */
import type { WalletMode } from '@pyb/contracts';
import type { PositionSettlement, TableConfig } from '@pyb/engine';
import type {
  Ctx,
  DebtRecord,
  OperatorRecord,
  PlaceBetResult,
  PositionRecord,
  RoundFacts,
  RoundRecord,
  WriteOp,
} from '../shared';
import type { Change } from './bet-parts';

/** One bet or withdrawal call on a player's position (bets.ts builds it). */
export interface StakeCall {
  facts: RoundFacts;
  config: TableConfig;
  change: Change;
  /** The client's idempotency key (checked): a seamless call derives its txIds from it. */
  idempotencyKey: string;
  /** The operator as read for this call (undefined: none configured, hence hosted). */
  operator: OperatorRecord | undefined;
  /** The round as read with its facts, if fresh (the first attempt may use it). */
  fresh: RoundRecord | undefined;
}

/**
 * A position's money at its settlement or refund: the writes that go in the position's transaction,
 * the sequence number of its movement (absent: no money moved) and the outbox records to deliver
 * after the commit.
 */
export interface MoneyParts {
  seq?: number;
  ops: WriteOp[];
  outbox: string[];
}

/**
 * A stake source, in two halves so that a function's bundle holds only the half it uses (a bet's
 * Lambda carries no settlement, a settlement's no bet path): its calls (a bet or withdrawal) and its
 * money at the end of a round. Each implementation provides both (`hostedStakeCalls` with
 * `hostedStakeMoney`, `seamlessStakeCalls` with `seamlessStakeMoney`).
 */
export type StakeSource = StakeCalls & StakeMoney;

export interface StakeCalls {
  readonly mode: WalletMode;
  /** A bet (change.kind BET) or a reduce/withdraw (BET_WITHDRAWAL), its money moved exactly once. */
  change(ctx: Ctx, call: StakeCall): Promise<PlaceBetResult>;
}

export interface StakeMoney {
  readonly mode: WalletMode;
  /** What paying a settled position moves; undefined: a concurrent settler paid it. */
  settlementParts(
    ctx: Ctx,
    input: {
      round: RoundRecord;
      position: PositionRecord;
      config: TableConfig;
      settlement: PositionSettlement;
      at: string;
    },
  ): Promise<MoneyParts | undefined>;
  /** What refunding a voided round's position moves; undefined: a concurrent call refunded it. */
  refundParts(
    ctx: Ctx,
    input: { round: RoundRecord; position: PositionRecord; at: string },
  ): Promise<MoneyParts | undefined>;
  /** After the position's transaction committed: its outbox records delivered (hosted: nothing to do). */
  afterCommit(ctx: Ctx, outbox: readonly string[]): Promise<void>;
  /** The mark a commission debt owed by one of its positions carries (the debt's collection reads it). */
  readonly debtMark: Partial<Pick<DebtRecord, 'wallet'>>;
  /**
   * The balance a leaving player without a hosted wallet item is answered: hosted, he is unknown (thrown
   * now, before his seat is touched); seamless, a function asking the operator's wallet (called after).
   */
  leavingBalance(
    ctx: Ctx,
    input: { operator: OperatorRecord | undefined; playerId: string; currency: string },
  ): () => Promise<number>;
}

/** The operator a seamless source was chosen for (stake-sources.ts chooses it only from such a record). */
export function seamlessOperator(operator: OperatorRecord | undefined): OperatorRecord {
  if (!operator) throw new Error('the seamless stake source is chosen only for a seamless operator');
  return operator;
}
