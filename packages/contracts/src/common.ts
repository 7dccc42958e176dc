import {
  BET_TYPES,
  type BetType as EngineBetType,
  lazily,
  SIDE_BET_TYPES,
  type SideBetType,
} from '@pyb/engine';
import { clientSeedProblem, textProblem } from '@pyb/fairness';
import * as z from 'zod';
import { ISO_4217, isCurrency } from './currencies';
import { PROBLEM_CODES } from './problems';

/**
 * Building blocks shared by every endpoint's schemas. Component names (`meta({ id })`) are what the
 * OpenAPI document calls them; keep them stable, clients generate code from them.
 */

/** What a refused amount's error says: minor units, with an example (a client sending 10.50 meant 1050). */
const MINOR_UNITS = 'an integer number of minor units (cents): 10.50 EUR is 1050';

/** An amount of money in integer minor units (cents). Safe integers only: anything else is a 400. */
export const Amount = /* @__PURE__ */ lazily(() =>
  z
    .int(MINOR_UNITS)
    .min(1, `${MINOR_UNITS}, at least 1`)
    .max(Number.MAX_SAFE_INTEGER, `${MINOR_UNITS}, at most ${Number.MAX_SAFE_INTEGER}`)
    .meta({
      id: 'Amount',
      description: 'Integer minor units (e.g. cents), > 0, a safe integer.',
      example: 500,
    }),
);

/** A balance or signed movement in minor units (may be zero; never fractional). */
export const MinorUnits = /* @__PURE__ */ lazily(() =>
  z.int(MINOR_UNITS).meta({ description: 'Integer minor units.', example: 10000 }),
);

/** Typed as a string (stored records hold strings); the document lists the codes as its enum. */
export const Currency = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .refine((code): boolean => isCurrency(code), 'an ISO 4217 currency code, e.g. EUR')
    .meta({
      id: 'Currency',
      description: 'An ISO 4217 currency code.',
      enum: [...ISO_4217],
      example: 'EUR',
    } as Record<string, unknown>),
);

/**
 * Free text the platform stores (a note, a reference, a name): at most `max` UTF-16 units of
 * well-formed Unicode without control or bidi-formatting characters (@pyb/fairness textProblem).
 */
export const FreeText = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((text, ctx) => {
      const problem = textProblem(text);
      if (problem) ctx.addIssue({ code: 'custom', message: `the text ${problem}` });
    })
    .meta({
      description: `At most ${max} characters of well-formed Unicode; no control or bidirectional-formatting character.`,
    });

/** The client seed: 1-256 UTF-8 bytes of clean text (docs/provably-fair.md §5; @pyb/fairness). */
export const ClientSeed = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .superRefine((seed, ctx) => {
      const problem = clientSeedProblem(seed);
      if (problem) ctx.addIssue({ code: 'custom', message: `the client seed ${problem}` });
    })
    .meta({
      id: 'ClientSeed',
      description:
        '1-256 UTF-8 bytes of well-formed Unicode, no control or bidirectional-formatting character. Fixed after the commitment is published, before the first card.',
      example: 'ñandú 🂡',
    }),
);

/**
 * An integer in a query string: decimal digits only (`1e2`, `0x10`, ` 5`, `5.0`, `+5` are refused), within
 * [min, max]; the document shows it as an integer with its bounds and default.
 */
export const QueryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^[0-9]{1,16}$/, 'a decimal integer')
    .transform(Number)
    .pipe(z.int().min(min).max(max))
    .optional()
    .meta({
      type: 'integer',
      minimum: min,
      maximum: max,
      default: fallback,
      description: `${min}-${max}, default ${fallback}.`,
    } as Record<string, unknown>);

export const Timestamp = /* @__PURE__ */ lazily(() =>
  z.iso.datetime().meta({ description: 'ISO 8601, UTC', example: '2025-01-01T12:00:00.000Z' }),
);

/** The engine's bet types (`BET_TYPES`): the one list. */
export const BetType = /* @__PURE__ */ lazily(() =>
  z.enum(BET_TYPES as readonly EngineBetType[] as [EngineBetType, ...EngineBetType[]]).meta({
    id: 'BetType',
    description:
      'PLAYER = Punto, BANKER = Banca, TIE = Empate, the pair side bets, and the side bets a table offers ' +
      'in its configuration (docs/rules.md).',
  }),
);

/** Bets a table's availability may switch off one by one: the pairs and the side bets (not Punto, Banca, Empate). */
export const OPTIONAL_BET_TYPES = [
  'PLAYER_PAIR',
  'BANKER_PAIR',
  ...(SIDE_BET_TYPES as readonly SideBetType[]),
] as ['PLAYER_PAIR', 'BANKER_PAIR', ...SideBetType[]];

export const OptionalBetType = /* @__PURE__ */ lazily(() =>
  z.enum(OPTIONAL_BET_TYPES).meta({
    id: 'OptionalBetType',
    description: 'A pair bet or a side bet (Punto, Banca and Empate are the table itself).',
  }),
);

/** Card in notation: rank A,2..9,T,J,Q,K then suit S,H,D,C (e.g. `AS`, `TD`, `KH`). */
export const Card = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .regex(/^[A2-9TJQK][SHDC]$/)
    .meta({ id: 'Card', example: 'KH' }),
);

/** An empty JSON object: POSTs that need no input still take `{}` (or no body at all). */
export const EmptyBody = /* @__PURE__ */ lazily(() => z.strictObject({}).meta({ id: 'EmptyBody' }));

/** A field-level validation failure inside a problem. */
export const FieldError = /* @__PURE__ */ lazily(() =>
  z
    .object({
      in: z.enum(['body', 'path', 'query', 'header']),
      path: z.string().meta({ description: 'Dotted path to the offending field, e.g. `bets.0.amount`.' }),
      code: z.string(),
      message: z.string(),
    })
    .meta({ id: 'FieldError' }),
);
export type FieldError = z.infer<ReturnType<typeof FieldError>>;

/** RFC 9457 problem details, with our stable `code` (the registry of problems.ts; docs/api.md lists them). */
export const Problem = /* @__PURE__ */ lazily(() =>
  z
    .object({
      type: z
        .string()
        .meta({ description: '`urn:pyb:problem:<code>`', example: 'urn:pyb:problem:ROUND_NOT_FOUND' }),
      title: z.string(),
      status: z.int().min(400).max(599),
      detail: z.string(),
      instance: z.string().meta({ description: 'The request path and the request id.' }),
      code: z.enum(PROBLEM_CODES).meta({
        description:
          'Stable, SCREAMING_SNAKE; what clients branch on. Each operation lists the codes it can answer per status.',
      }),
      requestId: z.string(),
      errors: z.array(FieldError()).optional().meta({ description: 'Validation failures, field by field.' }),
      details: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: 'Facts about the refusal, e.g. the limit a bet broke.' }),
    })
    .meta({ id: 'Problem' }),
);
export type Problem = z.infer<ReturnType<typeof Problem>>;

/** The default and the largest page of a list (ledger). */
export const PAGE_DEFAULT_LIMIT = 50;
export const PAGE_MAX_LIMIT = 100;

export const Cursor = /* @__PURE__ */ lazily(() =>
  z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[A-Za-z0-9_.-]+$/, 'a cursor as a previous page gave it')
    .meta({ description: 'Opaque: the `nextCursor` of the previous page, as it came.' }),
);

export const Pagination = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    limit: QueryInt(1, PAGE_MAX_LIMIT, PAGE_DEFAULT_LIMIT),
    cursor: Cursor().optional(),
  }),
);
