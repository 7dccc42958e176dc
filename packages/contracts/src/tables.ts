import * as z from 'zod';
import { Amount, Currency, FreeText, Timestamp } from './common';
import { ResourceId } from './ids';
import { Winner } from './vocabulary';

const Limit = z.strictObject({ min: Amount, max: Amount }).meta({ id: 'BetLimit' });

/** The table configuration as the engine defines it (docs/architecture.md, TableConfig). */
export const TableConfig = z
  .strictObject({
    variant: z.enum(['mini', 'midi', 'full', 'custom']),
    name: z.string().optional().meta({ description: 'Custom tables only: the table type name.' }),
    seats: z.int().min(1).max(14),
    decks: z.int().min(1).max(8),
    commission: z.strictObject({
      rateBps: z.int().min(0).max(10_000).meta({ description: 'Basis points: 500 = 5%.' }),
      mode: z.enum(['AT_PAYMENT', 'DEFERRED']),
    }),
    tiePays: z.union([z.literal(8), z.literal(9)]),
    pairBets: z.boolean(),
    limits: z.strictObject({
      PLAYER: Limit,
      BANKER: Limit,
      TIE: Limit,
      PLAYER_PAIR: Limit,
      BANKER_PAIR: Limit,
    }),
    cutCard: z.strictObject({
      minCardsBehind: z.int().min(7).max(416),
      maxCardsBehind: z.int().min(7).max(416),
    }),
    afterCutCard: z.enum(['FINISH_COUP', 'ONE_MORE_COUP']),
    currency: Currency,
  })
  .meta({ id: 'TableConfig' });

const LimitOverride = z.strictObject({ min: Amount.optional(), max: Amount.optional() });

/** Overrides of a preset: any subset of the configuration (the variant comes from `variant`). */
export const TableConfigOverrides = z
  .strictObject({
    seats: z.int().min(1).max(14).optional(),
    decks: z.int().min(1).max(8).optional(),
    commission: z
      .strictObject({
        rateBps: z.int().min(0).max(10_000).optional(),
        mode: z.enum(['AT_PAYMENT', 'DEFERRED']).optional(),
      })
      .optional(),
    tiePays: z.union([z.literal(8), z.literal(9)]).optional(),
    pairBets: z.boolean().optional(),
    limits: z
      .strictObject({
        PLAYER: LimitOverride.optional(),
        BANKER: LimitOverride.optional(),
        TIE: LimitOverride.optional(),
        PLAYER_PAIR: LimitOverride.optional(),
        BANKER_PAIR: LimitOverride.optional(),
      })
      .optional(),
    cutCard: z
      .strictObject({
        minCardsBehind: z.int().min(7).max(416).optional(),
        maxCardsBehind: z.int().min(7).max(416).optional(),
      })
      .optional(),
    afterCutCard: z.enum(['FINISH_COUP', 'ONE_MORE_COUP']).optional(),
    currency: Currency.optional(),
  })
  .meta({ id: 'TableConfigOverrides' });

export const CreateTableRequest = z
  .strictObject({
    name: z.string().trim().min(1).pipe(FreeText(80)).meta({ example: 'Mini Punto Banco 1' }),
    variant: z.enum(['mini', 'midi', 'full', 'custom']).meta({
      description:
        'The preset: mini (7 seats, 6 decks), midi (9, 6), full (14, 8); custom for any other seats or ' +
        'decks (its configuration takes the table name).',
    }),
    config: TableConfigOverrides.optional(),
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
  .meta({ id: 'CreateTableRequest' });

export const TableParams = z.strictObject({ tableId: ResourceId });

export const Table = z
  .object({
    tableId: z.string(),
    operatorId: z.string(),
    name: z.string(),
    config: TableConfig,
    currentShoeId: z.string().nullable(),
    openRoundId: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Table' });

export const ScoreboardCoup = z
  .object({
    roundId: z.string(),
    coup: z.int().min(1).meta({ description: 'Number of the coup in the shoe, from 1.' }),
    winner: Winner,
    playerTotal: z.int().min(0).max(9),
    bankerTotal: z.int().min(0).max(9),
    natural: z.boolean(),
    playerPair: z.boolean(),
    bankerPair: z.boolean(),
  })
  .meta({ id: 'ScoreboardCoup' });

const RoadMarks = {
  natural: z.boolean(),
  playerPair: z.boolean(),
  bankerPair: z.boolean(),
};
const BeadCell = z
  .object({
    winner: Winner,
    ...RoadMarks,
    total: z.int().optional(),
    index: z.int(),
    col: z.int(),
    row: z.int(),
  })
  .meta({ id: 'BeadCell' });
const BigRoadCell = z
  .object({
    index: z.int(),
    winner: z.enum(['PLAYER', 'BANKER']),
    ties: z.int(),
    ...RoadMarks,
    col: z.int(),
    row: z.int(),
  })
  .meta({ id: 'BigRoadCell' });
const DerivedCell = z
  .object({ color: z.enum(['RED', 'BLUE']), col: z.int(), row: z.int() })
  .meta({ id: 'DerivedCell', description: 'RED: the big road repeats; BLUE: it is choppy.' });

export const ResultsPanel = z
  .object({
    coups: z.int(),
    counts: z.object({
      player: z.int(),
      banker: z.int(),
      tie: z.int(),
      natural: z.int(),
      playerPair: z.int(),
      bankerPair: z.int(),
    }),
    beadPlate: z.array(BeadCell),
    bigRoad: z.object({
      leadingTies: z.int(),
      cells: z.array(BigRoadCell),
      columns: z.array(z.array(BigRoadCell)),
    }),
    bigEyeBoy: z.array(DerivedCell),
    smallRoad: z.array(DerivedCell),
    cockroachPig: z.array(DerivedCell),
  })
  .meta({ id: 'ResultsPanel', description: 'Grids are 6 rows high; columns fill top to bottom.' });

export const ScoreboardQuery = z.strictObject({
  shoeId: ResourceId.optional().meta({
    description: "A shoe of this table (default: the table's current shoe).",
  }),
});

export const Scoreboard = z
  .object({
    tableId: z.string(),
    shoeId: z
      .string()
      .nullable()
      .meta({ description: 'The shoe shown; null when the table has no shoe open.' }),
    coups: z.array(ScoreboardCoup),
    panel: ResultsPanel,
  })
  .meta({ id: 'Scoreboard' });
