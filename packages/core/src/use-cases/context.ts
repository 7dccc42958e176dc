import {
  ID_GRAMMAR,
  isCurrency,
  PLAYER_ID_PATTERN,
  type ProblemCode,
  RESOURCE_ID_PATTERN,
} from '@pyb/contracts';
import type { TableConfig } from '@pyb/engine';
import { textProblem } from '@pyb/fairness';
import { type Actor, canRead, canWrite } from '../actor';
import { DomainError, notFound, type Resource } from '../errors';
import type { KeyService } from '../ports/key-service';
import { type Clock, type Ids, randomIds, systemClock } from '../ports/runtime';
import type { Store } from '../ports/store';
import { ShoeDecks } from '../shoe-decks';

export interface CoreDeps {
  store: Store;
  keys: KeyService;
  clock?: Clock;
  ids?: Ids;
  /** Positions settled (or refunded) at once when a round is resolved (or voided). Default 8. */
  settleConcurrency?: number;
}

export interface Ctx {
  store: Store;
  keys: KeyService;
  clock: Clock;
  ids: Ids;
  decks: ShoeDecks;
  /** Shoe configurations (fixed for a shoe's life), so a bet does not read the shoe. */
  configs: Map<string, TableConfig>;
  settleConcurrency: number;
  now(): string;
}

export function context(deps: CoreDeps): Ctx {
  const clock = deps.clock ?? systemClock;
  return {
    store: deps.store,
    keys: deps.keys,
    clock,
    ids: deps.ids ?? randomIds,
    decks: new ShoeDecks(deps.keys),
    configs: new Map(),
    settleConcurrency: deps.settleConcurrency ?? 8,
    now: () => clock.now().toISOString(),
  };
}

export type Access = 'read' | 'write';

/** Tenancy: unknown and foreign resources look the same (NOT_FOUND); regulators cannot write. */
export function guard<T extends { operatorId: string }>(
  actor: Actor,
  record: T | undefined,
  what: Resource,
  id: string,
  access: Access,
): T {
  if (!record || !canRead(actor, record.operatorId)) throw notFound(what, id);
  if (access === 'write' && !canWrite(actor, record.operatorId)) {
    throw new DomainError('FORBIDDEN', 'READ_ONLY', `this key may not change ${what} ${id}`);
  }
  return record;
}

/**
 * The operator a wallet call is about: regulators name a supervised one, others act on their own.
 * An operator the key may not read is answered as the thing asked for not being there (`missing`).
 */
export function walletOperator(
  actor: Actor,
  operatorId: string | undefined,
  access: Access,
  missing: { what: Resource; id: string } = { what: 'wallet', id: operatorId ?? actor.operatorId },
): string {
  const op = operatorId ?? actor.operatorId;
  if (!canRead(actor, op)) throw notFound(missing.what, missing.id);
  if (access === 'write' && !canWrite(actor, op)) {
    throw new DomainError('FORBIDDEN', 'READ_ONLY', 'this key may not move money');
  }
  return op;
}

export function requireWriter(actor: Actor): void {
  if (!canWrite(actor, actor.operatorId)) {
    throw new DomainError('FORBIDDEN', 'READ_ONLY', 'this key is read-only');
  }
}

export const invalid = (code: ProblemCode, message: string, details?: Record<string, unknown>): DomainError =>
  new DomainError('INVALID', code, message, details);

export const conflict = (code: ProblemCode, message: string): DomainError =>
  new DomainError('CONFLICT', code, message);

/** An id the platform minted (table, shoe, round): the grammar of @pyb/contracts. */
export function checkId(name: string, value: unknown): string {
  if (typeof value !== 'string' || !RESOURCE_ID_PATTERN.test(value)) {
    throw invalid('INVALID_INPUT', `${name} must be ${ID_GRAMMAR.resource}`);
  }
  return value;
}

/** Free text (a note, a reference, a name): clean, well-formed Unicode (@pyb/fairness textProblem). */
export function checkText(name: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.length > max) {
    throw invalid('INVALID_INPUT', `${name} must be at most ${max} characters`);
  }
  const problem = textProblem(value);
  if (problem) throw invalid('INVALID_INPUT', `${name} ${problem}`);
  return value;
}

/** An ISO 4217 currency code (the list of @pyb/contracts). */
export function checkCurrency(value: unknown): string {
  if (!isCurrency(value)) throw invalid('INVALID_INPUT', 'currency must be an ISO 4217 code such as EUR');
  return value;
}

/** The operator's id for a player: the grammar of @pyb/contracts. */
export function checkPlayerId(value: unknown): string {
  if (typeof value !== 'string' || !PLAYER_ID_PATTERN.test(value)) {
    throw invalid('INVALID_INPUT', `playerId must be ${ID_GRAMMAR.player}`);
  }
  return value;
}

export function checkAmount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw invalid('AMOUNT_INVALID', `${name} must be a positive safe integer (minor units)`);
  }
  return value;
}

export { checkIdempotencyKey, keyReused, requestHash } from '../idempotency/key';
