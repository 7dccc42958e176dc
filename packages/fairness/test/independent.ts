/**
 * A second implementation of docs/provably-fair.md, written from the document alone: Node's crypto,
 * no code shared with packages/fairness or packages/engine. If the two ever disagree, one of them
 * (or the document) is wrong. The one exception is the BLS12-381 pairing check of a beacon round:
 * Node has no BLS, so it calls @noble/curves directly (the library §5 names), not our wrapper.
 */

import { createHash, createHmac, createPublicKey, verify } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { type DigestEvidence, independentDigestChecks } from './independent-digests';
import { independentReceipts } from './independent-receipts';
import { independentDealV3 } from './independent-v3';
import { independentVoidChecks, independentVoidChecksV3, type VoidEvidence } from './independent-voids';

export * from './independent-digests';
export * from './independent-v3';

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

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** §3 */
export const independentCommitment = (serverSeedHex: string): string =>
  createHash('sha256').update(Buffer.from(serverSeedHex, 'hex')).digest('hex');

/**
 * §2 canonical JSON (RFC 8785) for what the statement and audit events contain: objects, arrays,
 * strings, booleans, null and integers. Keys sorted by UTF-16 code units; JSON.stringify already
 * escapes strings as RFC 8785 requires.
 */
export function jcs(value: unknown): string {
  if (typeof value === 'string' && LONE.test(value)) throw new Error('§3: unpaired surrogate');
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`this JCS handles integers only: ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return `{${entries.map(([k, v]) => `${jcs(k)}:${jcs(v)}`).join(',')}}`;
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

const sha256hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** §5.2: the digest of the contributions, in index order. */
export const independentContributionsDigest = (
  contributions: readonly { index: number; kind: string; seed: string }[],
) =>
  sha256hex(
    Buffer.from(jcs(contributions.map((c) => ({ index: c.index, kind: c.kind, seed: c.seed }))), 'utf8'),
  );

/** §5.3: the first round published at or after the close plus the margin. */
export function independentBeaconRound(
  genesis: number,
  period: number,
  closedAt: string,
  margin: number,
): number {
  const t = Date.parse(closedAt) / 1000 + margin;
  return t <= genesis ? 1 : Math.ceil((t - genesis) / period) + 1;
}

/** §5.1: the BLS check of a round (G1 signature of SHA-256(be64(round)), G2 key, RFC 9380 hash-to-curve). */
export function independentBeaconOk(publicKeyHex: string, round: number, signatureHex: string): boolean {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(round));
  const bls = bls12_381.shortSignatures;
  try {
    return bls.verify(
      Buffer.from(signatureHex, 'hex'),
      bls.hash(createHash('sha256').update(message).digest()),
      Buffer.from(publicKeyHex, 'hex'),
    );
  } catch {
    return false;
  }
}

/** §6: the shoe entropy, the text the stream of §7 takes as its client input. */
export function independentEntropy(
  shoeId: string,
  commitment: string,
  contributionsDigest: string,
  beacon: { chainHash: string; round: number; signature: string },
): string {
  const randomness = sha256hex(Buffer.from(beacon.signature, 'hex'));
  return sha256hex(
    Buffer.from(
      jcs({
        scheme: 'pyb-shoe/2',
        shoeId,
        commitment,
        contributions: contributionsDigest,
        beacon: { chainHash: beacon.chainHash, round: beacon.round, randomness },
      }),
      'utf8',
    ),
  );
}

interface Certificate {
  certificate: {
    keyId: string;
    generation: number;
    publicKey: string;
    validFrom: string;
    previousKeyId: string | null;
  };
  signature: string;
}

/** §4.2: the key chain; each key with the interval it may sign in, or an error. */
export function independentKeys(certificates: readonly Certificate[]) {
  const keys: { keyId: string; publicKey: string; from: number; until: number }[] = [];
  certificates.forEach(({ certificate: c, signature }, i) => {
    const previous = keys[i - 1];
    if (c.generation !== i + 1 || c.previousKeyId !== (previous?.keyId ?? null))
      throw new Error('broken chain');
    const signer = previous?.publicKey ?? c.publicKey;
    if (!independentSignatureOk(c, signature, signer)) throw new Error(`certificate ${i + 1} not signed`);
    const from = Date.parse(c.validFrom);
    if (previous) {
      if (from <= previous.from) throw new Error('validity goes back');
      previous.until = from;
    }
    keys.push({ keyId: c.keyId, publicKey: c.publicKey, from, until: Number.POSITIVE_INFINITY });
  });
  return keys;
}

/** §11.2: a round's events in chain order. */
export function independentRoundOrderOk(types: readonly string[], status: 'SETTLED' | 'VOIDED'): boolean {
  const text = types.join(',');
  return status === 'SETTLED'
    ? text === 'ROUND_OPENED,BETTING_CLOSED,COUP_DEALT,ROUND_SETTLED'
    : text === 'ROUND_OPENED,ROUND_VOIDED' || text === 'ROUND_OPENED,BETTING_CLOSED,ROUND_VOIDED';
}

/** A base64 DER SPKI of a key given as PEM or base64 DER. */
const spki = (key: string): string =>
  (key.includes('BEGIN PUBLIC KEY')
    ? createPublicKey(key)
    : createPublicKey({ key: Buffer.from(key, 'base64'), format: 'der', type: 'spki' })
  )
    .export({ format: 'der', type: 'spki' })
    .toString('base64');

interface IndependentEvidence extends DigestEvidence, Omit<VoidEvidence, 'rounds'> {
  statement: Record<string, unknown> & {
    saltCommitment?: string;
    shoeId: string;
    commitment: string;
    createdAt: string;
    keyId: string;
    decks: number;
    cutCard: { minCardsBehind: number; maxCardsBehind: number };
    table: { afterCutCard: string };
    beacon: {
      chainHash: string;
      publicKey: string;
      genesisTime: number;
      period: number;
      marginSeconds: number;
    };
  };
  signature: string;
  keys: readonly Certificate[];
  serverSeed: string;
  contributions: readonly { index: number; kind: string; seed: string }[];
  beacon: { round: number; signature: string };
  cutIndex: number;
  burn: { shown: string; burned: number; cards?: readonly string[] };
  heads: readonly { statement: HeadStatement; signature: string }[];
  rounds: readonly (DigestEvidence['rounds'][number] &
    VoidEvidence['rounds'][number] & {
      coup: null | { start: number; cards: readonly string[]; beacon?: { round: number; signature: string } };
      burned?: { start: number; cards: readonly string[]; beacon?: { round: number; signature: string } };
    })[];
  audit: {
    events: readonly { hash: string; prevHash: string; event: Record<string, unknown> }[];
    close: {
      shoeId: string;
      commitment: string;
      head: string;
      length: number;
      closedAt: string;
      keyId: string;
    };
    signature: string;
  };
}

interface HeadStatement {
  scheme: string;
  shoeId: string;
  commitment: string;
  seq: number;
  type: string;
  roundId: string | null;
  head: string;
  at: string;
  keyId: string;
}

/**
 * The checks of §4.2, §5 and §11 as the document states them, over a bundle or a proof: the names of
 * the failed ones (the library's check ids where the document names them), or [] when all hold and
 * the statement's key is one the caller trusts. Coup outcomes and payouts are left to the engine
 * rules of docs/rules.md (not re-implemented here).
 */
export function independentVerify(
  e: IndependentEvidence,
  options: {
    trustedKeys: readonly string[];
    /** Signed heads, contributions' answers, shoe-opened answers (independent-receipts.ts). */
    receipts?: readonly unknown[];
    seeds?: readonly { index: number; seed: string }[];
  },
): string[] {
  const failed = new Set<string>();
  const fail = (id: string) => failed.add(id);
  const { statement, audit } = e;

  // §4.2 the key chain, the intervals, and trust (a generation certified by a trusted one is trusted).
  let keys: ReturnType<typeof independentKeys> = [];
  try {
    keys = independentKeys(e.keys);
  } catch {
    fail('keys.chain');
  }
  const trusted = new Set(options.trustedKeys.map(spki));
  const trustedIds = new Set<string>();
  keys.forEach((k, i) => {
    if (trusted.has(spki(k.publicKey)) || trustedIds.has(keys[i - 1]?.keyId ?? '')) trustedIds.add(k.keyId);
  });
  /** The public key of `keyId` if it was valid at `at`. */
  const keyAt = (keyId: string, at: string): string | undefined => {
    const k = keys.find((x) => x.keyId === keyId);
    const t = Date.parse(at);
    return k && t >= k.from && t < k.until ? k.publicKey : undefined;
  };
  const signedAt = (
    object: unknown,
    signature: string,
    keyId: string,
    at: string,
    id: string,
    keyCheck: string,
  ) => {
    const key = keyAt(keyId, at);
    if (!key) return fail(keyCheck);
    if (!independentSignatureOk(object, signature, key)) fail(id);
  };

  // §4.1 the statement and the commitment.
  signedAt(
    statement,
    e.signature,
    statement.keyId,
    statement.createdAt,
    'statement.signature',
    'statement.key',
  );
  if (independentCommitment(e.serverSeed) !== statement.commitment) fail('seed.commitment');
  if (!trustedIds.has(statement.keyId)) fail('keys.trusted');

  // §11.1 the chain: links, hashes, seq = index, the shoe named, times never back.
  const events = audit.events.map(
    (x) => x.event as Record<string, unknown> & { data: Record<string, unknown> },
  );
  let prev = statement.commitment;
  let lastAt = '';
  audit.events.forEach((x, i) => {
    const ev = events[i]!;
    if (ev.seq !== i) fail('audit.seq');
    if (ev.shoeId !== statement.shoeId) fail('audit.shoe');
    let hash: string | undefined;
    try {
      hash = independentEventHash(prev, x.event);
    } catch {
      hash = undefined;
    }
    if (x.prevHash !== prev || hash !== x.hash) fail('audit.chain');
    if (typeof ev.at !== 'string' || ev.at < lastAt) fail('audit.times');
    lastAt = String(ev.at);
    prev = x.hash;
  });

  const opened = events[0];
  if (
    opened?.at !== statement.createdAt ||
    opened.data.signature !== e.signature ||
    jcs(opened.data.statement) !== jcs(statement)
  ) {
    fail('audit.statement');
  }

  // §11.2 phases and, per round, one of the three orders; rounds one at a time.
  const types = events.map((ev) => String(ev.type));
  const once = (type: string) => types.filter((t) => t === type).length === 1;
  const firstOf = (type: string) => types.indexOf(type);
  const closedAt = firstOf('CONTRIBUTIONS_CLOSED');
  const recordedAt = firstOf('BEACON_RECORDED');
  const firstDeal = firstOf('COUP_DEALT');
  const firstRound = firstOf('ROUND_OPENED');
  if (
    types[0] !== 'SHOE_OPENED' ||
    !once('SHOE_OPENED') ||
    !once('CONTRIBUTIONS_CLOSED') ||
    types.slice(closedAt + 1).includes('SEED_CONTRIBUTED') ||
    (firstRound >= 0 && firstRound < closedAt) ||
    (firstDeal >= 0 && (!once('BEACON_RECORDED') || recordedAt < closedAt || recordedAt > firstDeal)) ||
    types.at(-1) !== 'SHOE_CLOSED' ||
    !once('SHOE_CLOSED')
  ) {
    fail('audit.order');
  }
  const ROUND_EVENTS = ['ROUND_OPENED', 'BETTING_CLOSED', 'COUP_DEALT', 'ROUND_SETTLED', 'ROUND_VOIDED'];
  let inPlay: string | null = null;
  for (const ev of events) {
    if (!ROUND_EVENTS.includes(String(ev.type))) {
      if (inPlay !== null && ev.type !== 'PLAYER_LEFT' && ev.type !== 'SHOE_CLOSED') fail('audit.order');
      if (inPlay !== null && ev.type === 'SHOE_CLOSED') fail('audit.order');
      continue;
    }
    if (ev.type === 'ROUND_OPENED') {
      if (inPlay !== null) fail('audit.order');
      inPlay = String(ev.roundId);
    } else if (ev.roundId !== inPlay) {
      fail('audit.order');
    }
    if (ev.type === 'ROUND_SETTLED' || ev.type === 'ROUND_VOIDED') inPlay = null;
  }
  e.rounds.forEach((round) => {
    const own = events.filter((ev) => ev.roundId === round.roundId).map((ev) => String(ev.type));
    if (!independentRoundOrderOk(own, round.status)) fail(`audit.round.${round.number}.order`);
  });

  // §5 contributions, the beacon round and its signature.
  const closed = events[closedAt];
  const digestOf = independentContributionsDigest(e.contributions);
  if (!closed || closed.data.digest !== digestOf || e.contributions.some((c, i) => c.index !== i)) {
    fail('contributions.digest');
  }
  const { beacon } = statement;
  if (
    !closed ||
    closed.data.beaconRound !== e.beacon.round ||
    independentBeaconRound(beacon.genesisTime, beacon.period, String(closed.at), beacon.marginSeconds) !==
      e.beacon.round
  ) {
    fail('beacon.round');
  }
  if (!independentBeaconOk(beacon.publicKey, e.beacon.round, e.beacon.signature)) fail('beacon.signature');

  // §15.11: a pyb-shoe/3 shoe draws each coup from the round its betting close named.
  const v3 = statement.scheme === 'pyb-shoe/3';
  if (v3) {
    independentDealV3(e, events, digestOf, independentBeaconOk, independentBeaconRound, fail);
  } else {
    // §5.4, §7 the order: every dealt card where the seeds put it, the cut index and the burn.
    const entropy = independentEntropy(statement.shoeId, statement.commitment, digestOf, {
      chainHash: beacon.chainHash,
      round: e.beacon.round,
      signature: e.beacon.signature,
    });
    const shoe = independentShoe(
      e.serverSeed,
      entropy,
      statement.shoeId,
      statement.decks,
      statement.cutCard.minCardsBehind,
      statement.cutCard.maxCardsBehind,
    );
    if (shoe.cutIndex !== e.cutIndex) fail('shoe.cut-index');
    if (shoe.burn.shown !== e.burn.shown || shoe.burn.burned !== e.burn.burned) fail('shoe.burn');
    e.rounds.forEach((round) => {
      if (!round.coup) return;
      const dealt = shoe.order.slice(round.coup.start, round.coup.start + round.coup.cards.length);
      if (dealt.join() !== round.coup.cards.join()) fail(`round.${round.number}.cards`);
    });
    // §10 the void report's would-be coups, in a bundle.
    independentVoidChecks(e, shoe, statement.table.afterCutCard, fail);
  }
  // §15.9: in pyb-shoe/3 a void's would-be coup is its burn, or none.
  if (v3) independentVoidChecksV3(e, fail);

  // §11.1 card codes, §11.1.1–§11.1.2 the digests: with the bundle's salt, or, in a proof, none.
  independentDigestChecks(e, events, fail);

  // §11.3 heads and receipts; every close of contributions and finished round has one (§15.11: and
  // every close of betting in pyb-shoe/3).
  const headOk = (h: { statement: HeadStatement; signature: string }): boolean => {
    const s = h.statement;
    const ev = events[s.seq];
    const key = keyAt(s.keyId, s.at);
    return (
      s.scheme === 'pyb-head/1' &&
      s.shoeId === statement.shoeId &&
      s.commitment === statement.commitment &&
      ev !== undefined &&
      audit.events[s.seq]!.hash === s.head &&
      ev.type === s.type &&
      (ev.roundId ?? null) === s.roundId &&
      String(ev.at) <= s.at &&
      key !== undefined &&
      independentSignatureOk(s, h.signature, key)
    );
  };
  for (const h of e.heads) if (!headOk(h)) fail('heads');
  const headed = new Set(e.heads.filter(headOk).map((h) => h.statement.seq));
  events.forEach((ev, i) => {
    if (
      ['CONTRIBUTIONS_CLOSED', 'ROUND_SETTLED', 'ROUND_VOIDED', ...(v3 ? ['BETTING_CLOSED'] : [])].includes(
        String(ev.type),
      ) &&
      !headed.has(i)
    ) {
      fail('heads.complete');
    }
  });
  independentReceipts(e, options.receipts ?? [], options.seeds ?? [], {
    headOk,
    keyAt,
    fail,
    jcs,
    signatureOk: independentSignatureOk,
  });

  // §11.4 the close: the last head, the length, its time, and a key valid then that is the
  // statement's or its direct successor.
  const close = audit.close;
  const last = audit.events.at(-1);
  if (
    close.shoeId !== statement.shoeId ||
    close.commitment !== statement.commitment ||
    close.head !== last?.hash ||
    close.length !== audit.events.length ||
    close.closedAt !== last?.event.at
  ) {
    fail('audit.close');
  }
  const statementGeneration = keys.findIndex((k) => k.keyId === statement.keyId);
  const closeGeneration = keys.findIndex((k) => k.keyId === close.keyId);
  if (
    closeGeneration < 0 ||
    closeGeneration - statementGeneration > 1 ||
    closeGeneration < statementGeneration
  ) {
    fail('audit.close.key');
  }
  signedAt(close, audit.signature, close.keyId, close.closedAt, 'audit.close.signature', 'audit.close.key');
  return [...failed].sort();
}
