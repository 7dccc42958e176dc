/**
 * What a regulator sees of a round (replay, game recall): every step with the rule behind it, every
 * bet and the money it moved, and a verification block saying which checks passed, which failed and
 * why, and which must wait for the shoe's seed to be revealed. The shapes are the HTTP contract's
 * (@pyb/contracts replay.ts): defined there once, typed here from it.
 */
import type * as C from '@pyb/contracts';
import type * as z from 'zod';

/** PENDING_REVEAL: needs the server seed, published when the shoe is closed. */
export type CheckStatus = z.output<ReturnType<typeof C.CheckStatus>>;
export type ReplayProblem = z.output<ReturnType<typeof C.ReplayProblem>>;
export type ReplayCheck = z.output<ReturnType<typeof C.ReplayCheck>>;
export type RoundVerification = z.output<ReturnType<typeof C.RoundVerification>>;
export type ReplayShoe = z.output<ReturnType<typeof C.ReplayShoe>>;
export type ReplayStep = z.output<ReturnType<typeof C.ReplayStep>>;
export type ReplayCoup = z.output<ReturnType<typeof C.ReplayCoup>>;
export type ReplayBet = z.output<ReturnType<typeof C.ReplayBet>>;
export type ReplayMovement = z.output<ReturnType<typeof C.ReplayMovement>>;
export type ReplayPosition = z.output<ReturnType<typeof C.ReplayPosition>>;
export type ReplayEvent = z.output<ReturnType<typeof C.ReplayEvent>>;
export type RoundReplay = z.output<ReturnType<typeof C.RoundReplay>>;
export type PlayerRecall = z.output<ReturnType<typeof C.PlayerRecall>>;

export interface PlayerRecallQuery {
  playerId: string;
  /** Regulators name the supervised operator; others default to their own. */
  operatorId?: string;
  cursor?: string;
  /** 1..50, default 10. */
  limit?: number;
}
