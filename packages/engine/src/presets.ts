/** The seeds' table presets (000) and a preset with overrides, validated. */
import {
  type BaseBetType,
  type BetLimit,
  type DeepPartial,
  PRESET_SHAPES,
  type TableConfig,
  type TableVariant,
} from './config';
import { TableConfigSchema } from './config-schema';

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
