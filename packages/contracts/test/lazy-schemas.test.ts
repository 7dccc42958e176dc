/**
 * Schemas are built on first use (packages/engine/src/lazily.ts): loading the contracts, the table
 * configuration and the proof formats builds none, and building one endpoint's contract builds what
 * that endpoint reaches, not the others' (what keeps a Lambda bundle's import near the bare DynamoDB
 * client's, docs/benchmarks.md). A schema declared the eager way (`const X = z.object(…)` at the top
 * of a module) fails the first test.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ENDPOINTS } from '@pyb/contracts/endpoints';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const TSX = join(import.meta.dirname, '../../../node_modules/.bin/tsx');

describe('schemas built on first use', () => {
  it("loading @pyb/contracts, @pyb/engine and @pyb/fairness builds no schema; an endpoint's first use builds its own", async () => {
    // A fresh process: this tier shares one module graph between files (vitest.config.ts).
    const { stdout } = await run(TSX, [join(import.meta.dirname, 'load-probe.ts')], {
      cwd: import.meta.dirname,
    });
    const probe = JSON.parse(stdout) as {
      afterLoad: string[];
      eagerExports: string[];
      afterGetWallet: string[];
    };
    expect(probe.afterLoad).toEqual([]);
    expect(probe.eagerExports).toEqual([]);
    expect(probe.afterGetWallet).toContain('Wallet');
    expect(probe.afterGetWallet).not.toContain('Round');
    expect(probe.afterGetWallet).not.toContain('ShoeProof');
  });

  it('a builder returns the same schema every time (its meta id is its OpenAPI component)', () => {
    const { response } = ENDPOINTS['get-round'];
    expect(response()).toBe(response());
    expect(response().meta()?.id).toBe('Round');
  });
});
