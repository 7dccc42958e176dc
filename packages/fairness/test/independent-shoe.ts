/**
 * The independent implementation (independent.ts) of docs/provably-fair.md §6–§7: the HMAC-SHA256
 * block stream and the pyb-shoe/2 shuffle, cut card and burn, from the document alone (Node's crypto).
 */
import { createHmac } from 'node:crypto';

/** A big-endian u32, the length prefix of §6 and §15.2. */
export const be32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
};

const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
const notation = (card: number) => RANKS[card % 13]! + SUITS[Math.floor(card / 13)]!;

/** §15.2: the stream over length-prefixed fields; returns uniform(n) (§6). */
export function fieldStream(serverSeed: Buffer, fields: Buffer[]) {
  const head = Buffer.concat(fields.flatMap((f) => [be32(f.length), f]));
  let pending = Buffer.alloc(0);
  let k = 0;
  const draw = (): number => {
    while (pending.length < 4) {
      const block = createHmac('sha256', serverSeed)
        .update(Buffer.concat([head, be32(k++)]))
        .digest();
      pending = Buffer.concat([pending, block]);
    }
    const x = pending.readUInt32BE(0);
    pending = pending.subarray(4);
    return x;
  };
  return (n: number): number => {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const x = draw();
      if (x < limit) return x % n;
    }
  };
}

/** §6: the stream of pyb-shoe/2, its fields the client seed and the shoe id (§15.2's with two fields). */
const drawer = (serverSeed: Buffer, clientSeed: string, shoeId: string) =>
  fieldStream(serverSeed, [Buffer.from(clientSeed, 'utf8'), Buffer.from(shoeId, 'utf8')]);

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
