/**
 * The pyb-shoe/3 test vectors (docs/provably-fair.md §15.9): their inputs, how the library computes
 * what they print, and the text the doc shows. `npx tsx packages/fairness/test/make-v3-vectors.ts`
 * writes test/fixtures/shoe-v3-vectors.json from them; v3-vectors.test.ts holds the library, the
 * independent implementation and the doc to that file.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { formatCard } from '@pyb/engine';
import {
  bytesToHex,
  type DrawBeacon,
  fieldsMessage,
  hexToBytes,
  openFields,
  QUICKNET,
  replayShoeV3,
  type ShoeInputsV3,
  type ShoeStepV3,
  shoeEntropyV3,
  stepFields,
} from '../src/index';

export interface V3VectorInput {
  name: string;
  serverSeed: string;
  shoeId: string;
  decks: number;
  cutCard: { minCardsBehind: number; maxCardsBehind: number };
  afterCutCard: 'FINISH_COUP' | 'ONE_MORE_COUP';
  /** the shoe entropy's inputs (§15.1), or the entropy itself */
  entropy:
    | { contributions: string; beacon: { chainHash: string; round: number; signature: string } }
    | { text: string };
  steps: ShoeStepV3[];
}

const seq = (n: number) => Array.from({ length: n }, (_, i) => i);
const repeat = (byte: number) => byte.toString(16).padStart(2, '0').repeat(32);

export const V3_VECTOR_INPUTS: V3VectorInput[] = [
  {
    name: 'vector 7',
    serverSeed: bytesToHex(Uint8Array.from(seq(32))),
    shoeId: 'shoe-v3-1',
    decks: 8,
    cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
    afterCutCard: 'FINISH_COUP',
    entropy: {
      // §14.2's contributions and quicknet round 1000, as drand published it
      contributions: '4b05921f014d653679bd7a1d6021edd59479975e996bf5730a88c07ceed7cebd',
      beacon: {
        chainHash: QUICKNET.chainHash,
        round: 1000,
        signature:
          'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
      },
    },
    steps: [
      // quicknet round 657413 as published; the next two are made-up randomness (any 32 bytes will do)
      {
        kind: 'COUP',
        beacon: {
          round: 657413,
          randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
        },
      },
      { kind: 'BURN', beacon: { round: 657414, randomness: repeat(0x22) } },
      { kind: 'COUP', beacon: { round: 657415, randomness: repeat(0x33) } },
    ],
  },
  {
    name: 'vector 8',
    serverSeed: 'ff'.repeat(32),
    shoeId: 'b',
    decks: 1,
    cutCard: { minCardsBehind: 12, maxCardsBehind: 35 },
    afterCutCard: 'ONE_MORE_COUP',
    entropy: { text: '0'.repeat(64) },
    // step k: round 2000 + k, randomness (k + 1) × 32; step 2 burns
    steps: seq(12).map((k) => ({
      kind: k === 2 ? 'BURN' : 'COUP',
      beacon: { round: 2000 + k, randomness: repeat(k + 1) },
    })),
  },
];

export function v3Inputs(v: V3VectorInput): ShoeInputsV3 & { commitment: string } {
  const serverSeed = hexToBytes(v.serverSeed);
  const commitment = bytesToHex(sha256(serverSeed));
  const entropy =
    'text' in v.entropy
      ? v.entropy.text
      : shoeEntropyV3({
          shoeId: v.shoeId,
          commitment,
          contributions: v.entropy.contributions,
          beacon: v.entropy.beacon,
        });
  return {
    serverSeed,
    commitment,
    entropy,
    shoeId: v.shoeId,
    decks: v.decks,
    cutCard: v.cutCard,
    afterCutCard: v.afterCutCard,
  };
}

const u32s = (block: Uint8Array, n: number) =>
  seq(n).map((i) => new DataView(block.buffer, block.byteOffset).getUint32(4 * i, false));

/** What a vector prints: the first block of each stream, and every card. */
export function computeV3Vector(v: V3VectorInput) {
  const inputs = v3Inputs(v);
  const key = inputs.serverSeed;
  const open = fieldsMessage(openFields(inputs.entropy, inputs.shoeId), 0);
  const openBlock = hmac(sha256, key, open);
  // the steps up to the end of the shoe (a vector lists more rounds than a one-deck shoe may need)
  let replay = replayShoeV3(inputs, []);
  for (let n = 1; n <= v.steps.length && !replay.state.finished; n++) {
    replay = replayShoeV3(inputs, v.steps.slice(0, n));
  }
  const firstStepFields = (beacon: DrawBeacon) =>
    fieldsMessage(stepFields('coup', inputs.entropy, inputs.shoeId, 0, replay.start.cursor, beacon), 0);
  const coupMsg = firstStepFields(v.steps[0]!.beacon);
  const coupBlock = hmac(sha256, key, coupMsg);
  return {
    name: v.name,
    commitment: inputs.commitment,
    entropy: inputs.entropy,
    open: {
      msg0: bytesToHex(open),
      block0: bytesToHex(openBlock),
      draws: u32s(openBlock, 8),
      shown: formatCard(replay.start.burn.shown),
      burned: replay.start.burn.cards.map(formatCard),
      cardsBehind: replay.start.cardsBehind,
      cutIndex: replay.start.cutIndex,
      firstCoupAt: replay.start.cursor,
    },
    coup0: { msg0: bytesToHex(coupMsg), block0: bytesToHex(coupBlock), draws: u32s(coupBlock, 8) },
    steps: replay.steps.map((s) => ({
      kind: s.kind,
      index: s.kind === 'COUP' ? s.index : null,
      start: s.start,
      cards: s.cards.map(formatCard),
      winner: s.kind === 'COUP' ? s.result.winner : null,
      cutCardOut: s.cutCardOut,
      last: s.last,
    })),
    finished: replay.state.finished,
    cardsLeft: replay.state.left.reduce((a, n) => a + n, 0),
  };
}

export type V3Vector = ReturnType<typeof computeV3Vector>;

/** The lines the doc prints for a vector (§15.9), in a fenced block. */
export function renderV3Vector(v: V3Vector): string {
  const lines = [
    `commitment     ${v.commitment}`,
    `entropy        ${v.entropy}`,
    `open msg(0)    ${v.open.msg0}`,
    `open block(0)  ${v.open.block0}`,
    `open draws     ${v.open.draws.slice(0, 4).join(', ')}, …`,
    `burn           ${v.open.shown} shown, burns ${v.open.burned.join(' ')}`,
    `cut card       ${v.open.cardsBehind} behind (cut index ${v.open.cutIndex}); first coup at card ${v.open.firstCoupAt}`,
    `coup 0 msg(0)  ${v.coup0.msg0}`,
    `coup 0 block(0) ${v.coup0.block0}`,
    `coup 0 draws   ${v.coup0.draws.slice(0, 6).join(', ')}`,
    ...v.steps.map((s) => {
      const what = s.kind === 'COUP' ? `coup ${s.index}` : 'burn  ';
      const tail = [s.winner ?? 'burned', s.cutCardOut ? 'cut card out' : '', s.last ? 'last' : '']
        .filter(Boolean)
        .join(', ');
      return `${what.padEnd(7)} @${String(s.start).padEnd(4)} ${s.cards.join(' ').padEnd(17)} ${tail}`;
    }),
    `after          ${v.finished ? 'finished' : 'not finished'}, ${v.cardsLeft} cards left`,
  ];
  return ['```', ...lines, '```'].join('\n');
}

/** The fixture `make-v3-vectors.ts` writes: each vector's input and what it prints. */
export const buildV3Fixture = () =>
  V3_VECTOR_INPUTS.map((input) => ({ input, expected: computeV3Vector(input) }));
