/**
 * What a player must be shown before he bets (issue #28 item 6; UKGC RTS 3, AGCO 4.05, RD 1613/2011
 * art. 5): per configured table, the return to player of each bet it offers — exact, from the engine's
 * odds for the table's decks and pay tables —, the most each bet can win, the rules in Spanish and
 * English and what happens to a game that is interrupted. The game client's help screen reads it.
 */
import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { Currency, MinorUnits } from './common';
import { ResourceId } from './ids';

const BetTypeName = /* @__PURE__ */ lazily(() =>
  z.string().meta({
    description: 'A bet type (PLAYER, BANKER, TIE, PLAYER_PAIR, BANKER_PAIR or a side bet the table offers).',
  }),
);

export const BetHelp = /* @__PURE__ */ lazily(() =>
  z
    .object({
      type: BetTypeName(),
      pays: z
        .string()
        .meta({ description: 'The pay table as printed, e.g. "1:1 less 5% commission", "8:1".' }),
      rtp: z.object({
        exact: z.string().meta({
          description:
            'The return to player as an exact fraction "num/den" (1 − the house edge) over every ordered 6-card sequence of a full shoe of the table\'s decks (docs/rules.md, "Exact odds").',
          example: '4929399768711825/5000000000000000',
        }),
        percent: z.string().meta({
          description: 'The same, as a percentage rounded to 4 decimals.',
          example: '98.9421',
        }),
      }),
      maxWin: MinorUnits().meta({
        description:
          "The most one bet of this type can win (net, after commission), at the table's maximum stake for it, in the table's currency's minor units.",
      }),
    })
    .meta({ id: 'BetHelp' }),
);

const Text = /* @__PURE__ */ lazily(() =>
  z.object({ es: z.string(), en: z.string() }).meta({ description: 'The same text in Spanish and English.' }),
);

export const TableHelp = /* @__PURE__ */ lazily(() =>
  z
    .object({
      tableId: ResourceId(),
      name: z.string(),
      currency: Currency(),
      decks: z.int(),
      bets: z.array(BetHelp()).meta({ description: 'Every bet the table offers, in settlement order.' }),
      rules: Text(),
      interruptedGames: Text(),
    })
    .meta({ id: 'TableHelp' }),
);
