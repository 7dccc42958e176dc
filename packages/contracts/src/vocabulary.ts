import { lazily } from '@pyb/engine';
import { AUDIT_EVENT_TYPES, CONTRIBUTION_KINDS } from '@pyb/fairness';
import * as z from 'zod';

/*
 * The platform's enumerations, defined once. The core's records and use cases, the HTTP handlers, the
 * OpenAPI document and the routes table all take them from here (docs/architecture.md, "One source of
 * truth"). Bet types come from the engine (`BET_TYPES`), see common.ts.
 */

/** API-key roles. */
export const ROLES = ['operator', 'admin', 'regulator'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = /* @__PURE__ */ lazily(() =>
  z.enum(ROLES).meta({ id: 'Role', description: 'The role of an API key: operator, admin or regulator.' }),
);

/** Irregularities (seed 004 §2.7) and operator causes a round can be voided for. */
export const VOID_REASONS = [
  'EXPOSED_CARD',
  'EXTRA_CARDS',
  'MISDEAL',
  'OPERATOR_ERROR',
  'TECHNICAL_FAULT',
] as const;
export type VoidReason = (typeof VOID_REASONS)[number];
export const VoidReason = /* @__PURE__ */ lazily(() =>
  z
    .enum(VOID_REASONS)
    .meta({ id: 'VoidReason', description: 'Irregularities (seed 004) and operator causes.' }),
);

/**
 * A round's state, as stored and as the API shows it:
 * OPEN -> CLOSED ("no va más") -> DEALT (outcome recorded) -> SETTLED, or DEALT -> SETTLING (positions
 * handed to the settlement queue in batches) -> SETTLED;
 * OPEN | CLOSED -> VOIDING (refunds under way, in the request or in batches) -> VOIDED.
 */
export const ROUND_STATUSES = [
  'OPEN',
  'CLOSED',
  'DEALT',
  'SETTLING',
  'SETTLED',
  'VOIDING',
  'VOIDED',
] as const;
export type RoundStatus = (typeof ROUND_STATUSES)[number];
export const RoundStatus = /* @__PURE__ */ lazily(() =>
  z.enum(ROUND_STATUSES).meta({
    id: 'RoundStatus',
    description:
      'OPEN (bets taken) -> CLOSED ("no va más") -> DEALT (outcome recorded; settlement under way: resolve again to finish it) -> SETTLED. A round of many positions goes DEALT -> SETTLING (settled in batches by the settlement queue after the answer: read the round until it is SETTLED; resolve again resumes it after a failure) -> SETTLED. OPEN or CLOSED -> VOIDING (refunds under way, in batches for many positions: void again to finish it) -> VOIDED.',
  }),
);

/**
 * A shoe's state: OPEN (rounds may open), ENDED (the cut card came out), CLOSING, CLOSED (seed
 * revealed), ABANDONED (its audit chain broke at close; an admin gave it up with a reason: it never verifies).
 */
export const SHOE_STATUSES = ['OPEN', 'ENDED', 'CLOSING', 'CLOSED', 'ABANDONED'] as const;
export type ShoeStatus = (typeof SHOE_STATUSES)[number];
export const ShoeStatus = /* @__PURE__ */ lazily(() =>
  z.enum(SHOE_STATUSES).meta({
    id: 'ShoeStatus',
    description:
      'OPEN: rounds may open. ENDED: the cut card came out, no more rounds; close it to reveal the seed. CLOSING: close under way (close again to finish it). CLOSED: seed revealed, audit head signed. ABANDONED: close found its audit chain broken and an admin abandoned it with a reason (POST /v1/shoes/{shoeId}/abandon): never signed, never verified.',
  }),
);

/** Kinds of ledger entries (every balance change is one). */
export const LEDGER_KINDS = [
  'CREDIT',
  'DEBIT',
  'BET',
  'BET_WITHDRAWAL',
  'PAYOUT',
  'REFUND',
  'COMMISSION',
  'RG_SETTINGS',
  'SESSION_END',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const LedgerKind = /* @__PURE__ */ lazily(() =>
  z.enum(LEDGER_KINDS).meta({
    id: 'LedgerKind',
    description:
      'BET_WITHDRAWAL: stake given back when a bet is reduced or withdrawn before "no va más". RG_SETTINGS (amount 0): the operator changed the player\'s responsible-gaming limits or exclusion (`reference` names what changed). SESSION_END (amount 0): the player left a table and his session there ended.',
  }),
);

/** A player's position in a round. */
export const POSITION_STATUSES = ['OPEN', 'SETTLED', 'REFUNDED'] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];
export const PositionStatus = /* @__PURE__ */ lazily(() =>
  z.enum(POSITION_STATUSES).meta({ id: 'PositionStatus' }),
);

/** What a settled bet did. */
export const BET_RESULTS = ['WIN', 'LOSE', 'PUSH'] as const;
export type BetResult = (typeof BET_RESULTS)[number];
export const BetResult = /* @__PURE__ */ lazily(() => z.enum(BET_RESULTS).meta({ id: 'BetResult' }));

/** The events of a shoe's audit chain (docs/provably-fair.md §11; the verifier's list, @pyb/fairness). */
export { AUDIT_EVENT_TYPES };
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
export const AuditEventType = /* @__PURE__ */ lazily(() =>
  z.enum(AUDIT_EVENT_TYPES).meta({ id: 'AuditEventType' }),
);

/** Why a shoe is closed before its cut card came out (recorded in SHOE_CLOSED). */
export const SHOE_CLOSE_REASONS = [
  'END_OF_SESSION',
  'TABLE_CLOSING',
  'CARDS_COMPROMISED',
  'DEALER_ERROR',
  'TECHNICAL_FAULT',
  'REGULATOR_REQUEST',
] as const;
export type ShoeCloseReason = (typeof SHOE_CLOSE_REASONS)[number];
export const ShoeCloseReason = /* @__PURE__ */ lazily(() =>
  z.enum(SHOE_CLOSE_REASONS).meta({
    id: 'ShoeCloseReason',
    description:
      'Why a shoe is closed before its cut card came out (recorded in SHOE_CLOSED; regulators see every early close).',
  }),
);

/** Who gave a seed to a shoe: a player (through the operator's front end) or the operator (its client seed). */
export { CONTRIBUTION_KINDS };
export type ContributionKind = (typeof CONTRIBUTION_KINDS)[number];
export const ContributionKind = /* @__PURE__ */ lazily(() =>
  z.enum(CONTRIBUTION_KINDS).meta({ id: 'ContributionKind' }),
);

/** A hand of the coup, and a winner. */
export const HAND_SIDES = ['PLAYER', 'BANKER'] as const;
export const HandSide = /* @__PURE__ */ lazily(() =>
  z.enum(HAND_SIDES).meta({ id: 'HandSide', description: 'PLAYER = Punto, BANKER = Banca.' }),
);
export const WINNERS = ['PLAYER', 'BANKER', 'TIE'] as const;
export const Winner = /* @__PURE__ */ lazily(() => z.enum(WINNERS).meta({ id: 'Winner' }));
/** A step of the coup: the four first cards, a third card, or a stand decision. */
export const STEP_ACTIONS = ['DEAL', 'DRAW', 'STAND'] as const;
export const StepAction = /* @__PURE__ */ lazily(() => z.enum(STEP_ACTIONS).meta({ id: 'StepAction' }));
