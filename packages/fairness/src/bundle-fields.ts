/** The fields the bundle and proof schemas (bundle.ts) are made of: ids, digests, times, cards, seeds. */
import { BET_TYPES, lazily, parseCard } from '@pyb/engine';
import * as z from 'zod';
import { clientSeedProblem } from './text';

export const hex32 = /* @__PURE__ */ lazily(() =>
  z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits'),
);
export const hexBytes = (n: number) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${2 * n}}$`), `${2 * n} lowercase hex digits`);
export const base64 = /* @__PURE__ */ lazily(() => z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64'));
export const id = /* @__PURE__ */ lazily(() => z.string().min(1).max(128));
export const isoTime = /* @__PURE__ */ lazily(() => z.iso.datetime({ offset: true }));
export const count = /* @__PURE__ */ lazily(() => z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));
/** Money may be negative in a house result. */
export const signedAmount = /* @__PURE__ */ lazily(() =>
  z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
);
export const card = /* @__PURE__ */ lazily(() =>
  z.string().refine(
    (text) => {
      try {
        parseCard(text);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'a card such as AS, TD, 10D, KH' },
  ),
);
export const betType = /* @__PURE__ */ lazily(() => z.enum(BET_TYPES as [string, ...string[]]));
/** A contributed seed (docs/provably-fair.md §5.2): 1..256 UTF-8 bytes of clean text (text.ts). */
export const seedText = /* @__PURE__ */ lazily(() =>
  z.string().superRefine((seed, ctx) => {
    const problem = clientSeedProblem(seed);
    if (problem) ctx.addIssue({ code: 'custom', message: `the seed ${problem}` });
  }),
);
