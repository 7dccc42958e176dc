/**
 * Picks the adapter from the environment:
 *   BEACON=drand  -> drand quicknet over its HTTP relays (DRAND_RELAYS: comma-separated, optional)
 *   BEACON=local  -> LocalBeacon in LOCAL_BEACON_DIR (default: <LOCAL_KEYS_DIR>/beacon, or .data/beacon),
 *                    LOCAL_BEACON_PERIOD seconds between rounds (default 3)
 *   unset         -> drand when KEY_SERVICE=kms (a deployment), else local.
 */
import { join } from 'node:path';
import type { Beacon } from '@pyb/core';
import { DRAND_RELAYS, HttpBeacon } from './http';
import { LocalBeacon } from './local';

export function createBeacon(env: Record<string, string | undefined> = process.env): Beacon {
  const kind = env.BEACON ?? (env.KEY_SERVICE === 'kms' || env.SEED_KEY_ID ? 'drand' : 'local');
  if (kind === 'drand') {
    const relays = env.DRAND_RELAYS?.split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    return new HttpBeacon({ relays: relays && relays.length > 0 ? relays : DRAND_RELAYS });
  }
  // A Lambda bundle holds no local beacon (infra/src/esbuild-options.ts, LAMBDA_BUNDLE_DEFINE).
  if (kind === 'local' && process.env.PYB_LAMBDA_BUNDLE !== '1') {
    return new LocalBeacon({
      dir: env.LOCAL_BEACON_DIR ?? (env.LOCAL_KEYS_DIR ? join(env.LOCAL_KEYS_DIR, 'beacon') : '.data/beacon'),
      ...(env.LOCAL_BEACON_PERIOD ? { period: Number(env.LOCAL_BEACON_PERIOD) } : {}),
      ...(env.STAGE ? { stage: env.STAGE } : {}),
      env,
    });
  }
  if (kind === 'local') throw new Error('the local beacon is for development only: set BEACON=drand');
  throw new Error(`BEACON must be drand or local, got ${kind}`);
}
