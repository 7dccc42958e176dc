import { createBeacon } from '@pyb/beacon';
import type { Beacon } from '@pyb/core';
import type { AppContext } from './context';

/**
 * The randomness beacon of the container (drand over HTTP on AWS, the local beacon in dev), built on
 * first use from the context's environment: BEACON, DRAND_RELAYS, LOCAL_BEACON_DIR,
 * LOCAL_BEACON_PERIOD (@pyb/beacon). Only the functions that name a beacon network (open-shoe) or
 * wait for a round (resolve-round) import this module.
 */
export function beaconOf(context: AppContext): Beacon {
  context.beacon ??= createBeacon(context.env);
  return context.beacon;
}
