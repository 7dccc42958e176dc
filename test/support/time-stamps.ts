/**
 * The time-stamp authority of the tests: a local TSA (its own key, a self-signed TSA certificate) on
 * the stack's clock, behind the same adapter as a deployment's (`headAnchors` over a MerkleStamper),
 * windows flushed at once (no real timer). `down` makes it fail like a TSA that does not answer, so a
 * test can show what a close does then; `pem` is the certificate a verifier pins (--trust-tsa).
 */
import type { Clock, TimeStamper } from '@pyb/core';
import {
  headAnchors,
  LocalTimeStampAuthority,
  MerkleStamper,
  type Scheduler,
  TimeStampError,
} from '@pyb/timestamp';

export interface TestTimeStamps {
  timeStamper: TimeStamper;
  authority: LocalTimeStampAuthority;
  /** The TSA's certificate: what `baccarat verify --trust-tsa` pins. */
  pem: string;
  /** While true, the TSA answers nothing (TSA_UNREACHABLE): every stamp is TSA_UNAVAILABLE. */
  down: boolean;
}

/** Runs a window's flush on the next microtask: no real time passes, the order stays deterministic. */
const atOnce: Scheduler = {
  schedule(_delayMs, run) {
    let cancelled = false;
    queueMicrotask(() => {
      if (!cancelled) run();
    });
    return {
      cancel: () => {
        cancelled = true;
      },
    };
  },
};

export async function testTimeStamps(clock: Clock, name = 'test TSA'): Promise<TestTimeStamps> {
  const authority = await LocalTimeStampAuthority.create({ name, clock });
  const state: TestTimeStamps = {
    timeStamper: undefined as unknown as TimeStamper,
    authority,
    pem: authority.certificatePem(),
    down: false,
  };
  const switchable = {
    name,
    stamp: (imprint: Uint8Array) =>
      state.down
        ? Promise.reject(new TimeStampError('TSA_UNREACHABLE', `${name} is down (test)`))
        : authority.stamp(imprint),
  };
  const authorities = [{ authority: switchable, trusted: [state.pem] }];
  const stamper = new MerkleStamper({ authorities, scheduler: atOnce, windowMs: 0 });
  state.timeStamper = headAnchors(stamper, authorities);
  return state;
}
