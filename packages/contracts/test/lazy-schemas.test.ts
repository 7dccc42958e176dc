/**
 * Schemas are built on first use (packages/engine/src/lazily.ts): loading the contracts, the table
 * configuration and the proof formats builds none, and building one endpoint's contract builds what
 * that endpoint reaches, not the others' (what keeps a Lambda bundle's import near the bare DynamoDB
 * client's, docs/benchmarks.md). A schema declared the eager way (`export const X = z.object(…)`)
 * fails the first test.
 */
import * as contracts from '@pyb/contracts';
import * as engine from '@pyb/engine';
import * as fairness from '@pyb/fairness';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';

/** The component ids registered so far: every `meta({ id })` of a built schema. */
const builtIds = () => [...(z.globalRegistry as unknown as { _idmap: Map<string, unknown> })._idmap.keys()];

describe('schemas built on first use', () => {
  it('loading @pyb/contracts, @pyb/engine and @pyb/fairness builds no schema; they export builders', () => {
    expect(builtIds()).toEqual([]);
    for (const [name, value] of [
      ...Object.entries(contracts),
      ...Object.entries(engine),
      ...Object.entries(fairness),
    ]) {
      expect([name, value instanceof z.ZodType]).toEqual([name, false]);
    }
  });

  it("an endpoint's first use builds its own schemas, once", () => {
    const { params, response } = contracts.ENDPOINTS['get-wallet'];
    const wallet = response();
    expect(params().safeParse({ playerId: 'p-1' }).success).toBe(true);
    expect(response()).toBe(wallet);
    expect(builtIds()).toContain('Wallet');
    expect(builtIds()).not.toContain('Round');
    expect(builtIds()).not.toContain('ShoeProof');
    contracts.ENDPOINTS['get-round'].response();
    expect(builtIds()).toContain('Round');
  });
});
