/**
 * pyb-shoe/3 (docs/provably-fair.md §15) written from the document alone, like independent.ts: Node's
 * crypto, no code of packages/fairness or packages/engine — the tableau included (docs/rules.md, the
 * third-card table of seed 000), since how many cards a coup draws is part of the draw.
 */
import { createHash } from 'node:crypto';
import { fieldStream } from './independent-shoe';

const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
const notation = (card: number) => RANKS[card % 13]! + SUITS[Math.floor(card / 13)]!;
const points = (card: number) => (card % 13 < 9 ? (card % 13) + 1 : 0);
const burnCount = (card: number) => (card % 13 < 9 ? (card % 13) + 1 : 10);

/** §15.3 */
function draw(left: number[], uniform: (n: number) => number): number {
  const n = left.reduce((a, b) => a + b, 0);
  if (n === 0) throw new Error('NOT_ENOUGH_CARDS');
  let j = uniform(n);
  for (let c = 0; c < 52; c++) {
    if (j < left[c]!) {
      left[c]!--;
      return c;
    }
    j -= left[c]!;
  }
  throw new Error('unreachable');
}

// Banca's third card (seed 000): row = Banca's two-card total 0..7, column = Punto's third card 0..9
const BANCA_DRAWS = [
  '1111111111',
  '1111111111',
  '1111111111',
  '1111111101',
  '0011111100',
  '0000111100',
  '0000001100',
  '0000000000',
];

/** §15.5: the tableau, asking `next()` for each card when it needs it. */
function tableau(next: () => number) {
  const p = [next()];
  const b = [next()];
  p.push(next());
  b.push(next());
  const total = (h: number[]) => h.reduce((a, c) => a + points(c), 0) % 10;
  const p2 = total(p);
  const b2 = total(b);
  if (p2 < 8 && b2 < 8) {
    let third: number | null = null;
    if (p2 <= 5) {
      const card = next();
      p.push(card);
      third = points(card);
    }
    const bancaDraws = third === null ? b2 <= 5 : BANCA_DRAWS[b2]?.[third] === '1';
    if (bancaDraws) b.push(next());
  }
  const pt = total(p);
  const bt = total(b);
  return { winner: pt > bt ? 'PLAYER' : bt > pt ? 'BANKER' : 'TIE', cardsUsed: p.length + b.length };
}

export interface IndependentV3Step {
  kind: 'COUP' | 'BURN';
  beacon: { round: number; randomness: string };
}

export interface IndependentV3Shoe {
  shown: string;
  burned: string[];
  cardsBehind: number;
  cutIndex: number;
  steps: {
    kind: 'COUP' | 'BURN';
    index: number | null;
    start: number;
    cards: string[];
    winner: string | null;
    cutCardOut: boolean;
    last: boolean;
  }[];
  finished: boolean;
  cardsLeft: number;
}

/** §15.1: the shoe entropy of pyb-shoe/3 (JCS by hand: every key and value here is plain ASCII). */
export function independentEntropyV3(
  shoeId: string,
  commitment: string,
  contributions: string,
  beacon: { chainHash: string; round: number; signature: string },
): string {
  const randomness = createHash('sha256').update(Buffer.from(beacon.signature, 'hex')).digest('hex');
  const json =
    `{"beacon":{"chainHash":${JSON.stringify(beacon.chainHash)},"randomness":"${randomness}","round":${beacon.round}},` +
    `"commitment":${JSON.stringify(commitment)},"contributions":${JSON.stringify(contributions)},` +
    `"scheme":"pyb-shoe/3","shoeId":${JSON.stringify(shoeId)}}`;
  return createHash('sha256').update(json, 'utf8').digest('hex');
}

/**
 * §15.4–§15.6: the start, then each step in order, until the steps run out or the shoe ends (a step
 * after the end is an error, as is a coup with no card left).
 */
export function independentShoeV3(
  serverSeedHex: string,
  entropy: string,
  shoeId: string,
  decks: number,
  minBehind: number,
  maxBehind: number,
  afterCutCard: 'FINISH_COUP' | 'ONE_MORE_COUP',
  steps: readonly IndependentV3Step[],
): IndependentV3Shoe {
  const key = Buffer.from(serverSeedHex, 'hex');
  const E = Buffer.from(entropy, 'utf8');
  const S = Buffer.from(shoeId, 'utf8');
  const total = 52 * decks;
  const left = new Array<number>(52).fill(decks);
  const open = fieldStream(key, [Buffer.from('pyb-shoe/3 open'), E, S]);
  const shown = draw(left, open);
  const burned = Array.from({ length: burnCount(shown) }, () => draw(left, open));
  const cardsBehind = minBehind + open(maxBehind - minBehind + 1);
  const cutIndex = total - cardsBehind;
  let cursor = 1 + burned.length;
  let coups = 0;
  let finished = false;
  const out: IndependentV3Shoe['steps'] = [];
  for (const step of steps) {
    if (finished) throw new Error('the shoe is finished');
    const P = Buffer.alloc(48);
    P.writeUInt32BE(coups, 0);
    P.writeUInt32BE(cursor, 4);
    P.writeBigUInt64BE(BigInt(step.beacon.round), 8);
    Buffer.from(step.beacon.randomness, 'hex').copy(P, 16);
    const tag = step.kind === 'COUP' ? 'pyb-shoe/3 coup' : 'pyb-shoe/3 burn';
    const uniform = fieldStream(key, [Buffer.from(tag), E, S, P]);
    const cards: number[] = [];
    const coup = tableau(() => {
      const card = draw(left, uniform);
      cards.push(card);
      return card;
    });
    const start = cursor;
    const cutCardOut = start <= cutIndex && cutIndex < start + coup.cardsUsed;
    // §7: the cut coup is the last (FINISH_COUP) or the one after it is (ONE_MORE_COUP)
    const cutPassed = start + coup.cardsUsed > cutIndex;
    const last = cutPassed && (afterCutCard === 'FINISH_COUP' || start > cutIndex);
    out.push({
      kind: step.kind,
      index: step.kind === 'COUP' ? coups : null,
      start,
      cards: cards.map(notation),
      winner: step.kind === 'COUP' ? coup.winner : null,
      cutCardOut,
      last,
    });
    cursor += coup.cardsUsed;
    if (step.kind === 'COUP') coups++;
    finished = last;
  }
  return {
    shown: notation(shown),
    burned: burned.map(notation),
    cardsBehind,
    cutIndex,
    steps: out,
    finished,
    cardsLeft: left.reduce((a, b) => a + b, 0),
  };
}

interface EvidenceV3 {
  statement: {
    shoeId: string;
    commitment: string;
    decks: number;
    cutCard: { minCardsBehind: number; maxCardsBehind: number };
    table?: unknown;
    beacon: {
      chainHash: string;
      publicKey: string;
      genesisTime: number;
      period: number;
      marginSeconds: number;
    };
  };
  serverSeed: string;
  beacon: { round: number; signature: string };
  cutIndex: number;
  burn: { shown: string; burned: number; cards?: readonly string[] };
  rounds: readonly {
    roundId: string;
    number: number;
    status: 'SETTLED' | 'VOIDED';
    coup: null | { start: number; cards: readonly string[]; beacon?: { round: number; signature: string } };
    burned?: { start: number; cards: readonly string[]; beacon?: { round: number; signature: string } };
  }[];
}

type Beacon = { round: number; signature: string };
type ChainEvent = Record<string, unknown> & { data: Record<string, unknown> };

/**
 * §15.11 over a bundle or proof of a pyb-shoe/3 shoe: each coup's and burn's round signed
 * (`round.N.beacon`, by `beaconOk`) and the one its BETTING_CLOSED named by §5.3's formula
 * (`round.N.beacon-named`), recorded as such in the chain (`audit.round.N.dealt` / `.burned`); then
 * the start and every step re-drawn by §15.4–§15.6 (`shoe.start`, `round.N.cards`, `round.N.burn.cards`).
 */
export function independentDealV3(
  e: EvidenceV3,
  events: readonly ChainEvent[],
  contributionsDigest: string,
  beaconOk: (publicKey: string, round: number, signature: string) => boolean,
  roundAfter: (genesis: number, period: number, at: string, margin: number) => number,
  fail: (id: string) => void,
): void {
  const { statement } = e;
  const net = statement.beacon;
  const randomness = (b: Beacon) =>
    createHash('sha256').update(Buffer.from(b.signature, 'hex')).digest('hex');
  const steps: (IndependentV3Step & { id: string; start: number; cards: readonly string[] })[] = [];
  for (const round of e.rounds) {
    const own = events.filter((ev) => ev.roundId === round.roundId);
    const closed = own.find((ev) => ev.type === 'BETTING_CLOSED');
    const step =
      round.status === 'SETTLED' && round.coup
        ? { kind: 'COUP' as const, id: `round.${round.number}`, of: round.coup, event: 'COUP_DEALT' }
        : round.burned
          ? {
              kind: 'BURN' as const,
              id: `round.${round.number}.burn`,
              of: round.burned,
              event: 'ROUND_VOIDED',
            }
          : undefined;
    if (!step) continue;
    const beacon = step.of.beacon;
    if (!beacon) {
      fail(`round.${round.number}.beacon`);
      continue;
    }
    if (!beaconOk(net.publicKey, beacon.round, beacon.signature)) fail(`round.${round.number}.beacon`);
    if (
      !closed ||
      closed.data.beaconRound !== beacon.round ||
      roundAfter(net.genesisTime, net.period, String(closed.at), net.marginSeconds) !== beacon.round
    )
      fail(`round.${round.number}.beacon-named`);
    const recordedEvent = own.find((ev) => ev.type === step.event);
    const data = recordedEvent?.data;
    const recorded = (step.kind === 'COUP' ? data?.beacon : (data?.burned as ChainEvent['data'])?.beacon) as
      | (Beacon & { randomness?: string })
      | undefined;
    const publishedMs = (net.genesisTime + (beacon.round - 1) * net.period) * 1000;
    if (
      recorded?.round !== beacon.round ||
      recorded.signature !== beacon.signature ||
      recorded.randomness !== randomness(beacon) ||
      Date.parse(String(recordedEvent?.at)) < publishedMs
    )
      fail(`audit.round.${round.number}.${step.kind === 'COUP' ? 'dealt' : 'burned'}`);
    steps.push({
      kind: step.kind,
      beacon: { round: beacon.round, randomness: randomness(beacon) },
      id: step.id,
      start: step.of.start,
      cards: step.of.cards,
    });
  }
  const entropy = independentEntropyV3(statement.shoeId, statement.commitment, contributionsDigest, {
    chainHash: net.chainHash,
    round: e.beacon.round,
    signature: e.beacon.signature,
  });
  const afterCutCard = (statement.table as { afterCutCard?: 'FINISH_COUP' | 'ONE_MORE_COUP' } | undefined)
    ?.afterCutCard;
  // Step by step, so a step the shoe cannot deal (past its end) fails by its own name.
  let shoe: IndependentV3Shoe | undefined;
  for (let k = 0; k <= steps.length; k++) {
    try {
      shoe = independentShoeV3(
        e.serverSeed,
        entropy,
        statement.shoeId,
        statement.decks,
        statement.cutCard.minCardsBehind,
        statement.cutCard.maxCardsBehind,
        afterCutCard ?? 'FINISH_COUP',
        steps.slice(0, k),
      );
    } catch {
      fail(`${steps[k - 1]!.id}.cards`);
      break;
    }
  }
  if (!shoe) return;
  if (
    shoe.shown !== e.burn.shown ||
    shoe.burned.join() !== (e.burn.cards ?? []).join() ||
    shoe.burned.length !== e.burn.burned ||
    shoe.cutIndex !== e.cutIndex
  )
    fail('shoe.start');
  shoe.steps.forEach((dealt, i) => {
    const step = steps[i]!;
    if (dealt.start !== step.start || dealt.cards.join() !== step.cards.join()) fail(`${step.id}.cards`);
  });
}
