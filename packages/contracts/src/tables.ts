import { type SideBetType as EngineSideBetType, lazily, SIDE_BET_TYPES } from '@pyb/engine';
import * as z from 'zod';
import { Amount, Currency, FreeText, OptionalBetType, Timestamp } from './common';
import { OperatorId, ResourceId } from './ids';

const Limit = /* @__PURE__ */ lazily(() =>
  z.strictObject({ min: Amount(), max: Amount() }).meta({ id: 'BetLimit' }),
);

/** The engine's side bets (`SIDE_BET_TYPES`): the ones a table offers one by one in `sideBets`. */
export const SideBetType = /* @__PURE__ */ lazily(() =>
  z
    .enum(SIDE_BET_TYPES as readonly EngineSideBetType[] as [EngineSideBetType, ...EngineSideBetType[]])
    .meta({ id: 'SideBetType', description: 'A side bet a table may offer (docs/rules.md, "Side bets").' }),
);

/** A payout "win : per" (engine `Pays`): 40:1 is {win: 40, per: 1}, 0.54:1 is {win: 54, per: 100}. */
export const Pays = /* @__PURE__ */ lazily(() =>
  z.strictObject({ win: z.int().min(1).max(10_000), per: z.int().min(1).max(10_000) }).meta({
    id: 'Pays',
    description:
      'A winning bet wins `win` for every `per` staked, on top of the stake: 40:1 is {win: 40, per: 1}, 0.54:1 is {win: 54, per: 100}, 1:2 is {win: 1, per: 2}. The net win is floor(stake × win / per): the house keeps the fraction.',
    example: { win: 25, per: 1 },
  }),
);

const Margins = /* @__PURE__ */ lazily(() =>
  z.strictObject({ 4: Pays(), 5: Pays(), 6: Pays(), 7: Pays(), 8: Pays(), 9: Pays() }),
);

/**
 * One side bet's entry in the configuration: its limit and its pay table. As stored and shown every pay
 * table is there; on input a pay table may be left out for the default (docs/rules.md).
 */
const sideBetEntries = <P extends z.ZodType, M extends z.ZodType>(pays: P, margin: M) => {
  const single = z.strictObject({ pays, limit: Limit() });
  const dragon = z.strictObject({ natural: pays, margin, limit: Limit() });
  return {
    EITHER_PAIR: single.meta({ description: 'Either hand starts with a pair (default 5:1).' }),
    PERFECT_PAIR: z
      .strictObject({ pays, paysBoth: pays, limit: Limit() })
      .meta({ description: 'A suited pair in one hand (`pays`, default 25:1) or both (`paysBoth`, 200:1).' }),
    DRAGON_BONUS_PLAYER: dragon.meta({
      description:
        'Punto wins with a natural (`natural`, default 1:1; a natural tie pushes) or by 4-9 points (`margin`, default 4: 1:1, 5: 2:1, 6: 4:1, 7: 6:1, 8: 10:1, 9: 30:1).',
    }),
    DRAGON_BONUS_BANKER: dragon.meta({ description: 'As DRAGON_BONUS_PLAYER, for Banca.' }),
    DRAGON_7: single.meta({ description: 'Banca wins with a three-card 7 (default 40:1; EZ tables).' }),
    PANDA_8: single.meta({ description: 'Punto wins with a three-card 8 (default 25:1; EZ tables).' }),
    SUPER_6: single.meta({ description: 'Banca wins with 6 (default 12:1; Super 6 tables).' }),
    BIG: single.meta({ description: '5 or 6 cards are dealt (default 0.54:1).' }),
    SMALL: single.meta({ description: '4 cards are dealt (default 1.5:1).' }),
  };
};

const stored = /* @__PURE__ */ lazily(() => sideBetEntries(Pays(), Margins()));
/** The side bets a table offers, as stored (pay tables filled in). */
export const SideBets = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      EITHER_PAIR: stored().EITHER_PAIR.optional(),
      PERFECT_PAIR: stored().PERFECT_PAIR.optional(),
      DRAGON_BONUS_PLAYER: stored().DRAGON_BONUS_PLAYER.optional(),
      DRAGON_BONUS_BANKER: stored().DRAGON_BONUS_BANKER.optional(),
      DRAGON_7: stored().DRAGON_7.optional(),
      PANDA_8: stored().PANDA_8.optional(),
      SUPER_6: stored().SUPER_6.optional(),
      BIG: stored().BIG.optional(),
      SMALL: stored().SMALL.optional(),
    })
    .meta({
      id: 'SideBets',
      description:
        'The side bets the table offers, each with its limit and pay table; a side bet not listed is not offered (a bet on it is 422 BET_SIDE_DISABLED). Absent when none is offered.',
    }),
);

const input = /* @__PURE__ */ lazily(() => sideBetEntries(Pays().optional(), Margins().optional()));
/** Side bets to offer on a new table: the limit is required, each pay table defaults (docs/rules.md). */
export const SideBetsInput = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      EITHER_PAIR: input().EITHER_PAIR.optional(),
      PERFECT_PAIR: input().PERFECT_PAIR.optional(),
      DRAGON_BONUS_PLAYER: input().DRAGON_BONUS_PLAYER.optional(),
      DRAGON_BONUS_BANKER: input().DRAGON_BONUS_BANKER.optional(),
      DRAGON_7: input().DRAGON_7.optional(),
      PANDA_8: input().PANDA_8.optional(),
      SUPER_6: input().SUPER_6.optional(),
      BIG: input().BIG.optional(),
      SMALL: input().SMALL.optional(),
    })
    .meta({
      id: 'SideBetsInput',
      description:
        'Side bets to offer: list each with its `limit`; leave a pay table out for the default one (stored filled in, so the signed shoe statement carries the pay table in force). Leave the field out to offer none (an empty object is refused).',
    }),
);

/** How the Banca bet pays at a table that takes no commission (absent: 1:1 less commission). */
export const BankerMode = /* @__PURE__ */ lazily(() =>
  z.enum(['EZ', 'SUPER_6']).meta({
    id: 'BankerMode',
    description:
      'EZ: Banca wins pay 1:1 without commission, a Banca win with a three-card 7 pushes. SUPER_6: 1:1 without commission, a Banca win with 6 pays 1:2 (rounded down). Absent: 1:1 less commission.',
  }),
);

const CUT_CARD_HELP =
  'Cards left behind the cut card, 7 (seed 003) up to decks × 52 − 17; the shoe draws the cut position in [min, max]. Raise it on tables offering DRAGON_7 or PANDA_8 (e.g. 78-90 on 8 decks): a shoe dealt deep makes them countable (docs/rules.md, "Dealing depth on EZ tables").';

/** The table configuration as the engine defines it (docs/architecture.md, TableConfig). */
export const TableConfig = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      variant: z.enum(['mini', 'midi', 'full', 'custom']),
      name: z.string().optional().meta({ description: 'Custom tables only: the table type name.' }),
      seats: z.int().min(1).max(14),
      decks: z.int().min(1).max(8).meta({
        description:
          'Decks of 52 in the shoe: 6 or 8 (seeds 003, 004), the only counts a table is created with. Fewer appear only on tables of a core built for tests (testShoes: their short shoes; docs/rules.md, "Tables").',
      }),
      commission: z.strictObject({
        rateBps: z.int().min(0).max(10_000).meta({ description: 'Basis points: 500 = 5%.' }),
        mode: z.enum(['AT_PAYMENT', 'DEFERRED']),
      }),
      bankerMode: BankerMode().optional(),
      tiePays: z.union([z.literal(8), z.literal(9)]),
      pairBets: z.boolean(),
      limits: z
        .strictObject({
          PLAYER: Limit(),
          BANKER: Limit(),
          TIE: Limit(),
          PLAYER_PAIR: Limit(),
          BANKER_PAIR: Limit(),
        })
        .meta({ description: 'Per base bet type, in minor units (side bets carry theirs in `sideBets`).' }),
      sideBets: SideBets().optional(),
      cutCard: z
        .strictObject({
          minCardsBehind: z.int().min(7).max(416),
          maxCardsBehind: z.int().min(7).max(416),
        })
        .meta({ description: CUT_CARD_HELP }),
      afterCutCard: z.enum(['FINISH_COUP', 'ONE_MORE_COUP']),
      currency: Currency(),
    })
    .meta({ id: 'TableConfig' }),
);

/** Why a table of another deck count is refused, and what to do instead. */
export const DECKS_MESSAGE =
  'a table has 6 or 8 decks of 52 (seeds 003, 004); for a short shoe raise cutCard.minCardsBehind/maxCardsBehind instead';

/**
 * The decks a table may be created with: the rulebooks' 6 or 8 (003:16, 004:8). The engine's schema
 * takes 1..8; the core refuses them too unless built for tests (CoreDeps.testShoes).
 */
export const TableDecks = /* @__PURE__ */ lazily(() =>
  z.literal([6, 8], { error: DECKS_MESSAGE }).meta({
    description: "Decks of 52: 6 or 8 (seeds 003, 004). Left out: the preset's (mini and midi 6, full 8).",
  }),
);

const LimitOverride = /* @__PURE__ */ lazily(() =>
  z.strictObject({ min: Amount().optional(), max: Amount().optional() }),
);

/** Overrides of a preset: any subset of the configuration (the variant comes from `variant`). */
export const TableConfigOverrides = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      seats: z.int().min(1).max(14).optional(),
      decks: TableDecks().optional(),
      commission: z
        .strictObject({
          rateBps: z.int().min(0).max(10_000).optional(),
          mode: z.enum(['AT_PAYMENT', 'DEFERRED']).optional(),
        })
        .optional(),
      bankerMode: BankerMode().optional(),
      tiePays: z.union([z.literal(8), z.literal(9)]).optional(),
      pairBets: z.boolean().optional(),
      limits: z
        .strictObject({
          PLAYER: LimitOverride().optional(),
          BANKER: LimitOverride().optional(),
          TIE: LimitOverride().optional(),
          PLAYER_PAIR: LimitOverride().optional(),
          BANKER_PAIR: LimitOverride().optional(),
        })
        .optional(),
      sideBets: SideBetsInput().optional(),
      cutCard: z
        .strictObject({
          minCardsBehind: z.int().min(7).max(416).optional(),
          maxCardsBehind: z.int().min(7).max(416).optional(),
        })
        .optional()
        .meta({ description: CUT_CARD_HELP }),
      afterCutCard: z.enum(['FINISH_COUP', 'ONE_MORE_COUP']).optional(),
      currency: Currency().optional(),
    })
    .meta({ id: 'TableConfigOverrides' }),
);

export const CreateTableRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      name: z.string().trim().min(1).pipe(FreeText(80)).meta({ example: 'Mini Punto Banco 1' }),
      variant: z.enum(['mini', 'midi', 'full', 'custom']).meta({
        description:
          'The preset: mini (7 seats, 6 decks), midi (9, 6), full (14, 8); custom for any other seats or ' +
          'decks (its configuration takes the table name).',
      }),
      config: TableConfigOverrides().optional(),
      betGates: z
        .int()
        .min(1)
        .max(64)
        .optional()
        .meta({
          description:
            'Betting gates per round (default 16): bets of players hashing to one gate condition-check the ' +
            'same item; more gates, fewer such collisions, a larger "no va más" transaction (docs/deploy.md).',
        }),
    })
    .meta({ id: 'CreateTableRequest' }),
);

export const TableParams = /* @__PURE__ */ lazily(() => z.strictObject({ tableId: ResourceId() }));

/** UKGC RTS 14G: at least 5 s from the start of one game to the start of the next. */
export const MIN_GAME_SECONDS = 5;

/** A table's clock: how long betting stays open, the pause after a round, and whether shoes follow. */
export const CadenceSettings = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      bettingSeconds: z.int().min(1).max(300).meta({
        description: 'Seconds from a round opening to "no va más" (the round\'s `closesAt`).',
        example: 15,
      }),
      pauseSeconds: z.int().min(0).max(300).default(0).meta({
        description: 'Seconds from a round settled to the next one opening.',
        example: 2,
      }),
      nextShoe: z.boolean().default(true).meta({
        description:
          'When the shoe ends: close it and open the next one (false: the cadence stops with the shoe).',
      }),
    })
    .meta({ id: 'CadenceSettings' }),
);

/**
 * RTS 14G as a rule on the settings: two rounds' starts are at least betting + pause apart (the deal
 * and the settlement only add to it). Applied by the core (CADENCE_TOO_FAST), not by the schema, so
 * the refusal has its own code.
 */
export const cadenceTooFast = (c: { bettingSeconds: number; pauseSeconds: number }): boolean =>
  c.bettingSeconds + c.pauseSeconds < MIN_GAME_SECONDS;

export const TableCadence = /* @__PURE__ */ lazily(() =>
  z
    .object({
      bettingSeconds: z.int(),
      pauseSeconds: z.int(),
      nextShoe: z.boolean(),
      state: z.enum(['RUNNING', 'PAUSED']).meta({
        description:
          'RUNNING: rounds follow one another by themselves. PAUSED: the round in play finishes, no new one opens.',
      }),
      since: Timestamp(),
    })
    .meta({ id: 'TableCadence' }),
);

/** start (with settings) or resume: rounds run by themselves; pause: the round in play finishes, none opens; stop: back to operator calls. */
export const CadenceControlRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      action: z.enum(['start', 'pause', 'resume', 'stop']),
      cadence: CadenceSettings().optional().meta({ description: 'start only: the clock (required then).' }),
    })
    .meta({ id: 'CadenceControlRequest' }),
);

/** Why a table is locked (docs/regulators.md, "Lock-out"). */
export const TableLock = /* @__PURE__ */ lazily(() =>
  z
    .object({
      source: z.enum(['KEY_SERVICE', 'RANDOMNESS', 'AUDIT', 'TIME_STAMP', 'CADENCE']).meta({
        description:
          "CADENCE: a step of the table's cadence failed past its retries (`cause` names the error). KEY_SERVICE: seed generation, sealing, unsealing or signing failed. RANDOMNESS: the beacon round did not verify (or the beacon failed), or a seed was not random (wrong size, one byte repeated). AUDIT: closing the shoe found its audit chain broken (`problems`); the shoe is restored and closed, or an admin abandons it (POST /v1/shoes/{shoeId}/abandon). TIME_STAMP: no time-stamp authority anchored a head naming a beacon round before that round was published (TIME_STAMP_TOO_LATE): that round is never dealt — void it (bets refunded) — and an admin unlocks once the TSAs answer.",
      }),
      cause: z.string().meta({
        description:
          'The failure: KEY_SERVICE_MISCONFIGURED, SEALED_SEED_INVALID, KEY_SERVICE_BAD_RESPONSE, KEY_SERVICE_FAILED, SEED_COMMITMENT_MISMATCH, BEACON_INVALID, BEACON_FAILED, ENTROPY_FAILED, AUDIT_CHAIN_BROKEN or TIME_STAMP_TOO_LATE.',
        example: 'BEACON_INVALID',
      }),
      detail: z.string(),
      phase: z.enum(['OPEN_SHOE', 'RESOLVE', 'CLOSE_SHOE', 'CADENCE']),
      problems: z
        .array(z.string())
        .optional()
        .meta({ description: 'AUDIT: what the re-walk of the chain found (at most 20).' }),
      shoeId: z.string().optional(),
      roundId: z.string().optional(),
      at: Timestamp(),
      seq: z.int().min(0).meta({ description: "The TABLE_LOCKED event's number in the table's events." }),
    })
    .meta({ id: 'TableLock' }),
);

export const Table = /* @__PURE__ */ lazily(() =>
  z
    .object({
      tableId: z.string(),
      operatorId: z.string(),
      name: z.string(),
      config: TableConfig(),
      currentShoeId: z.string().nullable(),
      openRoundId: z.string().nullable(),
      createdAt: Timestamp(),
      cadence: TableCadence().nullable().meta({
        description:
          'Set on a table that runs itself (POST /v1/tables/{tableId}/cadence); null: every round step is an operator call.',
      }),
      lock: TableLock().nullable().meta({
        description:
          'Set while the table is locked: no shoe opens, no round opens or is dealt (423 TABLE_LOCKED) until an admin clears it (POST /v1/tables/{tableId}/unlock). Rounds not dealt stay voidable.',
      }),
      disabled: TableDisabled().nullable().meta({
        description:
          'Set while the operator has switched the table off (POST /v1/tables/{tableId}/availability): no shoe and no round opens (409 TABLE_DISABLED); the round in play when it was switched off finishes. null: the table is available.',
      }),
      betsOff: z.array(OptionalBetType()).meta({
        description:
          'Pair and side bets the operator has switched off at this table: refused from the next round that opens (422 BET_SIDE_DISABLED); the round in play keeps what it offered.',
      }),
    })
    .meta({ id: 'Table' }),
);

/** Who switched a table off, when and why (the TABLE_DISABLED event it was recorded in). */
export const TableDisabled = /* @__PURE__ */ lazily(() =>
  z
    .object({
      at: Timestamp(),
      reason: z.string(),
      person: z.string().meta({ description: 'The named person the operator recorded as acting.' }),
      seq: z.int().min(0).meta({ description: "The TABLE_DISABLED event's number in the table's events." }),
    })
    .meta({ id: 'TableDisabled' }),
);

/**
 * An availability change (docs/regulators.md, "Game availability"): the table, or one of its pair or
 * side bets, switched off or on, by a named person, with a reason.
 */
export const AvailabilityRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      available: z.boolean().meta({ description: 'false switches off, true switches back on.' }),
      betType: OptionalBetType().optional().meta({
        description: 'A pair or side bet of the table: only it is switched. Absent: the whole table.',
      }),
      reason: FreeText(500).meta({
        description: 'Why (recorded in the event).',
        example: 'Maintenance of the table studio, ticket OPS-311',
      }),
      person: FreeText(120).meta({
        description:
          'The person acting, as the operator records him (an API key names no person): kept in the Game Availability Log.',
        example: 'M. García (shift manager)',
      }),
    })
    .meta({ id: 'AvailabilityRequest' }),
);

/** An admin clears a lock once the failure is fixed, saying why. */
export const UnlockTableRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      reason: FreeText(500).meta({
        description: 'What was fixed and why the table may play again (recorded in TABLE_UNLOCKED).',
        example: 'KMS key policy restored after the IAM change of 07:10 (ticket OPS-142)',
      }),
    })
    .meta({ id: 'UnlockTableRequest' }),
);

/** The availability events (the Game Availability Log). */
export const AVAILABILITY_EVENT_TYPES = [
  'TABLE_DISABLED',
  'TABLE_ENABLED',
  'BET_DISABLED',
  'BET_ENABLED',
] as const;

/** A table's own events: lock-outs and their clearing, an abandoned shoe, and its availability changes. */
export const TABLE_EVENT_TYPES = [
  'TABLE_LOCKED',
  'TABLE_UNLOCKED',
  'SHOE_ABANDONED',
  ...AVAILABILITY_EVENT_TYPES,
] as const;

export const TableEvent = /* @__PURE__ */ lazily(() =>
  z
    .object({
      tableId: z.string(),
      seq: z.int().min(0),
      type: z.enum(TABLE_EVENT_TYPES),
      at: Timestamp(),
      shoeId: z.string().optional().meta({ description: 'SHOE_ABANDONED: the shoe given up.' }),
      lock: TableLock().optional().meta({ description: 'TABLE_LOCKED: what failed.' }),
      reason: z
        .string()
        .optional()
        .meta({ description: 'TABLE_UNLOCKED, SHOE_ABANDONED, the availability events: the reason given.' }),
      clears: z
        .int()
        .min(0)
        .optional()
        .meta({ description: 'TABLE_UNLOCKED, SHOE_ABANDONED: the TABLE_LOCKED event it clears.' }),
      by: z
        .object({ role: z.string(), operatorId: z.string(), keyId: z.string().optional() })
        .optional()
        .meta({
          description:
            'TABLE_UNLOCKED, SHOE_ABANDONED and the availability events: the API key (role, operator and id) that acted.',
        }),
      betType: OptionalBetType().optional().meta({
        description: 'BET_DISABLED, BET_ENABLED: the pair or side bet switched.',
      }),
      person: z.string().optional().meta({
        description: 'The availability events: the named person the operator recorded as acting.',
      }),
    })
    .meta({ id: 'TableEvent' }),
);

export const TableEvents = /* @__PURE__ */ lazily(() =>
  z.object({ tableId: z.string(), events: z.array(TableEvent()) }).meta({ id: 'TableEvents' }),
);

/** The Game Availability Log of an operator over a time range (docs/regulators.md, "Game availability"). */
export const AvailabilityParams = /* @__PURE__ */ lazily(() => z.strictObject({ operatorId: OperatorId() }));

export const AvailabilityQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    from: Timestamp().meta({ description: 'Start of the range (included).' }),
    to: Timestamp().meta({ description: 'End of the range (excluded); at most 366 days after `from`.' }),
  }),
);

export const AvailabilityLog = /* @__PURE__ */ lazily(() =>
  z
    .object({
      operatorId: z.string(),
      from: Timestamp(),
      to: Timestamp(),
      entries: z
        .array(TableEvent().extend({ tableName: z.string() }).meta({ id: 'AvailabilityEntry' }))
        .meta({
          description:
            "Every TABLE_DISABLED, TABLE_ENABLED, BET_DISABLED and BET_ENABLED of the operator's tables in the range, oldest first (ties by table, then seq).",
        }),
    })
    .meta({ id: 'AvailabilityLog' }),
);

/** A seat of the table and its holder (seed 004: a holder who sat out more than 3 coups loses it to a claim). */
export const SeatView = /* @__PURE__ */ lazily(() =>
  z
    .object({
      seat: z.int().min(1).max(14),
      playerId: z.string().nullable().meta({ description: 'The holder; null: the seat is free.' }),
      lastRound: z.int().min(0).nullable().meta({
        description:
          "The table's round number (over all shoes) of the last coup the holder played — held a stake in; a coup whose bets he withdrew before no va más is not played. null: free.",
      }),
      coupsWithoutBet: z.int().min(0).nullable().meta({
        description:
          'Rounds the table opened since the last coup the holder played, before the round the map is read for; null: free.',
      }),
      idle: z.boolean().meta({
        description:
          'More than 3 coups sat out (seed 004): the seat goes to the first player who claims it in `round`.',
      }),
    })
    .meta({ id: 'SeatView' }),
);

export const SeatMap = /* @__PURE__ */ lazily(() =>
  z
    .object({
      tableId: z.string(),
      round: z.int().min(1).meta({
        description:
          "The table's round number (over all shoes) the map is read for: the round open now, else the next one.",
      }),
      seats: z.array(SeatView()).meta({ description: 'Every seat of the table, 1 to `config.seats`.' }),
    })
    .meta({
      id: 'SeatMap',
      description: 'Who holds which seat; every other player bets standing (unlimited).',
    }),
);

/** The live feed (docs/api.md, "Live events"): what the table's topic carries, by seq. */
export const LIVE_EVENT_KINDS = [
  'SHOE_OPENED',
  'ROUND_OPENED',
  'NO_VA_MAS',
  'CARD_DEALT',
  'RESULT',
  'SHOE_ENDED',
  'ROUND_SETTLED',
  'SCOREBOARD',
  'ROUND_VOIDED',
  'SHOE_CLOSED',
  // The table's own events, each projected into the live feed under its own name.
  ...TABLE_EVENT_TYPES,
] as const;

export const LiveQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    after: z.coerce.number().int().min(-1).optional().meta({
      description:
        'The last seq the client has; the events after it are returned (default -1: from the first).',
    }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .meta({ description: 'At most this many (default 500).' }),
    tail: z.coerce.number().int().min(1).max(500).optional().meta({
      description:
        'Instead of `after`: the last `tail` events (a client joining the table reads where it is now, then follows with `after`).',
    }),
  }),
);

export const LiveEvent = /* @__PURE__ */ lazily(() =>
  z
    .object({
      tableId: z.string(),
      seq: z.int().min(0).meta({ description: "The table's sequence number: 0, 1, 2, … without gaps." }),
      type: z.enum(LIVE_EVENT_KINDS),
      at: Timestamp(),
      shoeId: z.string().optional(),
      roundId: z.string().optional(),
      data: z
        .record(z.string(), z.unknown())
        .meta({ description: 'Public facts only (docs/api.md, "Live events").' }),
    })
    .meta({ id: 'LiveEvent' }),
);

export const LiveEvents = /* @__PURE__ */ lazily(() =>
  z
    .object({
      tableId: z.string(),
      events: z.array(LiveEvent()),
      next: z
        .int()
        .min(0)
        .meta({ description: 'Pass `after` = next - 1 to continue (equals the last seq + 1).' }),
    })
    .meta({ id: 'LiveEvents' }),
);
