/**
 * A second implementation of docs/provably-fair.md, written from the document alone: Node's crypto,
 * no code shared with packages/fairness or packages/engine. If the two ever disagree, one of them
 * (or the document) is wrong.
 */
import { createHash, createHmac, createPublicKey, verify } from 'node:crypto';

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

/** §3 */
export const independentCommitment = (serverSeedHex: string): string =>
  createHash('sha256').update(Buffer.from(serverSeedHex, 'hex')).digest('hex');

/**
 * §2 canonical JSON (RFC 8785) for what the statement and audit events contain: objects, arrays,
 * strings, booleans, null and integers. Keys sorted by UTF-16 code units; JSON.stringify already
 * escapes strings as RFC 8785 requires.
 */
export function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`this JCS handles integers only: ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${jcs(v)}`).join(',')}}`;
}

/** §4: ECDSA P-256 / SHA-256 over UTF-8(JCS(statement)), DER signature, SPKI or PEM key. */
export function independentSignatureOk(
  statement: unknown,
  signatureBase64: string,
  publicKey: string,
): boolean {
  const key = publicKey.includes('BEGIN PUBLIC KEY')
    ? createPublicKey(publicKey)
    : createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
  return verify(
    'sha256',
    Buffer.from(jcs(statement), 'utf8'),
    { key, dsaEncoding: 'der' },
    Buffer.from(signatureBase64, 'base64'),
  );
}

/** §10: the hash of one audit event. */
export const independentEventHash = (prevHash: string, event: unknown): string =>
  createHash('sha256')
    .update(`${prevHash}\n${jcs(event)}`, 'utf8')
    .digest('hex');
