import { z } from 'zod';
import { Amount, Currency, MinorUnits, Pagination, PlayerId, Timestamp } from './common';

export const WalletParams = z.strictObject({ playerId: PlayerId });

export const Wallet = z
  .object({
    playerId: z.string(),
    operatorId: z.string(),
    currency: Currency,
    balance: MinorUnits.min(0),
    commissionOwed: MinorUnits.min(0),
    updatedAt: Timestamp,
  })
  .meta({ id: 'Wallet' });

export const WalletTransactionRequest = z
  .strictObject({
    type: z.enum(['CREDIT', 'DEBIT']),
    amount: Amount,
    currency: Currency.meta({ description: "The wallet's currency (fixed by its first credit)." }),
    reference: z.string().min(1).max(128).optional().meta({ description: "The operator's own reference." }),
  })
  .meta({ id: 'WalletTransactionRequest' });

export const LedgerEntry = z
  .object({
    entryId: z.string(),
    playerId: z.string(),
    kind: z.string().meta({ description: 'CREDIT, DEBIT, BET, PAYOUT, REFUND, COMMISSION' }),
    amount: MinorUnits.meta({ description: 'Signed: credits positive, debits negative.' }),
    balanceAfter: MinorUnits,
    roundId: z.string().nullable(),
    reference: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'LedgerEntry' });

export const WalletTransactionResponse = z
  .object({ entry: LedgerEntry, wallet: Wallet })
  .meta({ id: 'WalletTransactionResponse' });

export const LedgerQuery = Pagination;

export const LedgerPage = z
  .object({ entries: z.array(LedgerEntry), nextCursor: z.string().nullable() })
  .meta({ id: 'LedgerPage' });
