/**
 * Builds a complete, correctly signed pyb-shoe/2 (or pyb-shoe/3, demo-v3.ts) bundle for a simulated shoe, with the audit events
 * the platform writes (docs/provably-fair.md §11): the reference for what the audit export produces,
 * the source of the example bundle in the docs (make-example.ts), and a fixture for tests, which then
 * forge it the way an insider would. Test code: it left the library (which ships to the browser) for
 * test support; other packages' tests take it from `@pyb/fairness/test-helpers`. Signers are injected
 * (a test key, or KMS), so it stays pure.
 */
import { betList, formatCard, nextCoup, settle, startShoe, type TableConfig } from '@pyb/engine';
import { eventHash } from '../src/audit';
import { type BeaconNetwork, beaconRandomness, beaconRoundAfter, roundTime } from '../src/beacon';
import {
  BUNDLE_FORMAT,
  type RecordedPosition,
  type RecordedRound,
  recordedCoup,
  type ShoeBundle,
} from '../src/bundle';
import { bytesToBase64, bytesToHex } from '../src/bytes';
import {
  type Contribution,
  type ContributionKind,
  contributionsDigest,
  type EntropyInputs,
  shoeEntropy,
} from '../src/entropy';
import {
  HEAD_SCHEME,
  type HeadStatement,
  headStatementBytes,
  type SignedHead,
  type SignedHeadEvent,
} from '../src/heads';
import {
  keyCertificate,
  keyCertificateBytes,
  keyCertificateDigest,
  type SignedKeyCertificate,
} from '../src/keys';
import {
  betsDigest,
  commissionRecord,
  refundsDigest,
  saltCommitmentOf,
  saltedDigest,
  settlementsDigest,
} from '../src/salted';
import { dealShoe } from '../src/shoe';
import { parsePublicKey } from '../src/signature';
import {
  closeStatementBytes,
  commitmentOf,
  type PreviousOpenedShoe,
  type PreviousShoe,
  RULES_VERSION,
  SHOE_CLOSE_SCHEME,
  SHOE_SCHEME,
  SHOE_SCHEME_V3,
  type ShoeCloseStatement,
  type ShoeScheme,
  shoeStatement,
  statementBytes,
} from '../src/statement';
import { voidReport } from '../src/voids';
import {
  type DemoForge,
  type DemoLeaving,
  demoBets,
  demoLeaves,
  demoVoidNote,
  type PlayContext,
  type Played,
} from './demo-play';
import { stampAt } from './demo-tsa';
import { playV3 } from './demo-v3';

type Sign = (message: Uint8Array) => Uint8Array | Promise<Uint8Array>;

/** A signing-key generation: it signs from `validFrom` until the next one's. */
export interface DemoKey {
  keyId: string;
  /** PEM or base64 SPKI. */
  publicKey: string;
  sign: Sign;
  validFrom: string;
  /** Generations after the first: when the rotation's certificate is time-stamped (default 200 ms after validFrom). */
  stampedAt?: string;
}

export interface DemoBeacon {
  network: BeaconNetwork;
  marginSeconds: number;
  /** Signs a round (a beacon of our own); or give `round` and `signature` of a published round. */
  sign?: (round: number) => string;
  round?: number;
  signature?: string;
}

export interface DemoBundleInput {
  serverSeed: Uint8Array;
  shoeId: string;
  tableId: string;
  operatorId: string;
  table: TableConfig;
  number?: number;
  previous?: PreviousShoe | null;
  /** The shoe opened before this one (statement.ts PreviousOpenedShoe); left out by default (an older statement). */
  previousOpened?: PreviousOpenedShoe | null;
  codeVersion?: string;
  /** ISO time the shoe opened; later events follow one second apart. */
  createdAt: string;
  /** Key generations, oldest first; each event is signed by the one valid at its time. */
  keys: readonly DemoKey[];
  beacon: DemoBeacon;
  /** Seeds contributed before the first round, in order (default: two players and the operator). */
  contributions?: readonly { kind: ContributionKind; seed: string }[];
  /** Rounds to play (fewer if the cut card ends the shoe first). */
  rounds: number;
  /** 1-based round numbers voided after the bets (no cards dealt, stakes refunded). */
  voided?: readonly number[];
  /** pyb-shoe/2 (the default) or pyb-shoe/3 (demo-v3.ts; needs a beacon that signs). */
  scheme?: ShoeScheme;
  /** pyb-shoe/3: 1-based round numbers voided for a dealer error that burned their cards. */
  burned?: readonly number[];
  /** pyb-shoe/3, for forgeries built as an insider would (demo-v3.ts). */
  forge?: DemoForge;
  /**
   * hex, 32 bytes: salt the digests (salted.ts) — the statement commits to it, the bundle carries it.
   * Without it the shoe is one opened before digests were salted (the examples are).
   */
  digestSalt?: string;
  /** The note of every voided round. */
  voidNote?: string;
  /** A player who leaves after a round, paying his deferred commission (PLAYER_LEFT). */
  leaving?: DemoLeaving;
}

export const DEMO_CONTRIBUTIONS: readonly { kind: ContributionKind; seed: string }[] = [
  { kind: 'PLAYER', seed: 'lucky 7 from seat 3' },
  { kind: 'PLAYER', seed: 'ñandú 🂡' },
  { kind: 'OPERATOR', seed: 'table 7, evening session' },
];

/**
 * Certificates of the key generations: the first signs its own, each later one is signed by the one
 * before and time-stamped by the demo TSA (demo-tsa.ts).
 */
export async function demoKeyCertificates(keys: readonly DemoKey[]): Promise<SignedKeyCertificate[]> {
  const out: SignedKeyCertificate[] = [];
  for (const [i, key] of keys.entries()) {
    const certificate = keyCertificate({
      keyId: key.keyId,
      generation: i + 1,
      spki: parsePublicKey(key.publicKey),
      validFrom: key.validFrom,
      previousKeyId: i === 0 ? null : keys[i - 1]!.keyId,
    });
    const signer = i === 0 ? key : keys[i - 1]!;
    const signed = {
      certificate,
      signature: bytesToBase64(await signer.sign(keyCertificateBytes(certificate))),
    };
    // A rotation is witnessed from outside, as the platform does it (keys.ts, keyCertificateDigest).
    const stampedAt = key.stampedAt ? Date.parse(key.stampedAt) : Date.parse(key.validFrom) + 200;
    out.push(
      i === 0 ? signed : { ...signed, anchor: await stampAt(keyCertificateDigest(signed), stampedAt) },
    );
  }
  return out;
}

export async function buildDemoBundle(input: DemoBundleInput): Promise<ShoeBundle> {
  const { table, shoeId } = input;
  const keyAt = (at: string): DemoKey => {
    const t = Date.parse(at);
    const key = input.keys.findLast((k) => Date.parse(k.validFrom) <= t);
    if (!key) throw new Error(`no key is valid at ${at}`);
    return key;
  };
  const sign = async (at: string, message: Uint8Array) => {
    const key = keyAt(at);
    return { keyId: key.keyId, signature: bytesToBase64(await key.sign(message)) };
  };
  const commitment = commitmentOf(input.serverSeed);
  const statement = shoeStatement({
    scheme: input.scheme ?? SHOE_SCHEME,
    shoeId,
    tableId: input.tableId,
    operatorId: input.operatorId,
    number: input.number ?? 1,
    previous: input.previous ?? null,
    ...(input.previousOpened !== undefined && { previousOpened: input.previousOpened }),
    rulesVersion: RULES_VERSION,
    table,
    commitment,
    beacon: { ...input.beacon.network, marginSeconds: input.beacon.marginSeconds },
    codeVersion: input.codeVersion ?? 'demo',
    ...(input.digestSalt !== undefined && { saltCommitment: saltCommitmentOf(input.digestSalt) }),
    createdAt: input.createdAt,
    keyId: keyAt(input.createdAt).keyId,
  });
  const signature = (await sign(input.createdAt, statementBytes(statement))).signature;

  const events: ShoeBundle['audit']['events'] = [];
  const heads: SignedHead[] = [];
  let clock = Date.parse(input.createdAt);
  const append = (type: string, roundId: string | undefined, data: Record<string, unknown>) => {
    const prevHash = events.length > 0 ? events[events.length - 1]!.hash : commitment;
    const at = new Date(clock).toISOString();
    const event = { seq: events.length, type, shoeId, ...(roundId && { roundId }), at, data };
    events.push({ hash: eventHash(prevHash, event), prevHash, event });
    clock += 1000;
    return event;
  };
  const signHead = async (type: SignedHeadEvent, roundId: string | null) => {
    const last = events[events.length - 1]!;
    const at = last.event.at as string;
    const head: HeadStatement = {
      scheme: HEAD_SCHEME,
      shoeId,
      commitment,
      seq: last.event.seq as number,
      type,
      roundId,
      head: last.hash,
      at,
      keyId: keyAt(at).keyId,
    };
    heads.push({ statement: head, signature: (await sign(at, headStatementBytes(head))).signature });
  };

  append('SHOE_OPENED', undefined, {
    tableId: input.tableId,
    number: statement.number,
    statement,
    signature,
  });
  const contributions: Contribution[] = (input.contributions ?? DEMO_CONTRIBUTIONS).map((c, index) => ({
    index,
    kind: c.kind,
    seed: c.seed,
  }));
  for (const c of contributions) append('SEED_CONTRIBUTED', undefined, { ...c });

  const { beacon } = input;
  const closedAt = new Date(clock).toISOString();
  const round = beaconRoundAfter(beacon.network, closedAt, beacon.marginSeconds);
  if (beacon.round !== undefined && beacon.round !== round) {
    throw new Error(`contributions close at ${closedAt}: the beacon round is ${round}, not ${beacon.round}`);
  }
  const beaconSignature = beacon.signature ?? beacon.sign?.(round);
  if (!beaconSignature) throw new Error('the demo beacon needs a signature or a signer');
  const digestOfContributions = contributionsDigest(contributions);
  append('CONTRIBUTIONS_CLOSED', undefined, {
    count: contributions.length,
    digest: digestOfContributions,
    beaconRound: round,
  });
  await signHead('CONTRIBUTIONS_CLOSED', null);

  // The first coup waits for the beacon round to be published.
  clock = Math.max(clock, roundTime(beacon.network, round) * 1000);
  append('BEACON_RECORDED', undefined, {
    chainHash: beacon.network.chainHash,
    round,
    signature: beaconSignature,
    randomness: beaconRandomness(beaconSignature),
  });
  const entropyInputs: EntropyInputs = {
    shoeId,
    commitment,
    contributions: digestOfContributions,
    beacon: { chainHash: beacon.network.chainHash, round, signature: beaconSignature },
  };
  const play = statement.scheme === SHOE_SCHEME_V3 ? playV3 : playV2;
  const played = await play({
    input,
    entropyInputs,
    append,
    signHead,
    waitUntil: (ms) => {
      clock = Math.max(clock, ms);
    },
    now: () => clock,
  });
  const { rounds, voids } = played;
  const salt = input.digestSalt;
  const { leaving } = input;
  const commission = leaving ? [{ playerId: leaving.playerId, collected: leaving.commission, owed: 0 }] : [];
  const closing = append('SHOE_CLOSED', undefined, {
    serverSeed: bytesToHex(input.serverSeed),
    commitment,
    cutIndex: played.cutIndex,
    rounds: rounds.length,
    coups: played.coups,
    voids: voids.count,
    commission: { digest: saltedDigest(salt, commission.map(commissionRecord)) },
  });

  const close: ShoeCloseStatement = {
    scheme: SHOE_CLOSE_SCHEME,
    shoeId,
    commitment,
    head: events[events.length - 1]!.hash,
    length: events.length,
    closedAt: closing.at,
    keyId: keyAt(closing.at).keyId,
  };
  return {
    format: BUNDLE_FORMAT,
    statement,
    signature,
    keys: await demoKeyCertificates(input.keys),
    serverSeed: bytesToHex(input.serverSeed),
    contributions,
    beacon: { round, signature: beaconSignature },
    cutIndex: played.cutIndex,
    burn: played.burn,
    rounds,
    voids,
    heads,
    audit: {
      events,
      close,
      signature: (await sign(closing.at, closeStatementBytes(close))).signature,
    },
    ...(salt !== undefined && { digestSalt: salt, commission }),
  };
}

/** pyb-shoe/2: the whole order dealt once round R is out, every coup read off it. */
async function playV2(ctx: PlayContext): Promise<Played> {
  const { input, append, signHead } = ctx;
  const { table, shoeId } = input;
  const entropy = shoeEntropy(ctx.entropyInputs);
  const shoe = dealShoe({
    serverSeed: input.serverSeed,
    clientSeed: entropy,
    shoeId,
    decks: table.decks,
    cutCard: table.cutCard,
  });

  const salt = input.digestSalt;
  const rounds: RecordedRound[] = [];
  let state = startShoe(shoe.order);
  let ledgerSeq = 100;
  for (let n = 1; n <= input.rounds && !state.finished; n++) {
    const roundId = `${shoeId}-r${n}`;
    append('ROUND_OPENED', roundId, { tableId: input.tableId, number: n });
    const placed = demoBets(table, n).map((p) => ({
      ...p,
      stake: betList(p.bets).reduce((s, b) => s + b.amount, 0),
      calls: betList(p.bets).length,
    }));
    const open = placed.map((p) => ({ ...p, settlement: null, ledgerSeq: null }));
    append('BETTING_CLOSED', roundId, { betsDigest: betsDigest(open, salt), positions: open.length });
    if (input.voided?.includes(n)) {
      const positions: RecordedPosition[] = placed.map((p) => ({
        ...p,
        settlement: null,
        ledgerSeq: ledgerSeq++,
      }));
      const note = demoVoidNote(input);
      append('ROUND_VOIDED', roundId, {
        reason: 'MISDEAL',
        ...note.event,
        refundsDigest: refundsDigest(positions, salt),
        positions: positions.length,
      });
      await signHead('ROUND_VOIDED', roundId);
      rounds.push({
        roundId,
        number: n,
        status: 'VOIDED',
        voidReason: 'MISDEAL',
        ...note.round,
        coup: null,
        positions,
      });
      continue;
    }
    const coup = nextCoup(table, shoe.order, shoe.cutIndex, state);
    const first = state.coups === 0;
    state = coup.state;
    const { result } = coup;
    append('COUP_DEALT', roundId, {
      index: coup.index,
      start: coup.start,
      cards: Array.from(shoe.order.subarray(coup.start, coup.start + result.cardsUsed)),
      coup: result,
      cutCardOut: coup.cutCardOut,
      last: coup.last,
      ...(first && { burn: shoe.burn }),
    });
    const positions: RecordedPosition[] = placed.map((p) => {
      const settlement = settle(table, betList(p.bets), result);
      return { ...p, settlement, ledgerSeq: settlement.payout > 0 ? ledgerSeq++ : null };
    });
    append('ROUND_SETTLED', roundId, {
      settlementsDigest: settlementsDigest(positions, salt),
      positions: positions.length,
    });
    await signHead('ROUND_SETTLED', roundId);
    rounds.push({
      roundId,
      number: n,
      status: 'SETTLED',
      coup: recordedCoup({ index: coup.index, start: coup.start, result }),
      positions,
    });
    demoLeaves(ctx, n);
  }
  return {
    rounds,
    voids: voidReport(table, shoe, rounds),
    cutIndex: shoe.cutIndex,
    burn: { shown: formatCard(shoe.burn.shown), burned: shoe.burn.burned },
    coups: state.coups,
  };
}
