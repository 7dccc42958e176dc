import type { CoupResult, Winner } from './coup';

/**
 * The results panel of a shoe (seed 000: every coup with its P/B/T mark, natural and pair marks,
 * reset per shoe) and the roads players read from it. Grids are 6 rows high by default; a column is
 * filled top to bottom, and a streak longer than the space below turns right (the "dragon tail").
 */
export interface RoadEntry {
  winner: Winner;
  natural: boolean;
  playerPair: boolean;
  bankerPair: boolean;
  /** the winning total (the tied total on a tie), shown on the bead plate when known */
  total?: number;
}

export const roadEntryOf = (coup: CoupResult): RoadEntry => ({
  winner: coup.winner,
  natural: coup.natural,
  playerPair: coup.playerPair,
  bankerPair: coup.bankerPair,
  total: coup.winner === 'PLAYER' ? coup.player.total : coup.banker.total,
});

export interface BeadCell extends RoadEntry {
  /** coup number in the shoe, 0-based */
  index: number;
  col: number;
  row: number;
}

/** Every coup in order, ties included, filling each column top to bottom. */
export const beadPlate = (entries: readonly RoadEntry[], rows = 6): BeadCell[] =>
  entries.map((entry, index) => ({ ...entry, index, col: Math.floor(index / rows), row: index % rows }));

export interface BigRoadCell {
  /** coup number of the Punto / Banca result this cell shows */
  index: number;
  winner: 'PLAYER' | 'BANKER';
  /** ties that followed this result, drawn as a count on the cell */
  ties: number;
  natural: boolean;
  playerPair: boolean;
  bankerPair: boolean;
  col: number;
  row: number;
}

export interface BigRoad {
  /** ties before the first Punto / Banca result (drawn before the first cell) */
  leadingTies: number;
  /** cells as placed on the grid (with dragon tails) */
  cells: BigRoadCell[];
  /** the streaks: one column per run of the same winner, before placement (derived roads read these) */
  columns: BigRoadCell[][];
}

/** Places streaks on a grid of `rows` rows, turning right when the cell below is off-grid or taken. */
function place<T>(
  streaks: readonly (readonly T[])[],
  rows: number,
  at: (item: T, col: number, row: number) => void,
) {
  const taken = new Set<number>();
  const key = (col: number, row: number) => col * rows + row;
  let previousStart = -1;
  for (const streak of streaks) {
    let col = previousStart + 1;
    while (taken.has(key(col, 0))) col++;
    previousStart = col;
    let row = 0;
    let turned = false;
    streak.forEach((item, i) => {
      if (i > 0) {
        if (!turned && row + 1 < rows && !taken.has(key(col, row + 1))) row++;
        else {
          turned = true;
          col++;
        }
      }
      taken.add(key(col, row));
      at(item, col, row);
    });
  }
}

/** Punto and Banca results in streaks; ties counted on the previous cell (or as leading ties). */
export function bigRoad(entries: readonly RoadEntry[], rows = 6): BigRoad {
  let leadingTies = 0;
  const columns: BigRoadCell[][] = [];
  let last: BigRoadCell | undefined;
  entries.forEach((entry, index) => {
    if (entry.winner === 'TIE') {
      if (last) last.ties++;
      else leadingTies++;
      return;
    }
    const cell: BigRoadCell = {
      index,
      winner: entry.winner,
      ties: 0,
      natural: entry.natural,
      playerPair: entry.playerPair,
      bankerPair: entry.bankerPair,
      col: 0,
      row: 0,
    };
    if (last?.winner === entry.winner) columns[columns.length - 1]!.push(cell);
    else columns.push([cell]);
    last = cell;
  });
  const cells: BigRoadCell[] = [];
  place(columns, rows, (cell, col, row) => {
    cell.col = col;
    cell.row = row;
    cells.push(cell);
  });
  return { leadingTies, cells, columns };
}

export type DerivedColor = 'RED' | 'BLUE';

export interface DerivedCell {
  color: DerivedColor;
  col: number;
  row: number;
}

/**
 * The derived roads compare the big road with itself `offset` columns back (1 big eye boy, 2 small
 * road, 3 cockroach pig). For each big road result from column `offset` row 1 (or column offset+1 row
 * 0) on:
 *   - first cell of a column: RED when the two columns before it (1 apart and offset+1 apart) are the
 *     same length, else BLUE;
 *   - further down, at row r: look `offset` columns back; RED when that column has a cell at row r or
 *     stopped before row r−1 ("repeats"), BLUE when it stopped exactly at row r−1.
 * RED means the road is regular (repeating), BLUE choppy; the colours say nothing about Punto/Banca.
 */
export function derivedRoad(big: BigRoad, offset: 1 | 2 | 3, rows = 6): DerivedCell[] {
  const lengths = big.columns.map((c) => c.length);
  const marks: DerivedColor[] = [];
  lengths.forEach((length, col) => {
    for (let row = 0; row < length; row++) {
      if (col < offset || (col === offset && row === 0)) continue;
      if (row === 0) {
        marks.push(lengths[col - 1] === lengths[col - 1 - offset] ? 'RED' : 'BLUE');
      } else {
        const back = lengths[col - offset]!;
        marks.push(back === row ? 'BLUE' : 'RED');
      }
    }
  });
  const streaks: DerivedColor[][] = [];
  for (const mark of marks) {
    const lastStreak = streaks[streaks.length - 1];
    if (lastStreak && lastStreak[0] === mark) lastStreak.push(mark);
    else streaks.push([mark]);
  }
  const out: DerivedCell[] = [];
  place(streaks, rows, (color, col, row) => out.push({ color, col, row }));
  return out;
}

export const bigEyeBoy = (big: BigRoad, rows = 6) => derivedRoad(big, 1, rows);
export const smallRoad = (big: BigRoad, rows = 6) => derivedRoad(big, 2, rows);
export const cockroachPig = (big: BigRoad, rows = 6) => derivedRoad(big, 3, rows);

export interface ResultsPanel {
  coups: number;
  counts: {
    player: number;
    banker: number;
    tie: number;
    natural: number;
    playerPair: number;
    bankerPair: number;
  };
  beadPlate: BeadCell[];
  bigRoad: BigRoad;
  bigEyeBoy: DerivedCell[];
  smallRoad: DerivedCell[];
  cockroachPig: DerivedCell[];
}

/** Everything the scoreboard shows for one shoe. */
export function resultsPanel(entries: readonly RoadEntry[], rows = 6): ResultsPanel {
  const count = (f: (e: RoadEntry) => boolean) => entries.filter(f).length;
  const big = bigRoad(entries, rows);
  return {
    coups: entries.length,
    counts: {
      player: count((e) => e.winner === 'PLAYER'),
      banker: count((e) => e.winner === 'BANKER'),
      tie: count((e) => e.winner === 'TIE'),
      natural: count((e) => e.natural),
      playerPair: count((e) => e.playerPair),
      bankerPair: count((e) => e.bankerPair),
    },
    beadPlate: beadPlate(entries, rows),
    bigRoad: big,
    bigEyeBoy: bigEyeBoy(big, rows),
    smallRoad: smallRoad(big, rows),
    cockroachPig: cockroachPig(big, rows),
  };
}
