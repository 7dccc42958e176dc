import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { Currency, Timestamp } from './common';
import { OperatorId } from './ids';

/** The regulator reports (docs/regulators.md, "GGR report"). */
export const GgrParams = /* @__PURE__ */ lazily(() => z.strictObject({ operatorId: OperatorId() }));

export const GgrQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a calendar day YYYY-MM-DD (UTC)')
      .meta({ description: 'The UTC day: rounds settled or voided in it count.', example: '2026-12-01' }),
  }),
);

const Minor = /* @__PURE__ */ lazily(() =>
  z.int().meta({ description: 'Integer minor units of `currency`.' }),
);

const sums = /* @__PURE__ */ lazily(() => ({
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
  voidsAfterBeacon: z.int().min(0).meta({
    description:
      'Of those voids, the ones decided after the beacon round that fixes the coup was published: discards (docs/provably-fair.md §10, D1).',
  }),
  earlyClosesAfterBeacon: z.int().min(0).meta({
    description:
      'Shoes closed early that day after their own beacon round was published: discards (D1). Counted on the day the close began.',
  }),
  ggr: Minor().meta({
    description:
      'stakes − returns: the opposite of what the ledger moved for those rounds (BET, BET_WITHDRAWAL, PAYOUT).',
  }),
}));

export const GgrRow = /* @__PURE__ */ lazily(() =>
  z.object({ tableId: z.string(), ...sums() }).meta({ id: 'GgrRow' }),
);
export const GgrTotal = /* @__PURE__ */ lazily(() => z.object(sums()).meta({ id: 'GgrTotal' }));

export const GgrReport = /* @__PURE__ */ lazily(() =>
  z
    .object({
      operatorId: z.string(),
      date: z.string(),
      from: Timestamp(),
      to: Timestamp(),
      complete: z.boolean().meta({ description: 'The day is over: the report will not change.' }),
      rows: z.array(GgrRow()).meta({
        description:
          'One per table and currency with a round finished, or a shoe closed early after its beacon round, that day.',
      }),
      totals: z.array(GgrTotal()).meta({ description: 'Per currency, over every table.' }),
    })
    .meta({ id: 'GgrReport' }),
);

/** The regulator data feed (docs/regulators.md, "Regulator data feed"). */
export const FeedParams = /* @__PURE__ */ lazily(() => z.strictObject({ operatorId: OperatorId() }));

const instant = () =>
  z
    .string()
    .meta({ description: 'A UTC instant, YYYY-MM-DDTHH:MM:SS[.sss]Z.', example: '2026-12-01T00:00:00.000Z' });

export const FeedQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    from: instant().meta({ description: 'Start of the range (included), UTC.' }),
    to: instant().meta({ description: 'End of the range (excluded), UTC; at most 24 hours after `from`.' }),
    format: z.enum(['ndjson', 'csv']).default('ndjson').meta({
      description:
        'ndjson: application/x-ndjson, one record per line. csv: text/csv, one file, fixed columns.',
    }),
  }),
);

const day = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a calendar day YYYY-MM-DD (UTC)');

export const FeedFilesQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    from: day().meta({ description: 'First day listed (UTC).', example: '2026-12-01' }),
    to: day().meta({
      description: 'Last day listed (UTC), at most 31 days after `from`.',
      example: '2026-12-01',
    }),
  }),
);

export const FeedFileName = /* @__PURE__ */ lazily(() =>
  z.enum(['feed.ndjson', 'feed.csv']).meta({ id: 'FeedFileName' }),
);

export const FeedFileParams = /* @__PURE__ */ lazily(() =>
  z.strictObject({ operatorId: OperatorId(), date: day(), name: FeedFileName() }),
);

export const FeedFileList = /* @__PURE__ */ lazily(() =>
  z
    .object({
      operatorId: z.string(),
      files: z.array(
        z.object({
          date: day(),
          name: FeedFileName(),
          bytes: z.int().min(0),
          modifiedAt: Timestamp(),
          contentType: z.string(),
        }),
      ),
    })
    .meta({ id: 'FeedFileList' }),
);

/** The body of a feed answer: NDJSON or CSV text (not JSON). */
export const FeedText = /* @__PURE__ */ lazily(() =>
  z.string().meta({ description: 'NDJSON (one record per line) or CSV text.' }),
);
