/** The bytes a TSA stamps for a head (docs/provably-fair.md §15.11, "Time-stamps"): the vector of the doc. */
import { createHash } from 'node:crypto';
import { leafHash } from '@pyb/timestamp';
import { describe, expect, it } from 'vitest';
import { bytesToHex, headDigest, type SignedHead } from '../src/index';

const HEAD: SignedHead = {
  statement: {
    scheme: 'pyb-head/1',
    shoeId: 'shoe-demo-1',
    commitment: '00'.repeat(32),
    seq: 7,
    type: 'BETTING_CLOSED',
    roundId: 'rnd-1',
    head: '11'.repeat(32),
    at: '2025-01-01T20:00:05.000Z',
    keyId: 'key-1',
  },
  signature: 'MEUCIQ==',
};
const JCS =
  '{"signature":"MEUCIQ==","statement":{"at":"2025-01-01T20:00:05.000Z","commitment":"' +
  '00'.repeat(32) +
  '","head":"' +
  '11'.repeat(32) +
  '","keyId":"key-1","roundId":"rnd-1","scheme":"pyb-head/1","seq":7,"shoeId":"shoe-demo-1","type":"BETTING_CLOSED"}}';

describe('headDigest', () => {
  it('is SHA-256 of the UTF-8 JCS of the whole signed head; alone in a window, the root is its leaf', () => {
    const digest = headDigest(HEAD);
    expect(bytesToHex(digest)).toBe(createHash('sha256').update(JCS, 'utf8').digest('hex'));
    expect(bytesToHex(digest)).toBe('24806e5bc8657e66d4681d8a9c7950cb49452e7ae4bf9037a7687014b06b798d');
    expect(bytesToHex(leafHash(digest))).toBe(
      createHash('sha256')
        .update(Buffer.concat([Buffer.from([0]), Buffer.from(digest)]))
        .digest('hex'),
    );
    expect(bytesToHex(leafHash(digest))).toBe(
      'bb586dd3e534da55370af488695fee2a1d6dda7938d995c7bc8a225a1151e2e2',
    );
  });
});
