/**
 * The library against the documented test vectors and against an independent implementation of the
 * document (independent.ts), on the vectors, on random inputs and on the example bundle.
 */
import { readFileSync } from 'node:fs';
import { p256 } from '@noble/curves/nist.js';
import { formatCard, tablePreset } from '@pyb/engine';
import { leafHash } from '@pyb/timestamp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  bytesToHex,
  canonicalJson,
  commitmentOf,
  contributionsDigest,
  dealShoe,
  eventHash,
  type HeadStatement,
  headStatementBytes,
  hexToBytes,
  keyCertificate,
  keyCertificateBytes,
  keyCertificateDigest,
  QUICKNET,
  SHOE_SCHEME,
  type ShoeBundle,
  shoeEntropy,
  shoeStatement,
  statementBytes,
  verifyDerSignature,
  verifyKeyChain,
  verifyShoe,
} from '../src/index';
import {
  independentBeaconOk,
  independentBeaconRound,
  independentCommitment,
  independentContributionsDigest,
  independentEntropy,
  independentEventHash,
  independentKeys,
  independentRotationDigest,
  independentRoundOrderOk,
  independentShoe,
  independentSignatureOk,
  independentVerify,
  jcs,
} from './independent';

interface Vector {
  seed: string;
  client: string;
  shoe: string;
  decks: number;
  min: number;
  max: number;
  commitment: string;
  first20: string;
  last5: string;
  burn: string;
  burned: number;
  cut: number;
}

/** docs/provably-fair.md §14.1 (the stream and the shuffle, unchanged since pyb-shoe/1), copied by hand. */
const VECTORS: Vector[] = [
  {
    seed: '00'.repeat(32),
    client: 'client',
    shoe: 'shoe-1',
    decks: 8,
    min: 14,
    max: 20,
    commitment: '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925',
    first20: 'AD 3S KD TC QS QC 4C 8S 3S JD 6S JH 9C KD AS 6S 4S 3D 6C 7H',
    last5: '5D TC AD TS 4H',
    burn: 'AD',
    burned: 1,
    cut: 400,
  },
  {
    seed: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
    client: 'ñandú 🂡',
    shoe: 'shoe_2024-06-01#7',
    decks: 6,
    min: 14,
    max: 20,
    commitment: '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
    first20: '4C QD 7C 3S 2H 6D AS AH AD 8H 3C 8S JH 9S QS QS 9H KD KD 2D',
    last5: 'KS JD 3D JS 9S',
    burn: '4C',
    burned: 4,
    cut: 295,
  },
  {
    seed: 'ff'.repeat(32),
    client: 'a',
    shoe: 'b',
    decks: 1,
    min: 7,
    max: 35,
    commitment: 'af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051',
    first20: 'AH 4S 5D 7H KH 5H KC 8H 3S 5S 4C 8S TD 3C TS 9H TC JD 4H QS',
    last5: '6C 7S KS QC 9D',
    burn: 'AH',
    burned: 1,
    cut: 27,
  },
  {
    seed: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    client: '4e1c6a2b',
    shoe: 'shoe-000042',
    decks: 8,
    min: 7,
    max: 399,
    commitment: '954d5a49fd70d9b8bcdb35d252267829957f7ef7fa6c74f88419bdc5e82209f4',
    first20: '6C 4S QS 2H 4D 3C 4C 6S KC QC TH 9D JC 9H 8D 3D 8H 4H JC JD',
    last5: 'TD 7S 7H QC 6S',
    burn: '6C',
    burned: 6,
    cut: 39,
  },
];

const library = (seed: string, client: string, shoe: string, decks: number, min: number, max: number) => {
  const s = dealShoe({
    serverSeed: hexToBytes(seed),
    clientSeed: client,
    shoeId: shoe,
    decks,
    cutCard: { minCardsBehind: min, maxCardsBehind: max },
  });
  return {
    order: Array.from(s.order, formatCard),
    cutIndex: s.cutIndex,
    burn: { shown: formatCard(s.burn.shown), burned: s.burn.burned },
    firstCoupAt: s.firstCoupAt,
  };
};

describe.each(VECTORS)('test vector (shoe id $shoe)', (v) => {
  it.each([
    [
      'the library',
      () => library(v.seed, v.client, v.shoe, v.decks, v.min, v.max),
      () => commitmentOf(hexToBytes(v.seed)),
    ],
    [
      'the independent implementation',
      () => independentShoe(v.seed, v.client, v.shoe, v.decks, v.min, v.max),
      () => independentCommitment(v.seed),
    ],
  ])('%s gives the documented cards, burn, cut index and commitment', (_who, deal, commit) => {
    const shoe = deal();
    expect(shoe.order.slice(0, 20).join(' ')).toBe(v.first20);
    expect(shoe.order.slice(-5).join(' ')).toBe(v.last5);
    expect(shoe.order).toHaveLength(52 * v.decks);
    expect(shoe.burn).toEqual({ shown: v.burn, burned: v.burned });
    expect(shoe.firstCoupAt).toBe(1 + v.burned);
    expect(shoe.cutIndex).toBe(v.cut);
    expect(commit()).toBe(v.commitment);
  });
});

describe('the library and the independent implementation agree', () => {
  it('on random seeds, client seeds (any Unicode), shoe ids, deck counts and cut-card bounds', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
        fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 7, max: 60 }),
        fc.integer({ min: 0, max: 400 }),
        (seedBytes, client, shoeId, decks, min, spread) => {
          const max = Math.min(min + spread, 52 * decks - 17);
          fc.pre(max >= min);
          const seed = Buffer.from(seedBytes).toString('hex');
          expect(library(seed, client, shoeId, decks, min, max)).toEqual(
            independentShoe(seed, client, shoeId, decks, min, max),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** docs/provably-fair.md §14.2, copied by hand: the pyb-shoe/2 parts, on a real quicknet round. */
const V5 = {
  seed: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
  shoe: 'shoe-v5-1',
  contributions: [
    { index: 0, kind: 'PLAYER', seed: 'ñandú 🂡' },
    { index: 1, kind: 'PLAYER', seed: 'seat 3' },
    { index: 2, kind: 'OPERATOR', seed: 'table-7-evening' },
  ] as const,
  contributionsJcs:
    '[{"index":0,"kind":"PLAYER","seed":"ñandú 🂡"},{"index":1,"kind":"PLAYER","seed":"seat 3"},{"index":2,"kind":"OPERATOR","seed":"table-7-evening"}]',
  contributionsDigest: '4b05921f014d653679bd7a1d6021edd59479975e996bf5730a88c07ceed7cebd',
  beacon: {
    chainHash: QUICKNET.chainHash,
    round: 1000,
    signature:
      'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
  },
  randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
  commitment: '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
  entropy: 'ae589ae8308b3a0b682116ae73b0ef127f386ec94a08aa83a0c978fed8b40c6a',
  first20: 'QC 2C TC 3S KD 8D 2C KC 9S 4S 7S KH 7H 6H TS TD KS TD 7C 5H',
  last5: '4H 4S 6S TH 7H',
  burn: { shown: 'QC', burned: 10 },
  cut: 399,
};

/** §14.3: a key, its certificate, an event, the head after it and its signature. */
const KEY_PRIVATE = 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721';
const V6 = {
  spki: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEYP7UuiVanTHJYet0xjVtaMBJuJI7Yfps5mliLmDyn7Z5A/4QCLi8maQa6elWKLxk8vGyDC1+n1F3o8KU1EYimQ==',
  certificateJcs:
    '{"generation":1,"keyId":"local:vector","previousKeyId":null,"publicKey":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEYP7UuiVanTHJYet0xjVtaMBJuJI7Yfps5mliLmDyn7Z5A/4QCLi8maQa6elWKLxk8vGyDC1+n1F3o8KU1EYimQ==","scheme":"pyb-key/1","validFrom":"2025-01-01T00:00:00.000Z"}',
  certificateSignature:
    'MEYCIQDq3Njr6XNF4uuJnxnA7GhfOl+9K0UK3f3J1/NfEua8fQIhAIniN8u3sgqsvS/yz9fwO2673pvc4vQg0annM7N/0wxA',
  prevHash: 'cd'.repeat(32),
  event: {
    seq: 5,
    type: 'ROUND_SETTLED',
    shoeId: 'shoe-v5',
    roundId: 'rnd-1',
    at: '2025-01-01T20:00:30.000Z',
    data: { settlementsDigest: 'ab'.repeat(32), positions: 2 },
  },
  eventJcs:
    '{"at":"2025-01-01T20:00:30.000Z","data":{"positions":2,"settlementsDigest":"abababababababababababababababababababababababababababababababab"},"roundId":"rnd-1","seq":5,"shoeId":"shoe-v5","type":"ROUND_SETTLED"}',
  eventHash: '4c7bb609a892c6eaae18189665a9a38fc15d7e8d465416d0fc7159cf203e3e5e',
  headJcs:
    '{"at":"2025-01-01T20:00:30.250Z","commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd","head":"4c7bb609a892c6eaae18189665a9a38fc15d7e8d465416d0fc7159cf203e3e5e","keyId":"local:vector","roundId":"rnd-1","scheme":"pyb-head/1","seq":5,"shoeId":"shoe-v5","type":"ROUND_SETTLED"}',
  headSignature:
    'MEUCIQDljwDoIMVB15FKKn6AHr765gWB6p2P2szlmnx4ec1W2QIgcRu5Knxmh4XMb3y1SFOVhkmKF1EaANCXk/J96VcBad0=',
  /** §4.2: what a rotation's time-stamp would cover for this certificate, and its Merkle leaf. */
  rotationDigest: '5f43168f875dc96df7bda886245779011728aba1fa02f2c0b53ae7ff18357f28',
  rotationLeaf: '1c91ed161197976d366d8e613760ed209d439d0812c142ae9f45f385f7970e04',
};

describe('test vector 5: contributions, a quicknet round, the shoe entropy, a burn of ten', () => {
  it('the library gives the documented digest, entropy, cards, burn and cut index', () => {
    expect(canonicalJson(V5.contributions)).toBe(V5.contributionsJcs);
    expect(contributionsDigest(V5.contributions)).toBe(V5.contributionsDigest);
    expect(commitmentOf(hexToBytes(V5.seed))).toBe(V5.commitment);
    const entropy = shoeEntropy({
      shoeId: V5.shoe,
      commitment: V5.commitment,
      contributions: V5.contributionsDigest,
      beacon: V5.beacon,
    });
    expect(entropy).toBe(V5.entropy);
    const shoe = library(V5.seed, entropy, V5.shoe, 8, 14, 20);
    expect(shoe.order.slice(0, 20).join(' ')).toBe(V5.first20);
    expect(shoe.order.slice(-5).join(' ')).toBe(V5.last5);
    expect(shoe.burn).toEqual(V5.burn);
    expect(shoe.cutIndex).toBe(V5.cut);
  });

  it('the independent implementation agrees, and checks the round with drand’s key', () => {
    expect(independentContributionsDigest(V5.contributions)).toBe(V5.contributionsDigest);
    expect(independentBeaconOk(QUICKNET.publicKey, V5.beacon.round, V5.beacon.signature)).toBe(true);
    expect(independentBeaconOk(QUICKNET.publicKey, V5.beacon.round + 1, V5.beacon.signature)).toBe(false);
    const entropy = independentEntropy(V5.shoe, V5.commitment, V5.contributionsDigest, V5.beacon);
    expect(entropy).toBe(V5.entropy);
    const shoe = independentShoe(V5.seed, entropy, V5.shoe, 8, 14, 20);
    expect(shoe.order.slice(0, 20).join(' ')).toBe(V5.first20);
    expect(shoe.burn).toEqual(V5.burn);
    expect(shoe.firstCoupAt).toBe(11);
  });
});

describe('test vector 6: a key certificate, an event hash and a signed head', () => {
  const certificate = keyCertificate({
    keyId: 'local:vector',
    generation: 1,
    spki: base64ToBytes(V6.spki),
    validFrom: '2025-01-01T00:00:00.000Z',
    previousKeyId: null,
  });
  const head: HeadStatement = JSON.parse(V6.headJcs);

  it('bytes: the certificate, the event and the head as RFC 8785 JSON; the event hash', () => {
    expect(new TextDecoder().decode(keyCertificateBytes(certificate))).toBe(V6.certificateJcs);
    expect(canonicalJson(V6.event)).toBe(V6.eventJcs);
    expect(jcs(V6.event)).toBe(V6.eventJcs);
    expect(eventHash(V6.prevHash, V6.event)).toBe(V6.eventHash);
    expect(independentEventHash(V6.prevHash, V6.event)).toBe(V6.eventHash);
    expect(new TextDecoder().decode(headStatementBytes(head))).toBe(V6.headJcs);
    const signed = { certificate, signature: V6.certificateSignature };
    expect(bytesToHex(keyCertificateDigest(signed))).toBe(V6.rotationDigest);
    expect(bytesToHex(leafHash(keyCertificateDigest(signed)))).toBe(V6.rotationLeaf);
    expect(independentRotationDigest(signed)).toEqual({ digest: V6.rotationDigest, leaf: V6.rotationLeaf });
  });

  it('signatures: the documented ones verify (library and Node), and are what RFC 6979 signing gives', async () => {
    const spki = base64ToBytes(V6.spki);
    expect((await verifyKeyChain([{ certificate, signature: V6.certificateSignature }])).ok).toBe(true);
    expect(await verifyDerSignature(headStatementBytes(head), base64ToBytes(V6.headSignature), spki)).toBe(
      true,
    );
    expect(independentSignatureOk(JSON.parse(V6.headJcs), V6.headSignature, V6.spki)).toBe(true);
    expect(independentKeys([{ certificate, signature: V6.certificateSignature }])).toHaveLength(1);
    const deterministic = p256.sign(headStatementBytes(head), hexToBytes(KEY_PRIVATE), {
      prehash: true,
      lowS: false,
      format: 'der',
    });
    expect(bytesToBase64(deterministic)).toBe(V6.headSignature);
  });

  it('the statement bytes are the RFC 8785 JSON of the statement, in both implementations', () => {
    const statement = shoeStatement({
      scheme: SHOE_SCHEME,
      shoeId: V5.shoe,
      tableId: 'table-7',
      operatorId: 'op-vector',
      number: 2,
      previous: { shoeId: 'shoe-v5-0', number: 1, closeHead: 'ef'.repeat(32) },
      rulesVersion: 'pyb-rules/1',
      table: tablePreset('mini'),
      commitment: V5.commitment,
      beacon: { ...QUICKNET, marginSeconds: 5 },
      codeVersion: 'git:0123abc',
      createdAt: '2025-01-01T20:00:00.000Z',
      keyId: 'local:vector',
    });
    const text = new TextDecoder().decode(statementBytes(statement));
    expect(text).toBe(jcs(statement));
    expect(text.startsWith('{"beacon":{"chainHash":"52db9ba7')).toBe(true);
  });
});

describe('the example bundle (drand quicknet round 5928395)', () => {
  const bundle = JSON.parse(
    readFileSync(new URL('../examples/shoe-bundle.json', import.meta.url), 'utf8'),
  ) as ShoeBundle;
  const operatorKey = readFileSync(new URL('../examples/operator.pem', import.meta.url), 'utf8');

  it('is verified by the library against its operator key', async () => {
    const { verdict, checks } = await verifyShoe(bundle, { trustedPublicKey: operatorKey });
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(verdict).toBe('verified');
    expect(checks.length).toBeGreaterThan(500);
  });

  it('checks out with the independent implementation too: keys, statement, contributions, beacon, order, chain, heads, close', () => {
    const { statement, audit } = bundle;
    const keys = independentKeys(bundle.keys);
    const keyOf = (keyId: string, at: string) => {
      const key = keys.find((k) => k.keyId === keyId)!;
      const t = Date.parse(at);
      expect(t >= key.from && t < key.until).toBe(true);
      return key.publicKey;
    };
    expect(independentCommitment(bundle.serverSeed)).toBe(statement.commitment);
    expect(
      independentSignatureOk(statement, bundle.signature, keyOf(statement.keyId, statement.createdAt)),
    ).toBe(true);
    expect(independentSignatureOk({ ...statement, decks: 7 }, bundle.signature, keys[0]!.publicKey)).toBe(
      false,
    );

    const events = audit.events.map(
      (e) => e.event as Record<string, unknown> & { data: Record<string, unknown> },
    );
    let prev = statement.commitment;
    audit.events.forEach((e, i) => {
      expect(e.prevHash).toBe(prev);
      expect(independentEventHash(prev, e.event)).toBe(e.hash);
      expect(events[i]!.seq).toBe(i);
      expect(events[i]!.shoeId).toBe(statement.shoeId);
      prev = e.hash;
    });
    expect(audit.close.head).toBe(prev);
    expect(
      independentSignatureOk(audit.close, audit.signature, keyOf(audit.close.keyId, audit.close.closedAt)),
    ).toBe(true);

    const closed = events.find((e) => e.type === 'CONTRIBUTIONS_CLOSED')!;
    const digestOf = independentContributionsDigest(bundle.contributions);
    expect(closed.data.digest).toBe(digestOf);
    const { beacon } = statement;
    expect(
      independentBeaconRound(beacon.genesisTime, beacon.period, closed.at as string, beacon.marginSeconds),
    ).toBe(bundle.beacon.round);
    expect(independentBeaconOk(beacon.publicKey, bundle.beacon.round, bundle.beacon.signature)).toBe(true);

    for (const round of bundle.rounds) {
      const types = events.filter((e) => e.roundId === round.roundId).map((e) => e.type as string);
      expect(independentRoundOrderOk(types, round.status)).toBe(true);
    }
    for (const h of bundle.heads) {
      const s = h.statement;
      expect(audit.events[s.seq]!.hash).toBe(s.head);
      expect(independentSignatureOk(s, h.signature, keyOf(s.keyId, s.at))).toBe(true);
    }

    const entropy = independentEntropy(statement.shoeId, statement.commitment, digestOf, {
      chainHash: beacon.chainHash,
      round: bundle.beacon.round,
      signature: bundle.beacon.signature,
    });
    const shoe = independentShoe(
      bundle.serverSeed,
      entropy,
      statement.shoeId,
      statement.decks,
      statement.cutCard.minCardsBehind,
      statement.cutCard.maxCardsBehind,
    );
    expect(shoe.cutIndex).toBe(bundle.cutIndex);
    expect(shoe.burn).toEqual(bundle.burn);
    for (const round of bundle.rounds) {
      if (!round.coup) continue;
      expect(round.coup.cards).toEqual(
        shoe.order.slice(round.coup.start, round.coup.start + round.coup.cards.length),
      );
    }
  });

  it('the whole independent verifier (§4.2, §5, §11 from the doc) passes it and its proof, and trusts only the given key', () => {
    const proof = JSON.parse(readFileSync(new URL('../examples/shoe-proof.json', import.meta.url), 'utf8'));
    expect(independentVerify(bundle, { trustedKeys: [operatorKey] })).toEqual([]);
    expect(independentVerify(proof, { trustedKeys: [operatorKey] })).toEqual([]);
    expect(independentVerify(proof, { trustedKeys: [] })).toEqual(['keys.trusted']);
    const receipt = bundle.heads[7]!;
    expect(independentVerify(bundle, { trustedKeys: [operatorKey], receipts: [receipt] })).toEqual([]);
    const moved = { ...receipt, statement: { ...receipt.statement, seq: receipt.statement.seq - 1 } };
    expect(independentVerify(bundle, { trustedKeys: [operatorKey], receipts: [moved] })).toEqual([
      'receipt.1',
    ]);
  });

  it('the independent JCS agrees with the library on the statement and the events', () => {
    expect(jcs(bundle.statement)).toBe(canonicalJson(bundle.statement));
    for (const e of bundle.audit.events.slice(0, 20)) expect(jcs(e.event)).toBe(canonicalJson(e.event));
  });
});
