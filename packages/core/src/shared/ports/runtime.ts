/** Time and identifiers, as ports so that tests can fix them. */
export interface Clock {
  now(): Date;
  /**
   * Waits `ms` on this clock (default: a real timer). A test clock may move itself forward instead,
   * so waiting for a time to come (a beacon round) costs the tests no real time.
   */
  sleep?(ms: number): Promise<void>;
}

export interface Ids {
  /** A new unique id `<prefix>_<time-ordered random>` (safe in keys and URL paths: [A-Za-z0-9_]). */
  next(prefix: string): string;
}

export const systemClock: Clock = { now: () => new Date() };

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** Ids that sort by creation time (48-bit ms, like a ULID) with 80 random bits; WebCrypto, no Node import. */
export const randomIds: Ids = {
  next(prefix: string): string {
    let time = Date.now();
    let head = '';
    for (let i = 0; i < 10; i++) {
      head = CROCKFORD[time % 32]! + head;
      time = Math.floor(time / 32);
    }
    const random = crypto.getRandomValues(new Uint8Array(16));
    let tail = '';
    for (const byte of random) tail += CROCKFORD[byte % 32];
    return `${prefix}_${head}${tail}`;
  },
};
