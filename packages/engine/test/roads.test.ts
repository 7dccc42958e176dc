import { describe, expect, it } from 'vitest';
import { parseCards } from '../src/cards';
import { beadPlate, bigRoad, type DerivedCell, resultsPanel, roadEntryOf } from '../src/roads';
import { ShoeRunner } from '../src/shoe';

// Hand-made coups, each a known result.
const COUP = {
  T: '3S 5H 5D 3C', // 8-8 tie, naturals, no pairs
  B: 'TS 4H KD 5C', // Banca natural 9
  P: '4S TH 5D KC', // Punto natural 9
  Ppp: '4S TH 4D KC', // Punto natural 8 with a Punto pair
  Bbp: 'TS 4H KD 4C', // Banca natural 8 with a Banca pair
  P7: 'AS 2H 6D 4C', // Punto 7 beats Banca 6, no natural
} as const;

// 7 Banca in a row make a dragon tail; the 6 Punto after it are blocked by the tail above row 5.
const script = 'T T B B T P P Ppp T T Bbp P7 B B B B B B B P P P P P P'.split(' ') as (keyof typeof COUP)[];

/** A shoe: AS shown, one burned, the scripted coups, the cut card before the last one, filler. */
function playScript() {
  const cards = ['AS', '2S', ...script.map((k) => COUP[k])].join(' ');
  const order = parseCards(`${cards} ${'2D '.repeat(14)}`);
  const lastStart = order.length - 14 - 4;
  return new ShoeRunner({ afterCutCard: 'FINISH_COUP' }, order, lastStart)
    .all()
    .map((c) => roadEntryOf(c.result));
}

const grid = (cells: DerivedCell[]) => cells.map((c) => `${c.color[0]}${c.col},${c.row}`).join(' ');

describe('roads from a hand-made shoe', () => {
  const entries = playScript();

  it('the shoe plays the script', () => {
    expect(entries).toHaveLength(script.length);
    expect(entries.map((e) => e.winner[0]).join('')).toBe('TTBBTPPPTTBPBBBBBBBPPPPPP');
    expect(entries[11]!.natural).toBe(false);
  });

  it('bead plate: every coup, ties included, six to a column', () => {
    const bead = beadPlate(entries);
    expect(bead).toHaveLength(25);
    expect(bead[0]).toMatchObject({ col: 0, row: 0, winner: 'TIE', total: 8 });
    expect(bead[7]).toMatchObject({
      col: 1,
      row: 1,
      winner: 'PLAYER',
      playerPair: true,
      natural: true,
      total: 8,
    });
    expect(bead[11]).toMatchObject({ col: 1, row: 5, winner: 'PLAYER', natural: false, total: 7 });
    expect(bead[24]).toMatchObject({ col: 4, row: 0 });
  });

  it('big road: streaks, ties counted on the previous cell, leading ties, dragon tail', () => {
    const big = bigRoad(entries);
    expect(big.leadingTies).toBe(2);
    expect(big.columns.map((c) => c.length)).toEqual([2, 3, 1, 1, 7, 6]);
    const placed = big.cells
      .map((c) => `${c.winner[0]}${c.col},${c.row}${c.ties ? `+${c.ties}` : ''}`)
      .join(' ');
    expect(placed).toBe(
      'B0,0 B0,1+1 P1,0 P1,1 P1,2+2 B2,0 P3,0 ' +
        'B4,0 B4,1 B4,2 B4,3 B4,4 B4,5 B5,5 ' +
        'P5,0 P5,1 P5,2 P5,3 P5,4 P6,4',
    );
    const pairCell = big.cells.find((c) => c.index === 7)!;
    expect([pairCell.playerPair, pairCell.natural]).toEqual([true, true]);
    expect(big.cells.find((c) => c.index === 10)!.bankerPair).toBe(true);
    expect(big.cells.find((c) => c.index === 11)!.natural).toBe(false);
  });

  it('derived roads: big eye boy, small road, cockroach pig', () => {
    const panel = resultsPanel(entries);
    expect(grid(panel.bigEyeBoy)).toBe(
      'R0,0 B1,0 B1,1 B1,2 R2,0 B3,0 R4,0 R4,1 R4,2 R4,3 R4,4 B5,0 R6,0 R6,1 R6,2 R6,3 R6,4',
    );
    expect(grid(panel.smallRoad)).toBe(
      'B0,0 B0,1 B0,2 R1,0 R1,1 R1,2 R1,3 R1,4 B2,0 B2,1 R3,0 R3,1 R3,2 R3,3',
    );
    expect(grid(panel.cockroachPig)).toBe('B0,0 R1,0 R1,1 B2,0 R3,0 R3,1 R3,2 B4,0 B4,1 R5,0 R5,1 R5,2 R5,3');
    expect(panel.counts).toEqual({
      player: 10,
      banker: 10,
      tie: 5,
      natural: 24,
      playerPair: 1,
      bankerPair: 1,
    });
  });

  it('an empty shoe and a shoe of ties only', () => {
    expect(resultsPanel([]).bigRoad).toEqual({ leadingTies: 0, cells: [], columns: [] });
    const ties = bigRoad(entries.filter((e) => e.winner === 'TIE'));
    expect(ties.leadingTies).toBe(5);
    expect(ties.cells).toEqual([]);
  });
});
