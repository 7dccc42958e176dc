/**
 * The demo shoes' time-stamp authority: a local TSA (its own key) whose clock is set to the instant
 * being stamped, so each head naming a beacon round, and each rotation's certificate, is anchored as
 * the platform anchors it. `testTsaPem()` is what a verifier pins (`trustedTimeStampAuthorities`).
 */
import { LocalTimeStampAuthority, leafHash } from '@pyb/timestamp';
import { bytesToBase64, bytesToHex, type TimeStampAnchor } from '../src/index';

let stampedAt = new Date(0);
let demoTsa: Promise<LocalTimeStampAuthority> | undefined;
export const testTsa = () => {
  demoTsa ??= LocalTimeStampAuthority.create({ name: 'demo TSA', clock: { now: () => stampedAt } });
  return demoTsa;
};
export const testTsaPem = async () => (await testTsa()).certificatePem();

/** One digest stamped alone (a window of one) at `at` (ms since the epoch). */
export async function stampAt(digest: Uint8Array, at: number): Promise<TimeStampAnchor> {
  const tsa = await testTsa();
  const root = leafHash(digest);
  stampedAt = new Date(at);
  const token = await tsa.stamp(root);
  return {
    root: bytesToHex(root),
    proof: { index: 0, size: 1, siblings: [] },
    tokens: [{ tsa: tsa.name, token: bytesToBase64(token) }],
  };
}
