/** A server seed is 32 bytes (docs/provably-fair.md). */
export const SEED_BYTES = 32;
