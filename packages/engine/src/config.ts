/** A table's configuration: its bets, limits, pay tables and shoe (the types; schemas in config-schema.ts, presets in presets.ts). */
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
   * mini and midi 6, full 8 (seed 000); a custom table 6 or 8 (003:16, 004:8: the contract's
   * `TableDecks`, the core's `createTable`). The schema takes 1..8: the odds and simulations are about
   * any shoe, and a core built with `testShoes` gives its tests short ones.
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
