import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { Amount, Currency, FreeText, MinorUnits, Pagination, Timestamp } from './common';
import { OperatorId, PlayerId } from './ids';
import { LedgerKind } from './vocabulary';

export const WalletParams = /* @__PURE__ */ lazily(() => z.strictObject({ playerId: PlayerId() }));

export const Wallet = /* @__PURE__ */ lazily(() =>
  z
    .object({
      playerId: z.string(),
      operatorId: z.string(),
      currency: Currency(),
      balance: MinorUnits().min(0),
      commissionOwed: MinorUnits().min(0).meta({ description: 'Deferred commission owed.' }),
      reserved: MinorUnits()
        .min(0)
        .meta({ description: 'Held back for open Banca bets (deferred commission).' }),
      available: MinorUnits().meta({
        description: 'What bets and debits may take: balance − owed − reserved.',
      }),
      updatedAt: Timestamp(),
    })
    .meta({ id: 'Wallet' }),
);

export const WalletTransactionRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      type: z.enum(['CREDIT', 'DEBIT']),
      amount: Amount(),
      currency: Currency().meta({ description: "The wallet's currency (fixed by its first credit)." }),
      reference: FreeText(128)
        .pipe(z.string().min(1))
        .optional()
        .meta({ description: "The operator's own reference (clean text, 1-128 characters)." }),
    })
    .meta({ id: 'WalletTransactionRequest' }),
);

export const LedgerEntry = /* @__PURE__ */ lazily(() =>
  z
    .object({
      entryId: z.string(),
      seq: z.int().min(1).meta({ description: 'Position of the entry in the wallet, from 1.' }),
      playerId: z.string(),
      kind: LedgerKind(),
      amount: MinorUnits().meta({ description: 'Signed: money in positive, money out negative.' }),
      balanceBefore: MinorUnits(),
      balanceAfter: MinorUnits(),
      roundId: z.string().nullable(),
      shoeId: z.string().nullable(),
      reference: z.string().nullable(),
      sessionId: z.string().nullable().meta({
        description: "The player's table session of a game entry (bet, payout, refund, session end).",
      }),
      createdAt: Timestamp(),
    })
    .meta({ id: 'LedgerEntry' }),
);

export const WalletTransactionResponse = /* @__PURE__ */ lazily(() =>
  z.object({ entry: LedgerEntry(), wallet: Wallet() }).meta({ id: 'WalletTransactionResponse' }),
);

export const LedgerQuery = /* @__PURE__ */ lazily(() =>
  Pagination().extend({
    operatorId: OperatorId().optional().meta({
      description: 'Regulators: the supervised operator whose wallet to read (default: the key’s own).',
    }),
  }),
);

export const LedgerPage = /* @__PURE__ */ lazily(() =>
  z.object({ entries: z.array(LedgerEntry()), nextCursor: z.string().nullable() }).meta({ id: 'LedgerPage' }),
);
