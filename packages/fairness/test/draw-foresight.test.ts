/**
 * docs/provably-fair.md §15.8: at the instant betting on a coup closes, the platform holds the server
 * seed, the contributions (in the entropy), the shoe's state and every key — but not the randomness
 * of the beacon round named then, which the network publishes later. These tests hold all of that
 * fixed and vary only the randomness. What they show is that the cards are a function of it (and
 * uniform over the cards left as it varies), not that a beacon cannot be predicted: that rests on
 * the drand network (§5.1), and §2 says who could know a round early.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { formatCard } from '@pyb/engine';
import { describe, expect, it } from 'vitest';
import {
  burnV3,
  bytesToHex,
  contributionsDigest,
  drawCoupV3,
  QUICKNET,
  type ShoeStateV3,
  shoeEntropyV3,
  startShoeV3,
  utf8ToBytes,
} from '../src/index';
import { chiSquareQuantile } from './v3-shoes';

/** Everything the platform has at "no va más" on coup 10 of a shoe: seed, entropy, state. */
function atNoVaMas() {
  const serverSeed = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
  const shoeId = 'shoe-foresight';
  const commitment = bytesToHex(sha256(serverSeed));
  const contributions = contributionsDigest([
    { index: 0, kind: 'PLAYER', seed: 'seat 3' },
    { index: 1, kind: 'OPERATOR', seed: 'table-7-evening' },
  ]);
  const entropy = shoeEntropyV3({
    shoeId,
    commitment,
    contributions,
    beacon: { chainHash: QUICKNET.chainHash, round: 1000, signature: 'ab'.repeat(48) },
  });
  let state: ShoeStateV3 = startShoeV3({
    serverSeed,
    entropy,
    shoeId,
    decks: 8,
    cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
    afterCutCard: 'FINISH_COUP',
  });
  for (let k = 0; k < 10; k++) {
    state = drawCoupV3(serverSeed, state, {
      beacon: { round: 2000 + k, randomness: hex32(`past ${k}`) },
    }).state;
  }
  return { serverSeed, state };
}

const hex32 = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));
const ROUND = 2010; // the round named at "no va más": same number, only its randomness varies

describe('pyb-shoe/3: at "no va más" the coup is not yet fixed by anything the platform holds', () => {
  it('the draw cannot be called without the round: no beacon, or a round without randomness, is refused', () => {
    const { serverSeed, state } = atNoVaMas();
    // @ts-expect-error the step is required
    expect(() => drawCoupV3(serverSeed, state)).toThrow();
    // @ts-expect-error so is the round's randomness
    expect(() => drawCoupV3(serverSeed, state, { beacon: { round: ROUND } })).toThrow();
    // @ts-expect-error and for a dealer-error burn
    expect(() => burnV3(serverSeed, state, {})).toThrow();
    expect(() => drawCoupV3(serverSeed, state, { beacon: { round: ROUND, randomness: '' } })).toThrow(
      /randomness/,
    );
  });

  it('same seed, contributions, state and round number: two randomness values give different cards in 1 000 of 1 000 trials', () => {
    const { serverSeed, state } = atNoVaMas();
    const cardsOf = (randomness: string) =>
      drawCoupV3(serverSeed, state, { beacon: { round: ROUND, randomness } })
        .cards.map(formatCard)
        .join(' ');
    let differ = 0;
    for (let t = 0; t < 1000; t++) if (cardsOf(hex32(`a ${t}`)) !== cardsOf(hex32(`b ${t}`))) differ++;
    // a repeat needs 4 to 6 equal cards: about 52⁻⁴ per trial, so none is expected in 1 000
    expect(differ).toBe(1000);
    // and the state the platform holds is not changed by drawing (it can try, it learns nothing new)
    expect(atNoVaMas().state).toEqual(state);
  });

  it('as the randomness varies (5 200 values), the first card is uniform over the cards left (χ², 0.9999)', () => {
    const { serverSeed, state } = atNoVaMas();
    const draws = 5200;
    const counts = new Array<number>(52).fill(0);
    for (let t = 0; t < draws; t++) {
      const coup = drawCoupV3(serverSeed, state, { beacon: { round: ROUND, randomness: hex32(`u ${t}`) } });
      counts[coup.cards[0]!]!++;
    }
    const left = state.left.reduce((a, n) => a + n, 0);
    let x = 0;
    let faces = 0;
    state.left.forEach((copies, card) => {
      if (copies === 0) {
        expect(counts[card]).toBe(0); // a card not left is never drawn
        return;
      }
      faces++;
      const expected = (draws * copies) / left;
      x += (counts[card]! - expected) ** 2 / expected;
    });
    expect(x).toBeLessThan(chiSquareQuantile(faces - 1, 3.719));
    expect(x).toBeGreaterThan(chiSquareQuantile(faces - 1, -3.719));
  });

  it("a dealer-error burn is the same: its cards change with its own round's randomness", () => {
    const { serverSeed, state } = atNoVaMas();
    const burn = (randomness: string) =>
      burnV3(serverSeed, state, { beacon: { round: ROUND, randomness } }).cards.join(' ');
    let differ = 0;
    for (let t = 0; t < 200; t++) if (burn(hex32(`a ${t}`)) !== burn(hex32(`b ${t}`))) differ++;
    expect(differ).toBe(200);
  });
});
