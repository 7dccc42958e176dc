import { lazily } from '@pyb/engine';
import * as z from 'zod';

/*
 * The id grammar, defined once (docs/api.md, "Ids"). The handlers validate path segments and bodies
 * with these schemas, and the core checks every id it is handed with the same patterns (`checkId`).
 * None of them holds `#`, the separator of the DynamoDB keys, `/`, or anything a URL must escape.
 */

/** Ids the platform mints (tables, shoes, rounds): `<prefix>_<time-ordered base32>`, e.g. `rnd_01j…`. */
export const RESOURCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Player ids are the operator's own: also `.` and `:`. */
export const PLAYER_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;
/** Operator ids (tenants): 2-63 of a-z, 0-9 and `-`, not starting with `-`. */
export const OPERATOR_ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;

/** In words, for error messages. */
export const ID_GRAMMAR = {
  resource: '1-64 of ASCII letters (A-Z, a-z), digits, "_" and "-"',
  player: '1-64 of ASCII letters (A-Z, a-z: no accents, no ñ), digits, ".", "_", ":" and "-"',
  operator: '2-63 of a-z, 0-9 and "-", not starting with "-"',
} as const;

export const ResourceId = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .regex(RESOURCE_ID_PATTERN, ID_GRAMMAR.resource)
    .meta({
      description: `An id the platform minted: ${ID_GRAMMAR.resource}.`,
      example: 'rnd_01jd8x4k2m9q7w3e5r6t8y0u1i',
    }),
);

export const PlayerId = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .regex(PLAYER_ID_PATTERN, ID_GRAMMAR.player)
    .meta({
      id: 'PlayerId',
      description: `The operator's id for the player: ${ID_GRAMMAR.player}.`,
      example: 'player-1',
    }),
);

export const OperatorId = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .regex(OPERATOR_ID_PATTERN, ID_GRAMMAR.operator)
    .meta({
      id: 'OperatorId',
      description: `An operator (tenant): ${ID_GRAMMAR.operator}.`,
      example: 'acme',
    }),
);
