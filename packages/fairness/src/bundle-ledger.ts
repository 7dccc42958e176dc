/**
 * A position's money movements as the regulator bundle carries them (`positions[].ledger`): the
 * wallet ledger entries its calls made (BET, BET_WITHDRAWAL, in order), then the PAYOUT or REFUND
 * entry that paid or refunded it. The settlement and refund they must agree with are committed under
 * the signed heads (ROUND_SETTLED `settlementsDigest`, ROUND_VOIDED `refundsDigest`), so an entry
 * edited in the database shows offline (verify-ledger.ts). Absent from bundles made before it existed.
 */
import { lazily } from '@pyb/engine';
import * as z from 'zod';

export const LEDGER_ENTRY_KINDS = ['BET', 'BET_WITHDRAWAL', 'PAYOUT', 'REFUND'] as const;

export const BundleLedgerEntrySchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      /** The entry's sequence number in the player's wallet ledger. */
      seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      kind: z.enum(LEDGER_ENTRY_KINDS),
      /** Signed, integer minor units: negative for a debit (a bet), positive for a credit. */
      amount: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
    })
    .strict(),
);
export type BundleLedgerEntry = z.output<ReturnType<typeof BundleLedgerEntrySchema>>;

export const BundleLedgerSchema = /* @__PURE__ */ lazily(() => z.array(BundleLedgerEntrySchema()).max(1_000));
