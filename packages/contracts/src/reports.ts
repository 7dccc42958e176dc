import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { Currency, Timestamp } from './common';
import { OperatorId } from './ids';

/** The regulator reports (docs/regulators.md, "GGR report"). */
export const GgrParams = lazily(() => z.strictObject({ operatorId: OperatorId() }));

export const GgrQuery = lazily(() =>
  z.strictObject({
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a calendar day YYYY-MM-DD (UTC)')
      .meta({ description: 'The UTC day: rounds settled or voided in it count.', example: '2026-12-01' }),
  }),
);

const Minor = lazily(() => z.int().meta({ description: 'Integer minor units of `currency`.' }));

const sums = lazily(() => ({
  currency: Currency(),
  rounds: z.int().min(0).meta({ description: 'Rounds settled that day.' }),
  positions: z.int().min(0).meta({ description: 'Their settled positions.' }),
  stakes: Minor().meta({ description: "The settled positions' stakes." }),
  returns: Minor().meta({
    description:
      'What their settlements paid back to wallets (stake included, commission at payment deducted).',
  }),
  commission: Minor().meta({ description: 'Commission taken at payment (already deducted from returns).' }),
  commissionDeferred: Minor().meta({
    description:
      "Commission added to players' debts (DEFERRED tables): revenue when collected (COMMISSION ledger entries), not in `ggr`.",
  }),
  voidedRounds: z.int().min(0).meta({ description: 'Rounds voided that day.' }),
  voids: Minor().meta({ description: 'Stakes refunded by those voids (not in `ggr`).' }),
  ggr: Minor().meta({
    description:
      'stakes − returns: the opposite of what the ledger moved for those rounds (BET, BET_WITHDRAWAL, PAYOUT).',
  }),
}));

export const GgrRow = lazily(() => z.object({ tableId: z.string(), ...sums() }).meta({ id: 'GgrRow' }));
export const GgrTotal = lazily(() => z.object(sums()).meta({ id: 'GgrTotal' }));

export const GgrReport = lazily(() =>
  z
    .object({
      operatorId: z.string(),
      date: z.string(),
      from: Timestamp(),
      to: Timestamp(),
      complete: z.boolean().meta({ description: 'The day is over: the report will not change.' }),
      rows: z
        .array(GgrRow())
        .meta({ description: 'One per table and currency with a round finished that day.' }),
      totals: z.array(GgrTotal()).meta({ description: 'Per currency, over every table.' }),
    })
    .meta({ id: 'GgrReport' }),
);
