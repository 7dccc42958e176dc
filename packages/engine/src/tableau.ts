/**
 * The third-card rules (tableau), as printed in seed 000 ("Tabla de la tercera carta").
 *
 * Punto: draws on 0-5, stands on 6-7 (strict: no option on 5, seed 004). 8-9 are naturals.
 * Banca: the table below, indexed by Banca's two-card total (rows 0..7) and Punto's third card
 * (columns 0..9, or "-" when Punto stood). Copied cell by cell from seed 000 so a test can hold the
 * code to the printed table.
 */

/** Punto's third card: 0..9, or NO_THIRD when Punto stood. */
export const NO_THIRD = -1;

// Columns: Punto's third card 0,1,2,3,4,5,6,7,8,9, then "-" (Punto stood). 1 = SI (draws), 0 = NO.
const BANKER_TABLE_SEED_000: readonly (readonly number[])[] = [
  /* 0 */ [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
  /* 1 */ [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
  /* 2 */ [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
  /* 3 */ [1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1],
  /* 4 */ [0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1],
  /* 5 */ [0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1],
  /* 6 */ [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0],
  /* 7 */ [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/**
 * Flat lookup for the hot path: BANKER_DRAWS[bankerTotal * 11 + playerThird + 1] is 1 when Banca draws
 * (playerThird = NO_THIRD reads the "-" column at index 0). Rows 8 and 9 (naturals) never draw.
 */
export const BANKER_DRAWS: Uint8Array = (() => {
  const table = new Uint8Array(10 * 11);
  for (let total = 0; total < 8; total++) {
    const row = BANKER_TABLE_SEED_000[total]!;
    table[total * 11] = row[10]!;
    for (let third = 0; third < 10; third++) table[total * 11 + third + 1] = row[third]!;
  }
  return table;
})();

export const playerDraws = (playerTotal: number): boolean => playerTotal <= 5;

export const bankerDraws = (bankerTotal: number, playerThird: number): boolean =>
  BANKER_DRAWS[bankerTotal * 11 + playerThird + 1] === 1;

/**
 * The stable rule code for Banca's decision, named for the replay narration:
 *   BANKER_DRAWS_0_2                      0-2 always draw
 *   BANKER_PLAYER_STOOD_DRAWS_0_5         Punto stood: Banca plays Punto's rule (draws 0-5)
 *   BANKER_PLAYER_STOOD_STANDS_6_7        Punto stood: Banca stands on 6-7
 *   BANKER_TABLEAU_<total>_VS_<third>_DRAWS | _STANDS   the table cell that decided (3..7 vs 0..9)
 */
export const bankerRule = (bankerTotal: number, playerThird: number): string => {
  const draws = bankerDraws(bankerTotal, playerThird);
  if (playerThird === NO_THIRD)
    return draws ? 'BANKER_PLAYER_STOOD_DRAWS_0_5' : 'BANKER_PLAYER_STOOD_STANDS_6_7';
  if (bankerTotal <= 2) return 'BANKER_DRAWS_0_2';
  return `BANKER_TABLEAU_${bankerTotal}_VS_${playerThird}_${draws ? 'DRAWS' : 'STANDS'}`;
};

export const playerRule = (playerTotal: number): string =>
  playerDraws(playerTotal) ? 'PLAYER_DRAWS_0_5' : 'PLAYER_STANDS_6_7';
