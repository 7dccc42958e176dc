/**
 * The strict shape of a stored pyb-shoe/3 state (the core keeps it between coups). A state that
 * parses is self-consistent: counts that add up, a cut card where its bounds allow, a burn that
 * matches its first card. It is not proof of anything — the verifier replays the shoe from its
 * start (`replayShoeV3`) — but a state read back from storage that fails here is refused, never dealt.
 */
import { burnValue, CARDS_PER_DECK, lazily } from '@pyb/engine';
import * as z from 'zod';
import { MIN_CARDS_BEHIND } from './shoe';

// Built on first use, like every schema of the proof formats (packages/engine/src/lazily.ts).
export const ShoeStateV3Schema = /* @__PURE__ */ lazily(() => {
  const card = z
    .number()
    .int()
    .min(0)
    .max(CARDS_PER_DECK - 1);
  const count = z.number().int().min(0);
  const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
  return z
    .object({
      scheme: z.literal('pyb-shoe/3'),
      shoeId: z.string().min(1).max(128),
      commitment: hex64,
      entropy: hex64,
      decks: z.number().int().min(1).max(8),
      afterCutCard: z.enum(['FINISH_COUP', 'ONE_MORE_COUP']),
      cardsBehind: z.number().int().min(MIN_CARDS_BEHIND),
      cutIndex: count,
      burn: z.object({ shown: card, burned: z.number().int().min(1).max(10), cards: z.array(card) }).strict(),
      left: z.array(count).length(CARDS_PER_DECK),
      cursor: count,
      coups: count,
      coupsAfterCut: count,
      finished: z.boolean(),
    })
    .strict()
    .superRefine((s, ctx) => {
      const total = s.decks * CARDS_PER_DECK;
      const problems: string[] = [];
      if (s.cutIndex !== total - s.cardsBehind) problems.push('cutIndex is not total − cardsBehind');
      if (s.burn.burned !== burnValue(s.burn.shown))
        problems.push('burn.burned is not the shown card’s value');
      if (s.burn.cards.length !== s.burn.burned) problems.push('burn.cards does not hold burn.burned cards');
      if (s.left.some((n) => n > s.decks)) problems.push('more copies of a card left than the decks hold');
      if (s.left.reduce((a, n) => a + n, 0) !== total - s.cursor)
        problems.push('cards left ≠ total − cursor');
      if (s.cursor < 1 + s.burn.burned) problems.push('cursor before the end of the burn');
      for (const message of problems) ctx.addIssue({ code: 'custom', message });
    });
});
