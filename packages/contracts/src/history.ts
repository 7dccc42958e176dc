import { lazily } from '@pyb/engine';
/**
 * The player's game history (UKGC RTS 1B): the operator's front end asks for its player's rounds in a
 * date range, each the same replay the regulator's recall shows, with the period's totals. Bounded:
 * a range of at most HISTORY_MAX_DAYS, holding at most HISTORY_MAX_ROUNDS rounds (the totals cover the
 * whole range and are summed in the request from at most that many positions).
 */
import * as z from 'zod';
import { MinorUnits, Pagination, QueryInt, Timestamp } from './common';
import { OperatorId, PlayerId } from './ids';
import { RECALL_DEFAULT_LIMIT, RECALL_MAX_LIMIT, RoundReplay } from './replay';

export const HISTORY_MAX_DAYS = 366;
/** Rounds one range may hold: the totals read each of them (their position items) in one request. */
export const HISTORY_MAX_ROUNDS = 2000;

export const PlayerHistoryParams = /* @__PURE__ */ lazily(() => z.strictObject({ playerId: PlayerId() }));

export const PlayerHistoryQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    from: Timestamp().meta({ description: 'Rounds opened at or after this time (UTC).' }),
    to: Timestamp().meta({
      description: `Rounds opened before this time (UTC); at most ${HISTORY_MAX_DAYS} days after \`from\`.`,
    }),
    limit: QueryInt(1, RECALL_MAX_LIMIT, RECALL_DEFAULT_LIMIT),
    cursor: Pagination().shape.cursor,
    operatorId: OperatorId().optional().meta({ description: "Admins: the player's operator." }),
  }),
);

export const HistoryTotals = /* @__PURE__ */ lazily(() =>
  z
    .object({
      currency: z.string().nullable().meta({ description: "The wallet's currency; null with no rounds." }),
      rounds: z.int().meta({ description: 'Rounds of the player opened in the range (any status).' }),
      stakes: MinorUnits().meta({ description: 'Stakes of the settled positions.' }),
      returns: MinorUnits().meta({
        description: 'What their settlements paid back (stake included, commission at payment deducted).',
      }),
      commission: MinorUnits().meta({ description: 'Commission taken at payment (already inside returns).' }),
      commissionOwed: MinorUnits().meta({ description: 'DEFERRED tables: commission added to the debt.' }),
      refunds: MinorUnits().meta({ description: 'Stakes refunded by voided rounds.' }),
      open: z.int().meta({ description: 'Positions not settled nor refunded yet (not in the sums).' }),
      winLoss: z.int().meta({ description: "returns − stakes: the player's net result for the period." }),
    })
    .meta({ id: 'HistoryTotals' }),
);

export const PlayerHistory = /* @__PURE__ */ lazily(() =>
  z
    .object({
      playerId: z.string(),
      operatorId: z.string(),
      from: Timestamp(),
      to: Timestamp(),
      totals: HistoryTotals()
        .nullable()
        .meta({
          description: `Of the whole range, not of the page; null when the range holds more than ${HISTORY_MAX_ROUNDS} rounds (its rounds are still served, page by page: ask a shorter range for its totals).`,
        }),
      rounds: z.array(RoundReplay()).meta({
        description:
          "This page's rounds, newest first; positions: this player's (bets per type, session id, balance before and after); shoe.statement: code and rules versions.",
      }),
      nextCursor: z.string().nullable().meta({ description: 'Older rounds of the range.' }),
    })
    .meta({ id: 'PlayerHistory' }),
);
