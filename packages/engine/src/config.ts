import * as z from 'zod';

export type BetType = 'PLAYER' | 'BANKER' | 'TIE' | 'PLAYER_PAIR' | 'BANKER_PAIR';
export const BET_TYPES: readonly BetType[] = ['PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR'];
export const SIDE_BETS: readonly BetType[] = ['PLAYER_PAIR', 'BANKER_PAIR'];

export type TableVariant = 'mini' | 'midi' | 'full';
export type CommissionMode = 'AT_PAYMENT' | 'DEFERRED';
export type AfterCutCard = 'FINISH_COUP' | 'ONE_MORE_COUP';

export type BetLimit = {
  min: number;
  max: number;
};

/** A type alias (not an interface) so it is assignable to Record<string, unknown> (e.g. zod records). */
export type TableConfig = {
  variant: TableVariant;
  /** 7 / 9 / 14 by preset, 1..14 */
  seats: number;
  /** 1..8 (6 for mini/midi, 8 for full) */
  decks: number;
  /** rate in basis points (500 = 5%); AT_PAYMENT deducts it from the win, DEFERRED adds it to a debt */
  commission: { rateBps: number; mode: CommissionMode };
  tiePays: 8 | 9;
  pairBets: boolean;
  /** per bet type, integer minor units */
  limits: Record<BetType, BetLimit>;
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

const amount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const limit = z
  .object({ min: amount, max: amount })
  .strict()
  .refine((l) => l.min <= l.max, { message: 'min must not exceed max' });

export const TableConfigSchema = z
  .object({
    variant: z.enum(['mini', 'midi', 'full']),
    seats: z.number().int().min(1).max(14),
    decks: z.number().int().min(1).max(8),
    commission: z
      .object({
        rateBps: z.number().int().min(0).max(10_000),
        mode: z.enum(['AT_PAYMENT', 'DEFERRED']),
      })
      .strict(),
    tiePays: z.union([z.literal(8), z.literal(9)]),
    pairBets: z.boolean(),
    limits: z
      .object({ PLAYER: limit, BANKER: limit, TIE: limit, PLAYER_PAIR: limit, BANKER_PAIR: limit })
      .strict(),
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
  }) satisfies z.ZodType<TableConfig>;

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

const limits = (main: BetLimit, tie: BetLimit, pair: BetLimit): Record<BetType, BetLimit> => ({
  PLAYER: main,
  BANKER: main,
  TIE: tie,
  PLAYER_PAIR: pair,
  BANKER_PAIR: pair,
});

/** Presets per seed 000 (mini 7 seats / midi 9 seats with 6 decks, full table 14 seats with 8 decks). */
const PRESETS: Record<TableVariant, TableConfig> = {
  mini: {
    variant: 'mini',
    seats: 7,
    decks: 6,
    commission: { rateBps: 500, mode: 'AT_PAYMENT' },
    tiePays: 8,
    pairBets: false,
    limits: limits({ min: 500, max: 500_000 }, { min: 100, max: 62_500 }, { min: 100, max: 45_000 }),
    cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
    afterCutCard: 'FINISH_COUP',
    currency: 'EUR',
  },
  midi: {
    variant: 'midi',
    seats: 9,
    decks: 6,
    commission: { rateBps: 500, mode: 'AT_PAYMENT' },
    tiePays: 8,
    pairBets: false,
    limits: limits({ min: 1_000, max: 1_000_000 }, { min: 500, max: 125_000 }, { min: 500, max: 90_000 }),
    cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
    afterCutCard: 'FINISH_COUP',
    currency: 'EUR',
  },
  full: {
    variant: 'full',
    seats: 14,
    decks: 8,
    commission: { rateBps: 500, mode: 'AT_PAYMENT' },
    tiePays: 8,
    pairBets: false,
    limits: limits(
      { min: 5_000, max: 5_000_000 },
      { min: 1_000, max: 625_000 },
      { min: 1_000, max: 450_000 },
    ),
    cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
    afterCutCard: 'FINISH_COUP',
    currency: 'EUR',
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

/** A preset with overrides deep-merged, validated (throws a ZodError on an invalid result). */
export function tablePreset(variant: TableVariant, overrides?: DeepPartial<TableConfig>): TableConfig {
  const preset = PRESETS[variant];
  if (!preset) throw new RangeError(`unknown table variant: ${String(variant)}`);
  return TableConfigSchema.parse(merge(structuredClone(preset), overrides));
}

/** Validates an untrusted config (e.g. from the API). */
export const parseTableConfig = (input: unknown): TableConfig => TableConfigSchema.parse(input);
