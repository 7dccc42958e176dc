/**
 * A second implementation of docs/provably-fair.md, written from the document alone: Node's crypto,
 * no code shared with packages/fairness or packages/engine. If the two ever disagree, one of them
 * (or the document) is wrong. The one exception is the BLS12-381 pairing check of a beacon round:
 * Node has no BLS, so it calls @noble/curves directly (the library §5 names), not our wrapper.
 */
import {
  type Certificate,
  independentBeaconOk,
  independentBeaconRound,
  independentCommitment,
  independentContributionsDigest,
  independentEntropy,
  independentEventHash,
  independentKeys,
  independentPublishedMs,
  independentRotationDigest,
  independentRoundOrderOk,
  independentSignatureOk,
  jcs,
  jcsSha256,
  spki,
} from './independent-crypto';
import { type DigestEvidence, independentDigestChecks } from './independent-digests';
import { independentReceipts } from './independent-receipts';
import { independentShoe } from './independent-shoe';
import { type Anchor, independentAnchorTimes } from './independent-timestamps';
import { independentDealV3 } from './independent-v3';
import { independentVoidChecks, independentVoidChecksV3, type VoidEvidence } from './independent-voids';

export * from './independent-crypto';
export * from './independent-digests';
export * from './independent-shoe';
export * from './independent-timestamps';
export * from './independent-v3';

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
  anchors?: readonly (Anchor & { seq: number })[];
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
    /** PEM certificates of the time-stamp authorities the caller pins (docs/time-stamps.md §2). */
    trustedTsas?: readonly string[];
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
  // §4.2 each rotation signs only from its outside time-stamp (the later of validFrom and the earliest
  // genTime − accuracy of a token by a pinned TSA); no stamp, or no pinned TSA, fails keys.stamped.
  const pinnedTsas = options.trustedTsas ?? [];
  for (const [i, k] of keys.entries()) {
    if (i === 0) continue;
    const entry = e.keys[i]!;
    const times = entry.anchor
      ? independentAnchorTimes(entry.anchor, independentRotationDigest(entry).digest, pinnedTsas)
      : [];
    if (times.length > 0) k.from = Math.max(k.from, Math.min(...times.map((t) => t.genTime - t.accuracyMs)));
    if (times.length === 0 || k.from >= k.until) fail('keys.stamped');
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
  // §15.11 in pyb-shoe/3 each head naming a beacon round is stamped, by a pinned TSA, strictly
  // before that round's publication (genTime + accuracy < genesis + (round − 1) · period).
  if (v3) {
    const numberOf = new Map(e.rounds.map((r) => [r.roundId, r.number]));
    for (const h of e.heads) {
      const s = h.statement;
      if (s.type !== 'CONTRIBUTIONS_CLOSED' && s.type !== 'BETTING_CLOSED') continue;
      const label = s.roundId
        ? `heads.round.${numberOf.get(s.roundId)}.betting.timestamp`
        : 'heads.contributions.timestamp';
      const named = Number(events[s.seq]?.data.beaconRound);
      const published = independentPublishedMs(statement.beacon.genesisTime, statement.beacon.period, named);
      const anchor = e.anchors?.find((a) => a.seq === s.seq);
      const digest = jcsSha256({ statement: s, signature: h.signature });
      const times = anchor ? independentAnchorTimes(anchor, digest, pinnedTsas) : [];
      if (!(named >= 1) || !times.some((t) => t.genTime + t.accuracyMs < published)) fail(label);
    }
  }
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
