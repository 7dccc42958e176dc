import { LocalTimeStampAuthority, type LocalTimeStampAuthorityOptions } from '../src/local';

/** Time is an input: every token of these tests is made at this instant unless a test says so. */
export const AT = new Date('2026-06-01T12:00:00.250Z');

export const fixedClock = (at: Date = AT) => ({ now: () => at });

export function localTsa(name: string, options: Partial<LocalTimeStampAuthorityOptions> = {}) {
  return LocalTimeStampAuthority.create({ name, clock: fixedClock(), ...options });
}

/** A head digest: 32 bytes, each `fill`. */
export const digestOf = (fill: number) => new Uint8Array(32).fill(fill);

export async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error('expected a failure');
}
