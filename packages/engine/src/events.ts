/**
 * The events every bet is settled on, counted the same way by the exact odds (odds.ts, exact counts)
 * and the simulator (simulate.ts, observed counts), so the two compare key by key.
 *
 * A coup's "leaf" is its final totals and who drew a third card: every bet but the pairs depends on the
 * leaf only (a natural is a leaf without draws and a total of 8 or 9; the cards used are 4 + draws).
 * The pair bets depend on the first four cards only, and are counted apart (PairEvents).
 */

/** Leaf index: Punto's total in bits 0-3, Banca's in 4-7, Punto drew bit 8, Banca drew bit 9. */
export const leafKey = (playerTotal: number, bankerTotal: number, playerDrew: boolean, bankerDrew: boolean) =>
  playerTotal | (bankerTotal << 4) | (playerDrew ? 1 << 8 : 0) | (bankerDrew ? 1 << 9 : 0);
/** Size of an array indexed by leafKey. */
export const LEAF_KEYS = 1 << 10;

/** Dragon Bonus events of one side: a natural win, a natural tie (push), a non-natural win by 4..9. */
export interface DragonBonusEvents<N> {
  naturalWin: N;
  naturalTie: N;
  margin: { 4: N; 5: N; 6: N; 7: N; 8: N; 9: N };
}

export const MARGINS = [4, 5, 6, 7, 8, 9] as const;

export interface LeafEvents<N> {
  player: N;
  banker: N;
  tie: N;
  /** a natural (8 or 9) on either hand's first two cards */
  natural: N;
  dragonBonusPlayer: DragonBonusEvents<N>;
  dragonBonusBanker: DragonBonusEvents<N>;
  /** Banca wins with a three-card 7: Dragon 7 wins, the EZ Banca bet pushes */
  dragon7: N;
  /** Punto wins with a three-card 8: Panda 8 wins */
  panda8: N;
  /** Banca wins with 6 (two or three cards): Super 6 wins, a Super 6 table pays Banca 1:2 */
  bankerWinOn6: N;
  /** 4 cards dealt: Small wins */
  small: N;
  /** 5 or 6 cards dealt: Big wins */
  big: N;
}

export interface PairEvents<N> {
  /** Punto's first two cards share a rank */
  playerPair: N;
  bankerPair: N;
  /** either hand (or both) starts with a pair */
  eitherPair: N;
  /** exactly one hand starts with two identical cards (rank and suit) */
  perfectPairOne: N;
  /** both hands do */
  perfectPairBoth: N;
}

export type CoupEvents<N> = LeafEvents<N> & PairEvents<N>;

const dragonZero = (): DragonBonusEvents<bigint> => ({
  naturalWin: 0n,
  naturalTie: 0n,
  margin: { 4: 0n, 5: 0n, 6: 0n, 7: 0n, 8: 0n, 9: 0n },
});

/** Sums the events of leaf counts (indexed by leafKey). */
export function leafEvents(leaves: ArrayLike<bigint>): LeafEvents<bigint> {
  const e: LeafEvents<bigint> = {
    player: 0n,
    banker: 0n,
    tie: 0n,
    natural: 0n,
    dragonBonusPlayer: dragonZero(),
    dragonBonusBanker: dragonZero(),
    dragon7: 0n,
    panda8: 0n,
    bankerWinOn6: 0n,
    small: 0n,
    big: 0n,
  };
  for (const playerDrew of [false, true]) {
    for (const bankerDrew of [false, true]) {
      for (let pt = 0; pt < 10; pt++) {
        for (let bt = 0; bt < 10; bt++) {
          const n = leaves[leafKey(pt, bt, playerDrew, bankerDrew)] ?? 0n;
          if (n === 0n) continue;
          const drew = playerDrew || bankerDrew;
          const playerNatural = !drew && pt >= 8;
          const bankerNatural = !drew && bt >= 8;
          if (drew) e.big += n;
          else e.small += n;
          if (playerNatural || bankerNatural) e.natural += n;
          if (pt === bt) {
            e.tie += n;
            if (playerNatural && bankerNatural) {
              e.dragonBonusPlayer.naturalTie += n;
              e.dragonBonusBanker.naturalTie += n;
            }
            continue;
          }
          const playerWins = pt > bt;
          if (playerWins) e.player += n;
          else e.banker += n;
          const dragon = playerWins ? e.dragonBonusPlayer : e.dragonBonusBanker;
          const margin = Math.abs(pt - bt);
          if (playerWins ? playerNatural : bankerNatural) dragon.naturalWin += n;
          else if (margin >= 4) dragon.margin[margin as 4 | 5 | 6 | 7 | 8 | 9] += n;
          if (!playerWins && bankerDrew && bt === 7) e.dragon7 += n;
          if (playerWins && playerDrew && pt === 8) e.panda8 += n;
          if (!playerWins && bt === 6) e.bankerWinOn6 += n;
        }
      }
    }
  }
  return e;
}

/** Converts counts (exact or observed) between bigint and number, keeping the shape. */
export function mapEvents<A, B>(events: CoupEvents<A>, f: (n: A) => B): CoupEvents<B> {
  const dragon = (d: DragonBonusEvents<A>): DragonBonusEvents<B> => ({
    naturalWin: f(d.naturalWin),
    naturalTie: f(d.naturalTie),
    margin: {
      4: f(d.margin[4]),
      5: f(d.margin[5]),
      6: f(d.margin[6]),
      7: f(d.margin[7]),
      8: f(d.margin[8]),
      9: f(d.margin[9]),
    },
  });
  return {
    player: f(events.player),
    banker: f(events.banker),
    tie: f(events.tie),
    natural: f(events.natural),
    dragonBonusPlayer: dragon(events.dragonBonusPlayer),
    dragonBonusBanker: dragon(events.dragonBonusBanker),
    dragon7: f(events.dragon7),
    panda8: f(events.panda8),
    bankerWinOn6: f(events.bankerWinOn6),
    small: f(events.small),
    big: f(events.big),
    playerPair: f(events.playerPair),
    bankerPair: f(events.bankerPair),
    eitherPair: f(events.eitherPair),
    perfectPairOne: f(events.perfectPairOne),
    perfectPairBoth: f(events.perfectPairBoth),
  };
}

/** Every event count by a flat name (dragonBonusPlayer.margin.9 → "dragonBonusPlayer.margin9"). */
export function flatEvents<N>(events: CoupEvents<N>): Record<string, N> {
  const out: Record<string, N> = {};
  for (const [key, value] of Object.entries(events)) {
    if (typeof value === 'object' && value !== null) {
      const d = value as DragonBonusEvents<N>;
      out[`${key}.naturalWin`] = d.naturalWin;
      out[`${key}.naturalTie`] = d.naturalTie;
      for (const m of MARGINS) out[`${key}.margin${m}`] = d.margin[m];
    } else out[key] = value as N;
  }
  return out;
}
