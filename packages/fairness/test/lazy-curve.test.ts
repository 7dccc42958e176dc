/**
 * The BLS12-381 curve of the beacon is loaded on the first beacon verification, not when the package
 * loads (packages/fairness/src/beacon.ts `bls`): computing its fields took 6–7 ms of every Lambda
 * bundle's import that holds the verifier (docs/benchmarks.md, "Lambda bundles"). A static import of
 * the curve anywhere in the package fails the first expectation.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const TSX = join(import.meta.dirname, '../../../node_modules/.bin/tsx');

describe('the beacon curve, loaded on first use', () => {
  it('loading @pyb/fairness does not load the BLS curve; the first beacon verification does', async () => {
    // A fresh process: this tier shares one module graph between files (vitest.config.ts).
    const { stdout } = await run(TSX, [join(import.meta.dirname, 'curve-probe.ts')], {
      cwd: import.meta.dirname,
    });
    const probe = JSON.parse(stdout) as { afterLoad: string[]; verified: boolean; afterVerify: string[] };
    expect(probe.afterLoad).toEqual([]);
    expect(probe.verified).toBe(true);
    expect(probe.afterVerify).toEqual([expect.stringContaining('@noble/curves/bls12-381.js')]);
  });
});
