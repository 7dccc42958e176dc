/**
 * PYB_TEST_SEQUENCE_SEED (vitest.config.ts; docs/testing.md, "Order and load"): a run shuffled with
 * the seed says so at its start and gives the same order for the same seed; anything but an integer
 * is refused before a test runs.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const vitest = (seed: string) =>
  promisify(execFile)(
    join(root, 'node_modules', '.bin', 'vitest'),
    ['run', '--project', 'fast', '--reporter=verbose', 'packages/engine/test/cards.test.ts'],
    { cwd: root, env: { ...process.env, PYB_TEST_SEQUENCE_SEED: seed, NO_COLOR: '1' } },
  );
/** The tests in the order they ran. */
const order = (stdout: string) => stdout.split('\n').filter((l) => l.includes('✓') && l.includes(' > '));

describe('PYB_TEST_SEQUENCE_SEED', () => {
  it('shuffles with that seed, prints it; the same seed gives the same order, another another', async () => {
    const first = await vitest('5');
    expect(first.stdout).toContain('Running tests with seed "5"');
    const again = await vitest('5');
    expect(order(again.stdout).map((l) => l.replace(/ \d+ms$/, ''))).toEqual(
      order(first.stdout).map((l) => l.replace(/ \d+ms$/, '')),
    );
    expect(order(first.stdout).length).toBeGreaterThan(3);
    // Another seed, another order (for these two seeds and this file: the shuffle is deterministic).
    const other = await vitest('6');
    expect(order(other.stdout).map((l) => l.replace(/ \d+ms$/, ''))).not.toEqual(
      order(first.stdout).map((l) => l.replace(/ \d+ms$/, '')),
    );
  });

  it('refuses a seed that is not an integer', async () => {
    const failed = await vitest('abc').catch(
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect((failed as { code?: number }).code).not.toBe(0);
    expect(`${failed.stdout}${failed.stderr}`).toContain(
      'PYB_TEST_SEQUENCE_SEED must be an integer (got "abc")',
    );
  });
});
