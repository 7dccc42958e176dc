import type { Clock } from '@pyb/core';

/**
 * Real time plus every wait asked of it: `sleep` moves the clock forward instead of waiting. The
 * tests give it to the core and to the local beacon together, so a first coup "waits" for its beacon
 * round without real time passing, and every recorded time stays consistent (a round is recorded
 * after it was published, on this clock) — what the verifier checks.
 */
export function skippingClock(): Clock {
  let skipped = 0;
  return {
    now: () => new Date(Date.now() + skipped),
    sleep: async (ms) => {
      skipped += ms;
    },
  };
}
