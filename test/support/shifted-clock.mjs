/**
 * A process's `Date`, shifted: `Date.now()` and `new Date()` read real time plus an offset, so the
 * code under test (systemClock, the AWS SDK, every `new Date()`) and the tests read one clock started
 * where PYB_CLOCK_START says (docs/testing.md, "Time in tests"). Plain JavaScript so that a process the
 * tests spawn (the CLI, a dev server) loads it through `NODE_OPTIONS=--import …` with no loader: there
 * it takes its offset from PYB_CLOCK_OFFSET_MS, set by the test process that spawned it.
 */

const DAY = 86_400_000;
const STATE = Symbol.for('pyb.shiftedClock');

export const shiftState = () => globalThis[STATE];

/**
 * Shifts this process's `Date` by `offset` ms from now on (installed once; later calls move the
 * offset, forward only, so time never runs backwards in a process).
 */
export function shiftDate(offset) {
  const state = globalThis[STATE];
  if (state) {
    state.offset = Math.max(state.offset, offset);
    return state;
  }
  const RealDate = Date;
  const fresh = { offset, files: 0, realNow: () => RealDate.now() };
  const now = () => RealDate.now() + fresh.offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) =>
      Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
    // Date() called without new: a string of now, as the real one gives.
    apply: () => new RealDate(now()).toString(),
    get: (target, key, receiver) => (key === 'now' ? now : Reflect.get(target, key, receiver)),
  });
  globalThis[STATE] = fresh;
  return fresh;
}

/** PYB_CLOCK_START as epoch ms (undefined when unset); anything but an ISO-8601 UTC instant throws. */
export function clockStart(env = process.env) {
  const text = env.PYB_CLOCK_START;
  if (text === undefined || text === '') return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms))
    throw new Error(`PYB_CLOCK_START=${text}: give a UTC instant such as 2027-12-31T23:59:50Z`);
  return ms;
}

/**
 * The boundaries at the midnight nearest `ms` (before or after it): the year's, a leap day's, the
 * month's, the ISO week's (a Sunday ending).
 */
const boundaries = (ms) => {
  const ending = new Date(ms + DAY / 2 - DAY);
  const m = ending.getUTCMonth();
  const day = ending.getUTCDate();
  const leap = m === 1 && day === 29;
  const monthEnd = new Date(ms + DAY / 2).getUTCDate() === 1;
  // A leap day is rare enough: any weekday of it will do (every 4 years, not every 28).
  return [m === 11 && day === 31, leap, monthEnd, !leap && ending.getUTCDay() === 0].join();
};

/**
 * The first instant after `after` that stands where `start` stands: the same time of day, as near
 * the same boundaries (23:59:59 on 31 December 2028, a Sunday: the next 31 December that is a Sunday;
 * 00:00:01 on 1 March 2032: the next 1 March after a leap day; on a plain Tuesday: the next day).
 */
export function nextStart(start, after) {
  const kind = boundaries(start);
  let t = after < start ? start : start + Math.ceil((after - start + 1) / DAY) * DAY;
  while (boundaries(t) !== kind) t += DAY;
  return t;
}

// In a spawned process: the offset of the test process that spawned it.
const inherited = process.env.PYB_CLOCK_OFFSET_MS;
if (inherited !== undefined && inherited !== '' && !globalThis[STATE]) shiftDate(Number(inherited));
