/**
 * Every refusal of a use case is a DomainError with a stable, documented `code` (SCREAMING_SNAKE) and
 * a `kind` that the HTTP edge maps to a status: NOT_FOUND 404, FORBIDDEN 403, INVALID 400,
 * CONFLICT 409, UNPROCESSABLE 422, INSUFFICIENT_FUNDS 422 (as a distinct code).
 */
export type ErrorKind =
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'INVALID'
  | 'CONFLICT'
  | 'UNPROCESSABLE'
  | 'INSUFFICIENT_FUNDS';

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (what: string, id: string): DomainError =>
  new DomainError('NOT_FOUND', `${what.toUpperCase()}_NOT_FOUND`, `${what} ${id} not found`);
