import * as z from 'zod';
import { lazily } from './lazily';

/** The bets of every table (seed 000) and the pair side bets (brief), in the order settlement lists them. */
export type BaseBetType = 'PLAYER' | 'BANKER' | 'TIE' | 'PLAYER_PAIR' | 'BANKER_PAIR';
/** Side bets a table offers one by one, each with its pay table and limit in `TableConfig.sideBets`. */
export type SideBetType =
  | 'EITHER_PAIR'
  | 'PERFECT_PAIR'
  | 'DRAGON_BONUS_PLAYER'
  | 'DRAGON_BONUS_BANKER'
  | 'DRAGON_7'
  | 'PANDA_8'
  | 'SUPER_6'
  | 'BIG'
  | 'SMALL';
export type BetType = BaseBetType | SideBetType;

export const BASE_BET_TYPES: readonly BaseBetType[] = [
  'PLAYER',
  'BANKER',
  'TIE',
  'PLAYER_PAIR',
  'BANKER_PAIR',
];
export const SIDE_BET_TYPES: readonly SideBetType[] = [
  'EITHER_PAIR',
  'PERFECT_PAIR',
  'DRAGON_BONUS_PLAYER',
  'DRAGON_BONUS_BANKER',
  'DRAGON_7',
  'PANDA_8',
  'SUPER_6',
  'BIG',
  'SMALL',
];
/** Every bet type, in settlement order (the base bets first, as before side bets existed). */
export const BET_TYPES: readonly BetType[] = [...BASE_BET_TYPES, ...SIDE_BET_TYPES];
/** The pair bets, offered together when `pairBets` is true (11:1). */
export const PAIR_BETS: readonly BetType[] = ['PLAYER_PAIR', 'BANKER_PAIR'];

export const isSideBetType = (type: BetType): type is SideBetType =>
  (SIDE_BET_TYPES as readonly string[]).includes(type);

/** The seeds' table types, and `custom` for any other shape (named). */
export type TableVariant = 'mini' | 'midi' | 'full' | 'custom';
export type PresetVariant = Exclude<TableVariant, 'custom'>;
export type CommissionMode = 'AT_PAYMENT' | 'DEFERRED';
export type AfterCutCard = 'FINISH_COUP' | 'ONE_MORE_COUP';
/**
 * How the Banca bet pays when a table does not take commission (absent: 1:1 less commission).
 * EZ: 1:1, a Banca win with a three-card 7 pushes. SUPER_6: 1:1, a Banca win with 6 pays 1:2.
 */
export type BankerMode = 'EZ' | 'SUPER_6';

export type BetLimit = {
  min: number;
  max: number;
};

/**
 * A payout as "win : per": a winning bet wins `win` for every `per` staked, on top of the stake back.
 * 25:1 is { win: 25, per: 1 }, 0.54:1 is { win: 54, per: 100 }, 1.5:1 is { win: 3, per: 2 }. The net
 * win of a stake is floor(stake × win / per) minor units: the house keeps the fraction (settlement.ts).
 */
export type Pays = { win: number; per: number };

/** A side bet with one winning event. */
export type SideBet = { pays: Pays; limit: BetLimit };
/** Perfect Pair: `pays` when one hand's first two cards are a suited pair, `paysBoth` when both are. */
export type PerfectPairBet = { pays: Pays; paysBoth: Pays; limit: BetLimit };
/** Dragon Bonus: a natural win, or a non-natural win by 4..9 points (`margin`); a natural tie pushes. */
export type DragonBonusBet = {
  natural: Pays;
  margin: { 4: Pays; 5: Pays; 6: Pays; 7: Pays; 8: Pays; 9: Pays };
  limit: BetLimit;
};

/** The side bets a table offers: each present one is enabled with its pay table and limit. */
export type SideBets = {
  EITHER_PAIR?: SideBet;
  PERFECT_PAIR?: PerfectPairBet;
  DRAGON_BONUS_PLAYER?: DragonBonusBet;
  DRAGON_BONUS_BANKER?: DragonBonusBet;
  DRAGON_7?: SideBet;
  PANDA_8?: SideBet;
  SUPER_6?: SideBet;
  BIG?: SideBet;
  SMALL?: SideBet;
};

/**
 * A type alias (not an interface) so it is assignable to Record<string, unknown> (e.g. zod records).
 * `name`, `bankerMode` and `sideBets` are optional and absent when unused, so a configuration without
 * them has the same canonical JSON (and signed shoe statement) as before they existed.
 */
export type TableConfig = {
  variant: TableVariant;
  /** Custom tables only: what the operator calls this table type. */
  name?: string;
  /** mini 7, midi 9, full 14 (seeds 000, 004); a custom table 1..14 */
  seats: number;
  /**
   * mini and midi 6, full 8 (seed 000); a custom table 6 or 8 through the API (003:16, 004:8: the
   * contract's `TableDecks`). The schema takes 1..8 so the core's tests can play short shoes.
   */
  decks: number;
  /** rate in basis points (500 = 5%); AT_PAYMENT deducts it from the win, DEFERRED adds it to a debt */
  commission: { rateBps: number; mode: CommissionMode };
  /** absent: the Banca bet pays 1:1 less commission */
  bankerMode?: BankerMode;
  tiePays: 8 | 9;
  pairBets: boolean;
  /** per base bet type, integer minor units (side bets carry theirs in `sideBets`) */
  limits: Record<BaseBetType, BetLimit>;
  /** absent: no side bets beyond the pairs */
  sideBets?: SideBets;
  /** cards left behind the cut card (seed 003: at least 7) */
  cutCard: { minCardsBehind: number; maxCardsBehind: number };
  afterCutCard: AfterCutCard;
  /** ISO 4217 */
  currency: string;
};

/** The most cards the burn can take: the shown card plus 10 (a ten or a face). */
export const MAX_BURN = 11;
/** The most cards one coup can take. */
export const MAX_COUP_CARDS = 6;

/** Seats and decks of each preset, as the seeds give them (000: mini 7, midi 9, full 14; 6/6/8 decks). */
export const PRESET_SHAPES: Record<PresetVariant, { seats: number; decks: number }> = {
  mini: { seats: 7, decks: 6 },
  midi: { seats: 9, decks: 6 },
  full: { seats: 14, decks: 8 },
};

const pays = (win: number, per = 1): Pays => ({ win, per });

/** The default pay tables (issue #13); docs/rules.md gives their house edges beside the published ones. */
export const DEFAULT_SIDE_BET_PAYS = {
  EITHER_PAIR: { pays: pays(5) },
  PERFECT_PAIR: { pays: pays(25), paysBoth: pays(200) },
  DRAGON_BONUS: {
    natural: pays(1),
    margin: { 4: pays(1), 5: pays(2), 6: pays(4), 7: pays(6), 8: pays(10), 9: pays(30) },
  },
  DRAGON_7: { pays: pays(40) },
  PANDA_8: { pays: pays(25) },
  SUPER_6: { pays: pays(12) },
  BIG: { pays: pays(54, 100) },
  SMALL: { pays: pays(3, 2) },
} as const;

const amount = /* @__PURE__ */ lazily(() => z.number().int().positive().max(Number.MAX_SAFE_INTEGER));
const limit = /* @__PURE__ */ lazily(() =>
  z
    .object({ min: amount(), max: amount() })
    .strict()
    .refine((l) => l.min <= l.max, { message: 'min must not exceed max' }),
);
// Bounded so stake × win never leaves BigInt-free comfort and a pay table stays a pay table.
const paysSchema = /* @__PURE__ */ lazily(() =>
  z.object({ win: z.number().int().min(1).max(10_000), per: z.number().int().min(1).max(10_000) }).strict(),
);
const copy = <T>(value: T): T => structuredClone(value);
const sideBet = (defaults: { pays: Pays }) =>
  z.object({ pays: paysSchema().default(() => copy(defaults.pays)), limit: limit() }).strict();
const { DRAGON_BONUS } = DEFAULT_SIDE_BET_PAYS;
const dragonBonus = /* @__PURE__ */ lazily(() =>
  z
    .object({
      natural: paysSchema().default(() => copy(DRAGON_BONUS.natural)),
      margin: z
        .object({
          4: paysSchema(),
          5: paysSchema(),
          6: paysSchema(),
          7: paysSchema(),
          8: paysSchema(),
          9: paysSchema(),
        })
        .strict()
        .default(() => copy(DRAGON_BONUS.margin)),
      limit: limit(),
    })
    .strict(),
);

/** Side bets: each optional; `pays` may be left out for the default pay table (filled in on parse). */
export const SideBetsSchema = /* @__PURE__ */ lazily(() =>
  z
    .object({
      EITHER_PAIR: sideBet(DEFAULT_SIDE_BET_PAYS.EITHER_PAIR).optional(),
      PERFECT_PAIR: z
        .object({
          pays: paysSchema().default(() => copy(DEFAULT_SIDE_BET_PAYS.PERFECT_PAIR.pays)),
          paysBoth: paysSchema().default(() => copy(DEFAULT_SIDE_BET_PAYS.PERFECT_PAIR.paysBoth)),
          limit: limit(),
        })
        .strict()
        .optional(),
      DRAGON_BONUS_PLAYER: dragonBonus().optional(),
      DRAGON_BONUS_BANKER: dragonBonus().optional(),
      DRAGON_7: sideBet(DEFAULT_SIDE_BET_PAYS.DRAGON_7).optional(),
      PANDA_8: sideBet(DEFAULT_SIDE_BET_PAYS.PANDA_8).optional(),
      SUPER_6: sideBet(DEFAULT_SIDE_BET_PAYS.SUPER_6).optional(),
      BIG: sideBet(DEFAULT_SIDE_BET_PAYS.BIG).optional(),
      SMALL: sideBet(DEFAULT_SIDE_BET_PAYS.SMALL).optional(),
    })
    .strict(),
);

/**
 * Well-formed Unicode (no lone surrogate, Cs) without control (Cc), format (Cf: bidi overrides,
 * invisible marks) or line/paragraph separator characters: a name shown to players.
 */
const DISPLAY_TEXT = /^[^\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]*$/u;
const tableName = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .min(1)
    .max(80)
    .refine((s) => s === s.trim() && DISPLAY_TEXT.test(s), {
      message: 'a name of 1-80 characters, trimmed, without control or formatting characters',
    }),
);

export const TableConfigSchema = /* @__PURE__ */ lazily(
  () =>
    z
      .object({
        variant: z.enum(['mini', 'midi', 'full', 'custom']),
        name: tableName().optional(),
        seats: z.number().int().min(1).max(14),
        decks: z.number().int().min(1).max(8),
        commission: z
          .object({
            rateBps: z.number().int().min(0).max(10_000),
            mode: z.enum(['AT_PAYMENT', 'DEFERRED']),
          })
          .strict(),
        bankerMode: z.enum(['EZ', 'SUPER_6']).optional(),
        tiePays: z.union([z.literal(8), z.literal(9)]),
        pairBets: z.boolean(),
        limits: z
          .object({
            PLAYER: limit(),
            BANKER: limit(),
            TIE: limit(),
            PLAYER_PAIR: limit(),
            BANKER_PAIR: limit(),
          })
          .strict(),
        sideBets: SideBetsSchema().optional(),
        cutCard: z
          .object({
            minCardsBehind: z.number().int().min(7),
            maxCardsBehind: z.number().int().min(7),
          })
          .strict(),
        afterCutCard: z.enum(['FINISH_COUP', 'ONE_MORE_COUP']),
        currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as EUR'),
      })
      .strict()
      .superRefine((c, ctx) => {
        if (c.variant === 'custom') {
          if (c.name === undefined)
            ctx.addIssue({ code: 'custom', path: ['name'], message: 'a custom table needs a name' });
        } else {
          const shape = PRESET_SHAPES[c.variant];
          if (c.name !== undefined)
            ctx.addIssue({
              code: 'custom',
              path: ['name'],
              message: `only a custom table has a name; a ${c.variant} table is named by its variant`,
            });
          for (const key of ['seats', 'decks'] as const) {
            if (c[key] !== shape[key])
              ctx.addIssue({
                code: 'custom',
                path: [key],
                message:
                  `a ${c.variant} table has ${shape.seats} seats and ${shape.decks} decks (seeds 000, 004); ` +
                  `any other shape is a custom table (variant "custom" with a name)`,
              });
          }
        }
        if (c.sideBets !== undefined && Object.keys(c.sideBets).length === 0) {
          // "Off" is the field left out, so one configuration has one canonical JSON.
          ctx.addIssue({
            code: 'custom',
            path: ['sideBets'],
            message: 'leave sideBets out when none is offered',
          });
        }
        const { minCardsBehind, maxCardsBehind } = c.cutCard;
        if (minCardsBehind > maxCardsBehind) {
          ctx.addIssue({
            code: 'custom',
            path: ['cutCard'],
            message: 'minCardsBehind must not exceed maxCardsBehind',
          });
        }
        // One more coup after the coup that brought out the cut card needs up to 6 more cards: the cut coup
        // can start one card before the cut and take 6, so 12 behind always leaves a whole coup.
        if (c.afterCutCard === 'ONE_MORE_COUP' && minCardsBehind < 2 * MAX_COUP_CARDS) {
          ctx.addIssue({
            code: 'custom',
            path: ['cutCard', 'minCardsBehind'],
            message: `ONE_MORE_COUP needs at least ${2 * MAX_COUP_CARDS} cards behind the cut card`,
          });
        }
        if (maxCardsBehind + MAX_BURN + MAX_COUP_CARDS > c.decks * 52) {
          ctx.addIssue({
            code: 'custom',
            path: ['cutCard', 'maxCardsBehind'],
            message: 'the cut card must leave room for the burn and at least one coup in front of it',
          });
        }
      }) satisfies z.ZodType<TableConfig>,
);

export type DeepPartial<T> = {
  [K in keyof T]?: NonNullable<T[K]> extends object ? DeepPartial<NonNullable<T[K]>> : T[K];
};

/**
 * The limit of a bet type at this table, or undefined when the table does not offer it (a pair bet
 * without `pairBets`, a side bet not in `sideBets`).
 */
export function betLimit(config: TableConfig, type: BetType): BetLimit | undefined {
  if (isSideBetType(type)) return config.sideBets?.[type]?.limit;
  if ((PAIR_BETS as readonly string[]).includes(type) && !config.pairBets) return undefined;
  return config.limits[type];
}

const limits = (main: BetLimit, tie: BetLimit, pair: BetLimit): Record<BaseBetType, BetLimit> => ({
  PLAYER: main,
  BANKER: main,
  TIE: tie,
  PLAYER_PAIR: pair,
  BANKER_PAIR: pair,
});

const common = {
  commission: { rateBps: 500, mode: 'AT_PAYMENT' },
  tiePays: 8,
  pairBets: false,
  cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
  afterCutCard: 'FINISH_COUP',
  currency: 'EUR',
} as const;

/**
 * Presets per seed 000 (mini 7 seats / midi 9 seats with 6 decks, full table 14 seats with 8 decks).
 * A custom table starts from the mini preset's values and must be given a name.
 */
const PRESETS: Record<TableVariant, TableConfig> = {
  mini: {
    variant: 'mini',
    ...PRESET_SHAPES.mini,
    ...common,
    limits: limits({ min: 500, max: 500_000 }, { min: 100, max: 62_500 }, { min: 100, max: 45_000 }),
  },
  midi: {
    variant: 'midi',
    ...PRESET_SHAPES.midi,
    ...common,
    limits: limits({ min: 1_000, max: 1_000_000 }, { min: 500, max: 125_000 }, { min: 500, max: 90_000 }),
  },
  full: {
    variant: 'full',
    ...PRESET_SHAPES.full,
    ...common,
    limits: limits(
      { min: 5_000, max: 5_000_000 },
      { min: 1_000, max: 625_000 },
      { min: 1_000, max: 450_000 },
    ),
  },
  custom: {
    variant: 'custom',
    ...PRESET_SHAPES.mini,
    ...common,
    limits: limits({ min: 500, max: 500_000 }, { min: 100, max: 62_500 }, { min: 100, max: 45_000 }),
  },
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(base: unknown, override: unknown): unknown {
  if (override === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) out[key] = merge(base[key], value);
  return out;
}

/**
 * A preset with overrides deep-merged, validated (throws a ZodError on an invalid result). The preset
 * variants keep their seats and decks; `custom` takes any within the schema and needs `name`.
 */
export function tablePreset(variant: TableVariant, overrides?: DeepPartial<TableConfig>): TableConfig {
  const preset = Object.hasOwn(PRESETS, variant) ? PRESETS[variant] : undefined;
  if (!preset) throw new RangeError(`unknown table variant: ${String(variant)}`);
  return TableConfigSchema().parse(merge(structuredClone(preset), overrides));
}

/** Validates an untrusted config (e.g. from the API). */
export const parseTableConfig = (input: unknown): TableConfig => TableConfigSchema().parse(input);
