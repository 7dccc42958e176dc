/**
 * The Beacon port on drand's HTTP relays (https://drand.love/docs/http-api-reference/): round r of the
 * chain is GET <relay>/<chainHash>/public/<r>, answering { round, randomness, signature }. A round
 * whose time has not come is not asked for (a relay could only say "not yet"); a relay that fails,
 * times out, answers late (404/425) or answers something else is skipped for the next one; if none
 * has it, the round is PENDING and the caller asks again. No rule here: the core verifies every
 * signature before it uses a round.
 */

import type { Beacon, BeaconAnswer, Clock } from '@pyb/core';
import { type BeaconNetwork, QUICKNET } from '@pyb/fairness';
import { notYet } from './pending';

/** The League of Entropy's public relays, in the order they are tried. */
export const DRAND_RELAYS: readonly string[] = [
  'https://api.drand.sh',
  'https://api2.drand.sh',
  'https://api3.drand.sh',
  'https://drand.cloudflare.com',
];

export type Fetch = (
  url: string,
  init: { signal: AbortSignal; headers: Record<string, string> },
) => Promise<{
  status: number;
  json(): Promise<unknown>;
}>;

export interface HttpBeaconOptions {
  network?: BeaconNetwork;
  relays?: readonly string[];
  /** Injected in tests; the global fetch otherwise. */
  fetch?: Fetch;
  clock?: Clock;
  /** Per relay. Default 2000 ms. */
  timeoutMs?: number;
}

const SIGNATURE = /^[0-9a-f]{96}$/;

export class HttpBeacon implements Beacon {
  private readonly net: BeaconNetwork;
  private readonly relays: readonly string[];
  private readonly fetch: Fetch;
  private readonly clock: Clock;
  private readonly timeoutMs: number;

  constructor(options: HttpBeaconOptions = {}) {
    this.net = options.network ?? QUICKNET;
    this.relays = options.relays ?? DRAND_RELAYS;
    this.fetch = options.fetch ?? (globalThis.fetch as unknown as Fetch);
    this.clock = options.clock ?? { now: () => new Date() };
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  async network(): Promise<BeaconNetwork> {
    return this.net;
  }

  /** The URL of round `round` at `relay`. */
  url(relay: string, round: number): string {
    return `${relay.replace(/\/+$/, '')}/${this.net.chainHash}/public/${round}`;
  }

  async round(round: number): Promise<BeaconAnswer> {
    const early = notYet(this.net, round, this.clock);
    if (early) return early;
    const failures: string[] = [];
    for (const relay of this.relays) {
      const url = this.url(relay, round);
      try {
        const response = await this.fetch(url, {
          signal: AbortSignal.timeout(this.timeoutMs),
          headers: { accept: 'application/json' },
        });
        if (response.status !== 200) {
          failures.push(`${relay}: HTTP ${response.status}`);
          continue;
        }
        const body = (await response.json()) as { round?: unknown; signature?: unknown };
        if (body.round !== round || typeof body.signature !== 'string' || !SIGNATURE.test(body.signature)) {
          failures.push(`${relay}: not round ${round} of this chain`);
          continue;
        }
        return { status: 'PUBLISHED', round: { round, signature: body.signature } };
      } catch (error) {
        failures.push(
          `${relay}: ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}`,
        );
      }
    }
    return {
      status: 'PENDING',
      retryAfterSeconds: this.net.period,
      reason: `no relay served round ${round} yet (${failures.join('; ')})`,
    };
  }
}
