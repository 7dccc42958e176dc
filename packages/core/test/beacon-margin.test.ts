/**
 * The margin between the close of contributions and the beacon round (F7): the core refuses to start
 * with less than 5 s, so no shoe it opens names a margin every verifier refuses (`statement.margin`).
 */
import { describe, expect, it } from 'vitest';
import { context } from '../src/shared/context';
import type { Store } from '../src/shared/ports/store';

const deps = (beaconMarginSeconds?: number) => ({
  store: {} as Store,
  keys: {} as never,
  ...(beaconMarginSeconds !== undefined && { beaconMarginSeconds }),
});

describe('BEACON_MARGIN_SECONDS', () => {
  it('defaults to 5 s and takes more', () => {
    expect(context(deps()).beaconMarginSeconds).toBe(5);
    expect(context(deps(5)).beaconMarginSeconds).toBe(5);
    expect(context(deps(30)).beaconMarginSeconds).toBe(30);
  });

  it('refuses less than 5 s, or not a whole number of seconds, at start, saying why', () => {
    for (const margin of [0, 1, 4, 4.5, 5.5, Number.NaN]) {
      expect(() => context(deps(margin)), String(margin)).toThrow(
        /BEACON_MARGIN_SECONDS is .*: the margin between the close of contributions and the beacon round must be a whole number of seconds, at least 5/,
      );
    }
  });
});
