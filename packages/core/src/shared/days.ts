/** UTC days: the period of the daily reports (GGR, regulator feed, seamless reconciliation). */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC day [from, to) of a YYYY-MM-DD date, or undefined when it is not a date. */
export function utcDay(date: string): { from: string; to: string } | undefined {
  const m = DAY.exec(date);
  if (!m) return undefined;
  const start = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== date) return undefined;
  return { from: start.toISOString(), to: new Date(start.getTime() + 86_400_000).toISOString() };
}

/**
 * `[from, to)` as canonical ISO strings (stored times compare as strings), or undefined when either is
 * not a time, `to` is not after `from`, or they are more than `maxMs` apart.
 */
export function timeRange(from: string, to: string, maxMs: number): { from: string; to: string } | undefined {
  const f = Date.parse(from);
  const t = Date.parse(to);
  if (Number.isNaN(f) || Number.isNaN(t) || t <= f || t - f > maxMs) return undefined;
  return { from: new Date(f).toISOString(), to: new Date(t).toISOString() };
}
