/**
 * xoshiro128** (Blackman & Vigna): a small, fast, seeded PRNG for **simulation only** (the CLI's
 * `simulate`, the bench, property tests). It is not cryptographic and never orders a real shoe: real
 * shoes come from the provably-fair HMAC stream in @pyb/fairness.
 */
export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** Any string or number seeds it; the same seed gives the same sequence everywhere. */
  constructor(seed: string | number) {
    const text = String(seed);
    // Four independent 32-bit hashes of the seed text, each finished by splitmix32, fill the state.
    const words = [0, 1, 2, 3].map((lane) => splitmix32(fnv1a(text, lane)));
    if (words.reduce((a, b) => a | b, 0) === 0) words[0] = 1; // the all-zero state is a fixed point
    [this.s0, this.s1, this.s2, this.s3] = words as [number, number, number, number];
  }

  /** A generator from a raw state (reference test vectors). */
  static fromState(s0: number, s1: number, s2: number, s3: number): Xoshiro128 {
    const rng = new Xoshiro128(0);
    [rng.s0, rng.s1, rng.s2, rng.s3] = [s0 | 0, s1 | 0, s2 | 0, s3 | 0];
    return rng;
  }

  /** The next 32-bit unsigned integer. */
  nextU32(): number {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /**
   * Uniform integer in [0, n), unbiased, 1 <= n <= 2^32. Lemire's multiply-and-reject: j = floor(x·n / 2^32),
   * rejecting the few x whose low part falls under 2^32 mod n. For n <= 2^21 the product is exact in a
   * double, so no 64-bit arithmetic is needed and the modulo runs only in the rare low-part case.
   */
  below(n: number): number {
    if (n > 2_097_152) return this.belowLarge(n);
    let m = this.nextU32() * n;
    let j = Math.floor(m * TWO_POW_MINUS_32);
    let low = m - j * TWO_POW_32;
    if (low < n) {
      const threshold = TWO_POW_32 % n;
      while (low < threshold) {
        m = this.nextU32() * n;
        j = Math.floor(m * TWO_POW_MINUS_32);
        low = m - j * TWO_POW_32;
      }
    }
    return j;
  }

  private belowLarge(n: number): number {
    const limit = TWO_POW_32 - (TWO_POW_32 % n);
    let x = this.nextU32();
    while (x >= limit) x = this.nextU32();
    return x % n;
  }

  /** Uniform float in [0, 1) with 32 random bits. */
  nextFloat(): number {
    return this.nextU32() * TWO_POW_MINUS_32;
  }
}

const TWO_POW_32 = 4_294_967_296;
const TWO_POW_MINUS_32 = 1 / TWO_POW_32;

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

function fnv1a(text: string, lane: number): number {
  let h = (0x811c9dc5 ^ Math.imul(lane + 1, 0x9e3779b9)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(seed: number): number {
  let z = (seed + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Fisher–Yates in place. */
export function shuffleInPlace(cards: Uint8Array | number[], rng: Xoshiro128): void {
  for (let i = cards.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const tmp = cards[i]!;
    cards[i] = cards[j]!;
    cards[j] = tmp;
  }
}
