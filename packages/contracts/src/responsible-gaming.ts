import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { MinorUnits, Timestamp } from './common';

/*
 * Responsible-gaming controls of a hosted wallet (docs/responsible-gaming.md): limits the operator
 * sets for a player, self-exclusion and cooling-off, the counters they are checked against, and the
 * player's sessions (reality-check data). Checked in the transaction that accepts a bet.
 */

/** The limits, by name. Money limits in the wallet's minor units; `sessionMinutes` in minutes. */
export const RG_LIMITS = [
  'stakePerRound',
  'lossDay',
  'lossWeek',
  'lossMonth',
  'wagerDay',
  'wagerWeek',
  'wagerMonth',
  'sessionMinutes',
] as const;
export type RgLimit = (typeof RG_LIMITS)[number];

const limitValue = /* @__PURE__ */ lazily(() => z.int().min(1).max(Number.MAX_SAFE_INTEGER));

const limitsShape = /* @__PURE__ */ lazily(
  () =>
    Object.fromEntries(RG_LIMITS.map((name) => [name, limitValue().nullable().optional()])) as {
      [K in RgLimit]: z.ZodOptional<z.ZodNullable<ReturnType<typeof limitValue>>>;
    },
);

export const RgLimits = /* @__PURE__ */ lazily(() =>
  z.strictObject(limitsShape()).meta({
    id: 'RgLimits',
    description:
      'Per-player limits. stakePerRound: the stake of one position (a coup); lossDay/Week/Month: net loss (stakes minus returns, by ledger time) in the UTC period; wagerDay/Week/Month: stakes net of withdrawals in the period; sessionMinutes: length of a table session. null removes a limit. A tightening (lower, or new) applies at once; a relaxation (higher, or removed) 24 hours later (AGCO 2.24).',
  }),
);

export const RgExclusionKind = /* @__PURE__ */ lazily(() =>
  z.enum(['SELF_EXCLUSION', 'COOLING_OFF']).meta({ id: 'RgExclusionKind' }),
);

export const RgSettingsRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      limits: RgLimits().optional(),
      exclusion: z
        .strictObject({
          kind: RgExclusionKind(),
          until: Timestamp().nullable().meta({
            description:
              'When it ends; null: indefinite (self-exclusion only). It can be extended, never shortened.',
          }),
        })
        .optional(),
      sessionTimeoutMinutes: z.int().min(1).max(1_440).optional().meta({
        description: 'Inactivity after which a table session ends (default 20).',
      }),
      realityCheckMinutes: z.int().min(1).max(1_440).nullable().optional().meta({
        description:
          "The player's reality-check interval: the first bet of a table session after each such interval of play answers `realityCheck` (the client shows the prompt). null: none (the default).",
      }),
    })
    .meta({ id: 'RgSettingsRequest' }),
);

const Counter = /* @__PURE__ */ lazily(() =>
  z.object({
    period: z
      .string()
      .meta({ description: "The UTC period: YYYY-MM-DD, the ISO week's Monday (W YYYY-MM-DD), YYYY-MM." }),
    wager: MinorUnits(),
    loss: MinorUnits().meta({
      description: 'Stakes minus returns in the period (negative: the player is ahead).',
    }),
  }),
);

export const RgSession = /* @__PURE__ */ lazily(() =>
  z
    .object({
      sessionId: z.string(),
      tableId: z.string(),
      startedAt: Timestamp(),
      lastActivityAt: Timestamp(),
      endedAt: Timestamp().nullable().meta({
        description: 'Set once it has ended (left, or inactive for the time-out).',
      }),
      minutesPlayed: z.int().min(0),
      staked: MinorUnits(),
      net: MinorUnits().meta({ description: 'Returns minus stakes of the session so far (reality check).' }),
    })
    .meta({ id: 'RgSession' }),
);

export const RgStatus = /* @__PURE__ */ lazily(() =>
  z
    .object({
      playerId: z.string(),
      currency: z.string(),
      limits: z.record(z.string(), z.int()).meta({ description: 'The limits in force now.' }),
      pending: z
        .array(z.object({ limit: z.enum(RG_LIMITS), value: z.int().nullable(), effectiveAt: Timestamp() }))
        .meta({ description: 'Relaxations not in force yet.' }),
      exclusion: z
        .object({ kind: RgExclusionKind(), since: Timestamp(), until: Timestamp().nullable() })
        .nullable()
        .meta({ description: 'An exclusion in force (bets are refused), or null.' }),
      sessionTimeoutMinutes: z.int(),
      realityCheckMinutes: z
        .int()
        .optional()
        .meta({ description: 'The reality-check interval the player set; absent: none.' }),
      counters: z.object({ day: Counter(), week: Counter(), month: Counter() }),
      sessions: z.array(RgSession()),
    })
    .meta({ id: 'RgStatus' }),
);
