/** The scoreboard of a table (its results panel, seeds 003 and 004: the bead plate and the roads). */
import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { ResourceId } from './ids';
import { SideBetType } from './tables';
import { BET_RESULTS, Winner } from './vocabulary';

/** A side bet's result in a coup (the same for every stake; what a win pays follows its pay table). */
export const SideBetOutcome = /* @__PURE__ */ lazily(() =>
  z
    // The enum inline: the BetResult component is rendered nullable (a bet's result before settlement).
    .object({ type: SideBetType(), result: z.enum(BET_RESULTS) })
    .meta({ id: 'SideBetOutcome' }),
);

export const ScoreboardCoup = /* @__PURE__ */ lazily(() =>
  z
    .object({
      roundId: z.string(),
      coup: z.int().min(1).meta({ description: 'Number of the coup in the shoe, from 1.' }),
      winner: Winner(),
      playerTotal: z.int().min(0).max(9),
      bankerTotal: z.int().min(0).max(9),
      natural: z.boolean(),
      playerPair: z.boolean(),
      bankerPair: z.boolean(),
      cards: z.int().min(4).max(6).meta({ description: 'Cards the coup used (Big: 5 or 6, Small: 4).' }),
      sideBets: z.array(SideBetOutcome()).meta({
        description:
          "What each side bet the shoe's table offers did in this coup, in the engine's order; empty when it offers none.",
      }),
    })
    .meta({ id: 'ScoreboardCoup' }),
);

const RoadMarks = /* @__PURE__ */ lazily(() => ({
  natural: z.boolean(),
  playerPair: z.boolean(),
  bankerPair: z.boolean(),
}));
const BeadCell = /* @__PURE__ */ lazily(() =>
  z
    .object({
      winner: Winner(),
      ...RoadMarks(),
      total: z.int().optional(),
      index: z.int(),
      col: z.int(),
      row: z.int(),
    })
    .meta({ id: 'BeadCell' }),
);
const BigRoadCell = /* @__PURE__ */ lazily(() =>
  z
    .object({
      index: z.int(),
      winner: z.enum(['PLAYER', 'BANKER']),
      ties: z.int(),
      ...RoadMarks(),
      col: z.int(),
      row: z.int(),
    })
    .meta({ id: 'BigRoadCell' }),
);
const DerivedCell = /* @__PURE__ */ lazily(() =>
  z
    .object({ color: z.enum(['RED', 'BLUE']), col: z.int(), row: z.int() })
    .meta({ id: 'DerivedCell', description: 'RED: the big road repeats; BLUE: it is choppy.' }),
);

export const ResultsPanel = /* @__PURE__ */ lazily(() =>
  z
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
      beadPlate: z.array(BeadCell()),
      bigRoad: z.object({
        leadingTies: z.int(),
        cells: z.array(BigRoadCell()),
        columns: z.array(z.array(BigRoadCell())),
      }),
      bigEyeBoy: z.array(DerivedCell()),
      smallRoad: z.array(DerivedCell()),
      cockroachPig: z.array(DerivedCell()),
    })
    .meta({ id: 'ResultsPanel', description: 'Grids are 6 rows high; columns fill top to bottom.' }),
);

export const ScoreboardQuery = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    shoeId: ResourceId().optional().meta({
      description: "A shoe of this table (default: the table's current shoe).",
    }),
  }),
);

export const Scoreboard = /* @__PURE__ */ lazily(() =>
  z
    .object({
      tableId: z.string(),
      shoeId: z
        .string()
        .nullable()
        .meta({ description: 'The shoe shown; null when the table has no shoe open.' }),
      coups: z.array(ScoreboardCoup()),
      panel: ResultsPanel(),
    })
    .meta({ id: 'Scoreboard' }),
);
