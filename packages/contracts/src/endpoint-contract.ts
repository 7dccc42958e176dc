import type * as z from 'zod';
import type { ProblemCode } from './problems';

/**
 * The HTTP contract of one endpoint: what its handler validates (request and response) and what the
 * OpenAPI document says of it, so the two cannot drift. Each endpoint's contract is an export of its
 * own, `<endpoint>Contract` in `endpoints/<tag>.ts` (e.g. `getWalletContract`, endpoints/wallets.ts):
 * a handler imports its own and nothing of the others, so its bundle holds only its own endpoint's
 * schema builders. The registry of them all, keyed by handler name (`ENDPOINTS`,
 * `@pyb/contracts/endpoints`), is for the OpenAPI document and the tests.
 */
export interface EndpointContract {
  summary: string;
  description: string;
  tag: Tag;
  /**
   * The codes the use case can answer with besides the ones the HTTP layer adds to every route of its
   * kind (HTTP_PROBLEMS): the document lists them per status, and the e2e validator holds the API to it.
   */
  problems: readonly ProblemCode[];
  /**
   * The schemas, as their `lazily` builders (packages/engine/src/lazily.ts): a handler builds its own
   * endpoint's schemas on its first request, never another endpoint's.
   */
  params?: () => z.ZodObject;
  query?: () => z.ZodObject;
  /** POST bodies. When every field is optional, an absent body counts as `{}`. */
  body?: () => z.ZodType;
  response: () => z.ZodType;
  /**
   * Set when the success answer is not JSON: the media types it may have (the use case returns
   * `{ contentType, body }`, the HTTP layer sends the body as it is). Errors stay problem+json.
   */
  media?: readonly string[];
  /** The success status: 201 when the POST creates a resource. */
  status: 200 | 201;
}

/** Groups of endpoints in the document (and in docs/api.md); one `endpoints/<tag>.ts` module each. */
export const TAGS = {
  Tables: 'Tables and their results panel (scoreboard).',
  Shoes: 'Provably fair shoes: commitment before any bet, seed revealed at close.',
  Rounds: 'Rounds (coups): open, bets, "no va más" and settlement, void.',
  Wallets: 'Wallets and their ledgers, in integer minor units.',
  Regulators: 'Round replay, game recall and the audit export (docs/regulators.md).',
  Keys: 'The public keys that sign shoe statements and audit heads.',
  Sessions:
    "Players' own tokens: the launch URL, the browser's access and refresh tokens, logout, revocation.",
  Operators: "An operator's wallet mode (hosted or seamless), set by platform-admin keys.",
  Meta: 'This API described.',
} as const;
export type Tag = keyof typeof TAGS;

/** A body schema that every field of which is optional accepts "no body" as `{}`. */
export const acceptsEmptyBody = (schema: (() => z.ZodType) | undefined): boolean =>
  schema === undefined || schema().safeParse({}).success;
