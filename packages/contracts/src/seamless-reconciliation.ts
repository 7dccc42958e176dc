/**
 * Seamless reconciliation (docs/seamless-wallet.md §9): an operator in seamless mode matches the
 * platform's record of every call to its wallet with its own books. Two reads: the transactions of a
 * period (a page at a time, with the summary of the whole period on the first page), and the report
 * the daily job stored for a UTC day.
 */
import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { Currency, Pagination, Timestamp } from './common';
import { OperatorId } from './ids';
import { CREDIT_KINDS, SEAMLESS_TX_STATES, SeamlessTxId } from './seamless-wallet';

/** A pending transaction older than this (since it was created) is unresolved: its delivery is late. */
export const SEAMLESS_PENDING_AGE_MINUTES = 15;
/** Transactions one summary walks at most: a period holding more is refused (use the daily reports). */
export const SEAMLESS_SUMMARY_MAX_TXS = 20_000;
/** Unresolved transactions a summary names at most (`unresolved.count` is exact). */
export const SEAMLESS_UNRESOLVED_NAMED_MAX = 500;

/** What a transaction did: the debit of a stake, a credit of one kind, or a rollback of a debit. */
export const SEAMLESS_TX_KINDS = ['DEBIT', ...CREDIT_KINDS, 'ROLLBACK'] as const;
export type SeamlessTxKind = (typeof SEAMLESS_TX_KINDS)[number];

export const SeamlessParams = /* @__PURE__ */ lazily(() => z.strictObject({ operatorId: OperatorId() }));

export const SeamlessTransactionsQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    from: Timestamp().meta({ description: 'Transactions created at or after this time (UTC).' }),
    to: Timestamp().meta({
      description: 'Transactions created before this time (UTC); at most 31 days after `from`.',
    }),
    state: z
      .enum(SEAMLESS_TX_STATES)
      .optional()
      .meta({ description: 'Only the transactions in this state.' }),
    ...Pagination().shape,
  }),
);

export const SeamlessReportParams = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    operatorId: OperatorId(),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a calendar day YYYY-MM-DD (UTC)')
      .meta({ description: 'The UTC day the report covers.', example: '2026-12-01' }),
  }),
);

export const SeamlessTransaction = /* @__PURE__ */ lazily(() =>
  z
    .object({
      txId: SeamlessTxId(),
      kind: z.enum(SEAMLESS_TX_KINDS),
      state: z.enum(SEAMLESS_TX_STATES),
      playerId: z.string(),
      currency: Currency(),
      amount: z.int().min(1).meta({ description: 'Minor units, as sent to the wallet.' }),
      roundId: z.string(),
      tableId: z.string(),
      betRef: z.string(),
      debitTxId: z.string().optional().meta({ description: 'A rollback: the debit it cancels.' }),
      operatorTxId: z
        .string()
        .optional()
        .meta({ description: "The wallet's own id of the booking, as it answered." }),
      attempts: z.int().min(0).meta({ description: 'Calls made to the wallet with this txId.' }),
      createdAt: Timestamp(),
      updatedAt: Timestamp(),
      resolvedAt: Timestamp().optional(),
      refusal: z.string().optional().meta({ description: "The wallet's refusal code, if it refused." }),
    })
    .meta({ id: 'SeamlessTransaction' }),
);

export const SeamlessTotal = /* @__PURE__ */ lazily(() =>
  z
    .object({
      state: z.enum(SEAMLESS_TX_STATES),
      kind: z.enum(SEAMLESS_TX_KINDS),
      currency: Currency(),
      count: z.int().min(0),
      amount: z.int().min(0).meta({ description: 'Sum of their amounts, minor units.' }),
    })
    .meta({ id: 'SeamlessTotal' }),
);

export const SeamlessNet = /* @__PURE__ */ lazily(() =>
  z
    .object({
      currency: Currency(),
      debited: z.int().min(0).meta({ description: 'Debits the wallet booked and kept (DEBITED).' }),
      credited: z.int().min(0).meta({ description: 'Credits the wallet acknowledged (CREDITED).' }),
      net: z.int().meta({
        description:
          "credited − debited: what these transactions moved in the players' balances, the sum the operator's books must show for the same txIds (rolled-back debits move nothing).",
      }),
    })
    .meta({ id: 'SeamlessNet' }),
);

export const SeamlessUnresolved = /* @__PURE__ */ lazily(() =>
  z
    .object({
      txId: SeamlessTxId(),
      kind: z.enum(SEAMLESS_TX_KINDS),
      state: z.enum(SEAMLESS_TX_STATES),
      playerId: z.string(),
      currency: Currency(),
      amount: z.int(),
      createdAt: Timestamp(),
      reason: z.enum(['PENDING', 'REFUSED']).meta({
        description: `PENDING: not final ${SEAMLESS_PENDING_AGE_MINUTES} minutes after it was created. REFUSED: the wallet refused a credit or rollback (a person must look).`,
      }),
    })
    .meta({ id: 'SeamlessUnresolved' }),
);

export const SeamlessSummary = /* @__PURE__ */ lazily(() =>
  z
    .object({
      count: z.int().min(0).meta({ description: 'Transactions created in the period.' }),
      totals: z.array(SeamlessTotal()).meta({ description: 'Per state, kind and currency.' }),
      net: z.array(SeamlessNet()).meta({ description: 'Per currency.' }),
      unresolved: z.object({
        count: z.int().min(0),
        transactions: z.array(SeamlessUnresolved()).meta({
          description: `The unresolved ones, oldest first, at most ${SEAMLESS_UNRESOLVED_NAMED_MAX}.`,
        }),
      }),
    })
    .meta({ id: 'SeamlessSummary' }),
);

export const SeamlessTransactions = /* @__PURE__ */ lazily(() =>
  z
    .object({
      operatorId: z.string(),
      from: Timestamp(),
      to: Timestamp(),
      asOf: Timestamp().meta({
        description: 'When this answer was read (what "pending past its age" is measured from).',
      }),
      summary: SeamlessSummary().nullable().meta({
        description:
          'Of the whole period (not only the state asked for): on the first page; null on the next ones.',
      }),
      transactions: z.array(SeamlessTransaction()),
      nextCursor: z.string().nullable(),
    })
    .meta({ id: 'SeamlessTransactions' }),
);

export const SeamlessReport = /* @__PURE__ */ lazily(() =>
  z
    .object({
      operatorId: z.string(),
      date: z.string(),
      from: Timestamp(),
      to: Timestamp(),
      asOf: Timestamp().meta({ description: 'When the daily job made it.' }),
      summary: SeamlessSummary(),
      redelivered: z.int().min(0).meta({
        description: 'Pending credits and rollbacks the job handed to the outbox again.',
      }),
    })
    .meta({ id: 'SeamlessReport' }),
);

/** The summary as stored in a report item (core's SeamlessReportRecord) and answered. */
export type SeamlessSummaryData = z.output<ReturnType<typeof SeamlessSummary>>;
