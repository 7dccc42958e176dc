/**
 * scripts/ci-soak on a command that only reports what it was given (docs/testing.md, "Soak"): each
 * run is a fresh clone of this commit, with its own order seed and clock start, and the table says
 * which runs passed and which tests failed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'pyb-soak-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/ci-soak', () => {
  it('runs the command in N fresh clones, each with its seed and clock start, and tabulates the results', async () => {
    // The second run fails the way vitest reports a failed test.
    const command = [
      'git rev-parse HEAD > commit',
      'echo "seed=$PYB_TEST_SEQUENCE_SEED clock=$PYB_CLOCK_START"',
      '[ "$PYB_TEST_SEQUENCE_SEED" = 41 ] || { echo " FAIL   fast  test/x.test.ts > a > b"; exit 1; }',
    ].join('; ');
    const out = join(dir, 'soak.md');
    const run = await promisify(execFile)('bash', ['scripts/ci-soak', '2'], {
      cwd: root,
      env: {
        ...process.env,
        SOAK_COMMAND: command,
        SOAK_SEED: '41',
        SOAK_CLOCK_STARTS: 'real 2026-12-31T23:59:50Z',
        SOAK_OUT: out,
        SOAK_CLONES: join(dir, 'clone'),
        SOAK_KEEP: '1',
      },
    }).catch((error: { code: number; stdout: string }) => error);
    expect((run as { code?: number }).code).toBe(1);
    const table = readFileSync(out, 'utf8');
    expect(run.stdout).toBe(table);
    const rows = table.split('\n').filter((l) => /^\| \d/.test(l));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^\| 1 \| real \| 41 \| pass \| — \| 0 min \d+ s \|$/);
    expect(rows[1]).toMatch(
      /^\| 2 \| 2026-12-31T23:59:50Z \| 42 \| fail \(exit 1\) \| fast test\/x\.test\.ts > a > b \| 0 min \d+ s \|$/,
    );
    expect(readFileSync(join(dir, 'soak', 'run-2.log'), 'utf8')).toContain(
      'seed=42 clock=2026-12-31T23:59:50Z',
    );
    // Each run was a clone of this commit.
    const head = (await promisify(execFile)('git', ['rev-parse', 'HEAD'], { cwd: root })).stdout;
    for (const k of [1, 2]) expect(readFileSync(join(dir, `clone-${k}`, 'commit'), 'utf8')).toBe(head);
    expect(existsSync(join(dir, 'clone-1', '.git'))).toBe(true);
  });
});
