import type { TimeStamper } from '@pyb/core';
import { headAnchors, MerkleStamper, timerScheduler } from '@pyb/timestamp';
import { timeStampConfigFromEnv } from '@pyb/timestamp/config';
import type { AppContext } from './context';

/**
 * The time-stamp authorities of the container (docs/time-stamps.md, docs/deploy.md), built on first
 * use from the context's environment: TSA_URLS, TSA_CERTS (the pins, one PEM file per URL),
 * TSA_TIMEOUT_MS, TSA_WINDOW_MS (@pyb/timestamp/config). A missing or inconsistent setting fails the
 * first close of betting, never silently: a head naming a beacon round is never left unanchored.
 * The functions that sign such a head (open-round, close-betting, resolve-round, void-round,
 * cadence-step) use it; every other function that signs uses `rotationStamperOf`. The dev stack points TSA_URLS at its local TSA (tools/dev, .data/tsa).
 */
export function timeStamperOf(context: AppContext): TimeStamper {
  if (!context.timeStamper) {
    const { authorities, windowMs } = timeStampConfigFromEnv(context.env);
    // One stamper per container: every head of a window (across tables) under one root and token.
    context.timeStamper = headAnchors(
      new MerkleStamper({ authorities, scheduler: timerScheduler, windowMs }),
      authorities,
    );
  }
  return context.timeStamper;
}

/**
 * For a function that signs but anchors no head (open-shoe, contribute-seed, close-shoe, settle-batch,
 * cadence-open-shoe): its only time-stamp is a rotation's, when it is the first to sign with a new key
 * generation (@pyb/core shoes/signing.ts). Built at that first stamp, so a stage whose TSAs are not
 * set fails there (SIGNING_KEY_UNCERTIFIED, saying what is missing), not at every call.
 */
export const rotationStamperOf = (context: AppContext): TimeStamper => ({
  anchor: async (digest) => timeStamperOf(context).anchor(digest),
});

/**
 * The TSAs and their certificates, as GET /v1/signing-key publishes them for verifiers to pin; none
 * when this deployment names no TSA yet (the signing key is still served: a close of betting is what
 * refuses to go on unanchored).
 */
export function timeStampPinsOf(context: AppContext): { tsa: string; certificates: string[] }[] {
  try {
    return (timeStamperOf(context).authorities?.() ?? []).map((a) => ({
      tsa: a.tsa,
      certificates: [...a.certificates],
    }));
  } catch {
    return [];
  }
}
