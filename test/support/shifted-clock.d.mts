/** Types of ./shifted-clock.mjs (plain JavaScript so spawned processes load it with no loader). */
export interface ShiftState {
  /** Milliseconds added to real time. */
  offset: number;
  /** Test files that started their clock in this process. */
  files: number;
  /** The real time, unshifted (epoch ms). */
  realNow(): number;
}
export function shiftState(): ShiftState | undefined;
export function shiftDate(offset: number): ShiftState;
export function clockStart(env?: NodeJS.ProcessEnv): number | undefined;
export function nextStart(start: number, after: number): number;
