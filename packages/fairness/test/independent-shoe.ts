/**
 * The independent implementation (independent.ts) of docs/provably-fair.md §6–§7: the HMAC-SHA256
 * block stream and the pyb-shoe/2 shuffle, cut card and burn, from the document alone (Node's crypto).
 */
import { createHmac } from 'node:crypto';

const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
const notation = (card: number) => RANKS[card % 13]! + SUITS[Math.floor(card / 13)]!;

/** §6: the HMAC-SHA256 block stream, read as big-endian u32 draws. */
function drawer(serverSeed: Buffer, clientSeed: string, shoeId: string) {
  const c = Buffer.from(clientSeed, 'utf8');
  const s = Buffer.from(shoeId, 'utf8');
  let pending = Buffer.alloc(0);
  let k = 0;
  const next = (): number => {
    while (pending.length < 4) {
      const msg = Buffer.alloc(4 + c.length + 4 + s.length + 4);
      msg.writeUInt32BE(c.length, 0);
      c.copy(msg, 4);
      msg.writeUInt32BE(s.length, 4 + c.length);
      s.copy(msg, 8 + c.length);
      msg.writeUInt32BE(k++, msg.length - 4);
      pending = Buffer.concat([pending, createHmac('sha256', serverSeed).update(msg).digest()]);
    }
    const x = pending.readUInt32BE(0);
    pending = pending.subarray(4);
    return x;
  };
  /** uniform(n): reject x >= 2^32 - (2^32 mod n). BigInt-free: 2^32 is exact in a double. */
  return (n: number): number => {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const x = next();
      if (x < limit) return x % n;
    }
  };
}

export interface IndependentShoe {
  order: string[];
  cutIndex: number;
  burn: { shown: string; burned: number };
  firstCoupAt: number;
}

/** §7: Fisher–Yates over the canonical order, then the cut card, then the burn. */
export function independentShoe(
  serverSeedHex: string,
  clientSeed: string,
  shoeId: string,
  decks: number,
  minBehind: number,
  maxBehind: number,
): IndependentShoe {
  const uniform = drawer(Buffer.from(serverSeedHex, 'hex'), clientSeed, shoeId);
  const total = 52 * decks;
  const a = Array.from({ length: total }, (_, i) => i % 52);
  for (let i = total - 1; i >= 1; i--) {
    const j = uniform(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  const behind = minBehind + uniform(maxBehind - minBehind + 1);
  const rank = a[0]! % 13;
  const burned = rank < 9 ? rank + 1 : 10;
  return {
    order: a.map(notation),
    cutIndex: total - behind,
    burn: { shown: notation(a[0]!), burned },
    firstCoupAt: 1 + burned,
  };
}
