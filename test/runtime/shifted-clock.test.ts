/**
 * PYB_CLOCK_START (test/setup/clock.ts, test/support/shifted-clock.mjs): where each file's clock
 * starts, that a spawned process reads the same clock, that the clock never runs backwards.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clockStart, nextStart, shiftState } from '../support/shifted-clock.mjs';

const run = promisify(execFile);
const preload = new URL('../support/shifted-clock.mjs', import.meta.url).href;
const iso = (ms: number) => new Date(ms).toISOString();
/** The first `n` starts of a pattern, each file taking 30 s. */
const starts = (start: string, n: number) => {
  const s = Date.parse(start);
  const out = [s];
  while (out.length < n) out.push(nextStart(s, out.at(-1)! + 30_000));
  return out.map(iso);
};

describe('the shifted clock of the tests', () => {
  it('starts each file where the first stood: the same time of day, before or after the same boundaries', () => {
    // 31 December 2028 is a Sunday: a day, an ISO week, a month and a year end together.
    expect(starts('2028-12-31T23:59:56Z', 3)).toEqual([
      '2028-12-31T23:59:56.000Z',
      '2034-12-31T23:59:56.000Z',
      '2045-12-31T23:59:56.000Z',
    ]);
    expect(starts('2032-02-29T23:59:56Z', 3)).toEqual([
      '2032-02-29T23:59:56.000Z',
      '2036-02-29T23:59:56.000Z',
      '2040-02-29T23:59:56.000Z',
    ]);
    // Just after a Sunday that ends a month (30 April 2028): the next Monday that starts a month.
    expect(starts('2028-05-01T00:00:01Z', 3)).toEqual([
      '2028-05-01T00:00:01.000Z',
      '2029-10-01T00:00:01.000Z',
      '2030-04-01T00:00:01.000Z',
    ]);
    // A plain day: the next day.
    expect(starts('2028-03-14T23:59:50Z', 2)).toEqual([
      '2028-03-14T23:59:50.000Z',
      '2028-03-15T23:59:50.000Z',
    ]);
  });

  it('takes an ISO UTC instant, or nothing; anything else says what to give', () => {
    expect(clockStart({})).toBeUndefined();
    expect(clockStart({ PYB_CLOCK_START: '2028-12-31T23:59:56Z' })).toBe(Date.parse('2028-12-31T23:59:56Z'));
    expect(() => clockStart({ PYB_CLOCK_START: '31/12/2028' })).toThrow(/2027-12-31T23:59:50Z/);
    expect(() => clockStart({ PYB_CLOCK_START: '2028-13-01T00:00:00Z' })).toThrow(/UTC instant/);
  });

  it('shifts a spawned process by the offset it is given, Date.now, new Date() and Date() alike, forward only', async () => {
    const offset = 1_000 * 86_400_000;
    const real = () => shiftState()?.realNow() ?? Date.now();
    const before = real();
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { shiftDate, shiftState } = await import(${JSON.stringify(preload)});
         const now = Date.now(), made = new Date().getTime(), said = Date.parse(Date());
         shiftDate(0); // never backwards
         console.log(JSON.stringify({ now, made, said, offset: shiftState().offset, epoch: new Date(0).getTime() }));`,
      ],
      { env: { ...process.env, NODE_OPTIONS: `--import=${preload}`, PYB_CLOCK_OFFSET_MS: String(offset) } },
    );
    const after = real();
    const child = JSON.parse(stdout);
    for (const t of [child.now, child.made]) {
      expect(t).toBeGreaterThanOrEqual(before + offset);
      expect(t).toBeLessThanOrEqual(after + offset);
    }
    // Date() has whole seconds.
    expect(child.said).toBeGreaterThanOrEqual(Math.floor((before + offset) / 1000) * 1000);
    expect([child.offset, child.epoch]).toEqual([offset, 0]);
  });

  it('under PYB_CLOCK_START, reads the shifted clock here too and hands it to what this file spawns', () => {
    const state = shiftState();
    if (clockStart() === undefined) {
      expect(state).toBeUndefined();
      return;
    }
    expect(state).toBeDefined();
    const before = state!.realNow();
    const now = Date.now();
    expect(now).toBeGreaterThanOrEqual(before + state!.offset);
    expect(now).toBeGreaterThanOrEqual(clockStart()!);
    expect(process.env.PYB_CLOCK_OFFSET_MS).toBe(String(state!.offset));
    expect(process.env.NODE_OPTIONS).toContain(preload);
  });
});
