/**
 * The table configuration's schema (zod, built on first use: lazily.ts): what the API and the
 * presets accept, with the seeds' rules that a type cannot say.
 */
import * as z from 'zod';
import {
  DEFAULT_SIDE_BET_PAYS,
  MAX_BURN,
  MAX_COUP_CARDS,
  type Pays,
  PRESET_SHAPES,
  type TableConfig,
} from './config';
import { lazily } from './lazily';

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

/** Validates an untrusted config (e.g. from the API). */
export const parseTableConfig = (input: unknown): TableConfig => TableConfigSchema().parse(input);
