/**
 * The Wallet port: an operator's own wallet in seamless mode (docs/seamless-wallet.md). One call, one
 * signed request; its outcome is OK, REFUSED (nothing booked, ever, for that txId) or UNKNOWN (it may
 * or may not have been booked). The adapter (`SeamlessWalletClient`, packages/seamless-wallet) never
 * retries by itself: the use cases decide (a debit is never sent twice; credits and rollbacks are
 * redelivered through the outbox with the same txId until OK).
 *
 * A hosted operator's money moves in the platform's own wallet items, inside the position's
 * transaction (wallet-ledger.ts): that cannot be a call behind this port without giving up the
 * atomic debit-and-bet of one transaction. The round's money goes through a stake source instead
 * (rounds/stake-source.ts): hosted or seamless, chosen once from the operator's `walletMode`; only
 * the seamless one calls this port.
 */
import type { SeamlessOutcome, SeamlessRequests } from '@pyb/contracts';
import type { OperatorRecord } from '../model';

export type WalletOutcome = SeamlessOutcome;

export interface Wallet {
  balance(request: SeamlessRequests['balance']): Promise<WalletOutcome>;
  debit(request: SeamlessRequests['debit']): Promise<WalletOutcome>;
  credit(request: SeamlessRequests['credit']): Promise<WalletOutcome>;
  rollback(request: SeamlessRequests['rollback']): Promise<WalletOutcome>;
}

/**
 * The wallet of a seamless operator, from its record (base URL and secret reference). The composition
 * root builds it (reading the secret); implementations cache per operator.
 */
export type Wallets = (operator: OperatorRecord) => Wallet;

/** For functions that never call an operator's wallet: using it is a bug. */
export const noWallets: Wallets = (operator) => {
  throw new Error(`this context calls no seamless wallet (operator ${operator.operatorId})`);
};
