/** A small seeded PRNG (mulberry32): what a test draws from it follows from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A seed from the environment variable `name` (an integer), else `fallback`: a test that draws its
 * faults from it is the same test on every run, and another seed is one variable away.
 */
export function seedFrom(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,10}$/.test(value)) throw new Error(`${name} must be a non-negative integer, not ${value}`);
  return Number(value);
}

/** Runs `body`; a failure's message ends naming the seed and how to run it again. */
export async function withSeed<T>(name: string, seed: number, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof Error)
      error.message += `\n(faults drawn from seed ${seed}: re-run with ${name}=${seed})`;
    throw error;
  }
}
