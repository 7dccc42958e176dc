/**
 * Vitest setup (every test file, both tiers): with PYB_CLOCK_START set, the process's clock — the
 * code's and the tests' — starts there and runs in real time (docs/testing.md, "Time in tests").
 * Each file starts its clock afresh so that every file runs at the boundary, not only the first: the
 * first file of a process at PYB_CLOCK_START itself, each later one (the fast tier runs its files in
 * one process) at the next instant like it (`nextStart`: the next 31 December for 31 December, the
 * next leap day for 29 February, the next Sunday for a Sunday…), so time only moves forward in a
 * process. Processes a test spawns get the same clock through NODE_OPTIONS and PYB_CLOCK_OFFSET_MS.
 */
import { clockStart, nextStart, shiftDate, shiftState } from '../support/shifted-clock.mjs';

const start = clockStart();
if (start !== undefined) {
  const before = shiftState();
  const real = before ? before.realNow() : Date.now();
  const at = before ? nextStart(start, real + before.offset) : start;
  const state = shiftDate(at - real);
  state.files += 1;
  process.env.PYB_CLOCK_OFFSET_MS = String(state.offset);
  const preload = `--import=${new URL('../support/shifted-clock.mjs', import.meta.url).href}`;
  const options = process.env.NODE_OPTIONS ?? '';
  if (!options.includes(preload)) process.env.NODE_OPTIONS = `${options} ${preload}`.trim();
}
