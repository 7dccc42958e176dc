import type { ProblemCode } from '@pyb/contracts';
import { DomainError } from './errors';

/** The domain errors a use case throws most, by kind (the HTTP edge maps each kind to a status). */
export const invalid = (code: ProblemCode, message: string, details?: Record<string, unknown>): DomainError =>
  new DomainError('INVALID', code, message, details);

export const conflict = (code: ProblemCode, message: string): DomainError =>
  new DomainError('CONFLICT', code, message);

/** Not now, later: the HTTP edge answers 503 with Retry-After. */
export const unavailable = (code: ProblemCode, message: string, retryAfterSeconds: number): DomainError =>
  new DomainError('UNAVAILABLE', code, message, { retryAfterSeconds });

/** A shoe given up after its chain broke at close: never closed, revealed or verified. */
export const shoeAbandoned = (shoe: {
  shoeId: string;
  abandoned?: { at: string; reason: string };
}): DomainError =>
  new DomainError(
    'CONFLICT',
    'SHOE_ABANDONED',
    `shoe ${shoe.shoeId} was abandoned${shoe.abandoned ? ` at ${shoe.abandoned.at} (${shoe.abandoned.reason})` : ''}: its audit chain broke at close, so it is never revealed or verified`,
    shoe.abandoned ? { abandoned: { at: shoe.abandoned.at, reason: shoe.abandoned.reason } } : undefined,
  );
