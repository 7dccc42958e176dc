import type { ProblemCode } from '@pyb/contracts';

/**
 * Every refusal of a use case is a DomainError with a stable, documented `code` from the registry of
 * @pyb/contracts (problems.ts) and
 * a `kind` that the HTTP edge maps to a status: NOT_FOUND 404, FORBIDDEN 403, INVALID 400,
 * CONFLICT 409, UNPROCESSABLE 422, INSUFFICIENT_FUNDS 422 (as a distinct code), UNAVAILABLE 503 (try
 * again after `details.retryAfterSeconds`), LOCKED 423 (a person must act first: a locked table).
 */
export type ErrorKind =
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'INVALID'
  | 'CONFLICT'
  | 'UNPROCESSABLE'
  | 'INSUFFICIENT_FUNDS'
  | 'UNAVAILABLE'
  | 'LOCKED';

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly kind: ErrorKind,
    readonly code: ProblemCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const NOT_FOUND = {
  table: 'TABLE_NOT_FOUND',
  shoe: 'SHOE_NOT_FOUND',
  round: 'ROUND_NOT_FOUND',
  wallet: 'WALLET_NOT_FOUND',
  player: 'PLAYER_NOT_FOUND',
  operator: 'OPERATOR_NOT_FOUND',
  signingKey: 'SIGNING_KEY_NOT_FOUND',
  feedFile: 'FEED_FILE_NOT_FOUND',
  seamlessReport: 'SEAMLESS_REPORT_NOT_FOUND',
} as const satisfies Record<string, ProblemCode>;

export type Resource = keyof typeof NOT_FOUND;

/** What to do when it is missing, where there is something to do. */
const NOT_FOUND_HINT: Partial<Record<Resource, (id: string) => string>> = {
  wallet: (id) =>
    `: a hosted wallet is created by its first credit (POST /v1/wallets/${id}/transactions with "type": "CREDIT")`,
};

/** `detail` when the default wording does not read well for the resource. */
export const notFound = (
  what: Resource,
  id: string,
  detail = `${what} ${id} not found${NOT_FOUND_HINT[what]?.(id) ?? ''}`,
): DomainError => new DomainError('NOT_FOUND', NOT_FOUND[what], detail);
