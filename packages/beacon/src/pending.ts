import type { BeaconAnswer, Clock } from '@pyb/core';
import { type BeaconNetwork, roundTime } from '@pyb/fairness';

/** PENDING until the round's publication time on `clock`; undefined once it has come. */
export function notYet(network: BeaconNetwork, round: number, clock: Clock): BeaconAnswer | undefined {
  const due = roundTime(network, round) * 1000;
  const now = clock.now().getTime();
  if (now >= due) return undefined;
  return {
    status: 'PENDING',
    retryAfterSeconds: Math.max(1, Math.ceil((due - now) / 1000)),
    reason: `round ${round} is published at ${new Date(due).toISOString()}`,
  };
}
