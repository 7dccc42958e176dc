/**
 * The curves are loaded on first use, not when the package loads: P-256 on the first ECDSA signature
 * check (packages/fairness/src/signature.ts `p256`), BLS12-381 on the first beacon verification
 * (beacon.ts `bls`). Parsing P-256's code (38 KiB) and computing BLS12-381's fields were part of every
 * Lambda bundle's import that holds the verifier (docs/benchmarks.md, "Lambda bundles"). A static
 * import of either curve anywhere in the package fails the first expectation.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const TSX = join(import.meta.dirname, '../../../node_modules/.bin/tsx');

interface Probe {
  afterLoad: string[];
  p256: { good: boolean; bad: boolean };
  afterP256: string[];
  beacon: boolean;
  afterBeacon: string[];
}

const named = (urls: string[], file: string) => urls.filter((u) => u.endsWith(`/@noble/curves/${file}`));

describe('the curves, loaded on first use', () => {
  let probe: Probe;
  beforeAll(async () => {
    // A fresh process: this tier shares one module graph between test files (vitest.config.ts).
    const { stdout } = await run(TSX, [join(import.meta.dirname, 'curve-probe.ts')], {
      cwd: import.meta.dirname,
    });
    probe = JSON.parse(stdout) as Probe;
  });

  it('loading @pyb/fairness loads no curve', () => {
    expect(probe.afterLoad).toEqual([]);
  });

  it('the first ECDSA check loads P-256 (not BLS12-381), accepts the real signature and refuses it on altered bytes', () => {
    expect(probe.p256).toEqual({ good: true, bad: false });
    expect(named(probe.afterP256, 'nist.js')).toHaveLength(1);
    expect(probe.afterP256.filter((u) => u.includes('bls12-381'))).toEqual([]);
  });

  it('the first beacon verification loads BLS12-381 and verifies a published round', () => {
    expect(probe.beacon).toBe(true);
    expect(named(probe.afterBeacon, 'bls12-381.js')).toHaveLength(1);
  });
});
