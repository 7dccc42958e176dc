import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { playCoup } from '../src/coup';
import { bankerDraws, NO_THIRD } from '../src/tableau';
import { byValues } from './helpers';

// Seed 000's "Tabla de la tercera carta de la banca", typed out: rows are Banca's two-card total
// 0..7, columns Punto's third card 0..9 then "-" (Punto stood). The test below also checks this copy
// against the seed file itself when the shared seeds are beside the checkout.
const SEED_000_BANKER_TABLE = [
  'SI SI SI SI SI SI SI SI SI SI SI',
  'SI SI SI SI SI SI SI SI SI SI SI',
  'SI SI SI SI SI SI SI SI SI SI SI',
  'SI SI SI SI SI SI SI SI NO SI SI',
  'NO NO SI SI SI SI SI SI NO NO SI',
  'NO NO NO NO SI SI SI SI NO NO SI',
  'NO NO NO NO NO NO SI SI NO NO NO',
  'NO NO NO NO NO NO NO NO NO NO NO',
].map((row) => row.split(' ').map((cell) => cell === 'SI'));

const seedFile = fileURLToPath(new URL('../../../../shared/seeds/000_96c0bcb75138a7cb.txt', import.meta.url));

/** Parses the markdown rows "| 3 | SI | ... |" after the Banca table's header in the seed. */
function parseSeedTable(text: string): boolean[][] {
  const start = text.indexOf('Tabla de la tercera carta de la banca');
  const rows: boolean[][] = [];
  for (const line of text.slice(start).split('\n')) {
    const cells = line
      .split('|')
      .map((c) => c.trim())
      .filter((c) => c !== '');
    if (
      cells.length === 12 &&
      /^[0-7]$/.test(cells[0]!) &&
      cells.slice(1).every((c) => c === 'SI' || c === 'NO')
    ) {
      rows.push(cells.slice(1).map((c) => c === 'SI'));
    }
    if (rows.length === 8) break;
  }
  return rows;
}

describe("Banca's tableau (seed 000)", () => {
  it.skipIf(!existsSync(seedFile))('the typed-out table is the seed file table', () => {
    expect(parseSeedTable(readFileSync(seedFile, 'utf8'))).toEqual(SEED_000_BANKER_TABLE);
  });

  // Two-card hands for every Banca total 0..7 (several ways each), for Punto totals that draw (0..5)
  // or stand (6, 7). Every cell is played as a real coup and must draw exactly when the seed says SI.
  const twoCardWays = (total: number): [number, number][] => [
    [total, 0],
    [3, (total + 7) % 10],
    [9, (total + 1) % 10],
  ];

  for (let banker = 0; banker <= 7; banker++) {
    for (let column = 0; column <= 10; column++) {
      const third = column === 10 ? NO_THIRD : column;
      const says = SEED_000_BANKER_TABLE[banker]![column]!;
      const label = third === NO_THIRD ? '-' : String(third);
      it(`Banca ${banker} vs Punto third card ${label}: ${says ? 'draws' : 'stands'}`, () => {
        expect(bankerDraws(banker, third)).toBe(says);
        const playerTotals = third === NO_THIRD ? [6, 7] : [0, 1, 2, 3, 4, 5];
        for (const playerTotal of playerTotals) {
          for (const [p1, p2] of twoCardWays(playerTotal)) {
            for (const [b1, b2] of twoCardWays(banker)) {
              const values = third === NO_THIRD ? [p1, b1, p2, b2, 4] : [p1, b1, p2, b2, third, 4];
              const coup = playCoup(byValues(...values));
              const playerCards = third === NO_THIRD ? 2 : 3;
              expect(coup.player.cards).toHaveLength(playerCards);
              expect(coup.banker.cards).toHaveLength(says ? 3 : 2);
              expect(coup.cardsUsed).toBe(playerCards + (says ? 3 : 2));
              const bankerStep = coup.steps.at(-1)!;
              expect(bankerStep.to).toBe('BANKER');
              expect(bankerStep.action).toBe(says ? 'DRAW' : 'STAND');
            }
          }
        }
      });
    }
  }

  it('names the rule that decided', () => {
    const rule = (values: number[]) => playCoup(byValues(...values)).steps.at(-1)!.rule;
    expect(rule([1, 3, 1, 0, 8, 0])).toBe('BANKER_TABLEAU_3_VS_8_STANDS');
    expect(rule([1, 3, 1, 0, 9, 0])).toBe('BANKER_TABLEAU_3_VS_9_DRAWS');
    expect(rule([1, 2, 1, 0, 8, 0])).toBe('BANKER_DRAWS_0_2');
    expect(rule([6, 5, 0, 0, 0])).toBe('BANKER_PLAYER_STOOD_DRAWS_0_5');
    expect(rule([7, 6, 0, 0])).toBe('BANKER_PLAYER_STOOD_STANDS_6_7');
    expect(playCoup(byValues(2, 6, 2, 0, 5, 0)).steps[4]!.rule).toBe('PLAYER_DRAWS_0_5');
    expect(playCoup(byValues(6, 5, 0, 0, 0)).steps[4]!.rule).toBe('PLAYER_STANDS_6_7');
  });
});
