import { burnValue, type Card } from './cards';
import type { TableConfig } from './config';
import { type CoupResult, NotEnoughCardsError, playCoup } from './coup';

/** The burn (seed 003): the first card is shown and as many cards as its value burned (tens and faces 10). */
export interface Burn {
  shown: Card;
  burned: number;
}

export function burnOf(order: ArrayLike<Card>): Burn {
  if (order.length === 0) throw new NotEnoughCardsError(1, 0);
  const shown = order[0]!;
  const burned = burnValue(shown);
  if (order.length < 1 + burned) throw new NotEnoughCardsError(1 + burned, order.length);
  return { shown, burned };
}

/** Index of the first card of the first coup: after the shown card and the burned ones. */
export const firstCoupStart = (burn: Burn): number => 1 + burn.burned;

/** The cut card sits before card index `cutIndex`, leaving `cardsBehind` cards after it. */
export const cutIndexFor = (cardCount: number, cardsBehind: number): number => cardCount - cardsBehind;

/**
 * Is this coup the last of the shoe? A coup brings out the cut card when
 * `coupStart <= cutIndex < coupStart + cardsUsed` (the cut card sits before card `cutIndex`).
 *
 * - FINISH_COUP (seed 003): the coup that brings out the cut card is finished, and is the last.
 * - ONE_MORE_COUP: one more coup is played after it, and that one is the last.
 *
 * `coupsAfterCut` is how many coups that started past the cut card were already played before this
 * one (0 for the cut coup itself and for the first coup after it).
 */
export function isLastCoup(
  config: Pick<TableConfig, 'afterCutCard'>,
  cutIndex: number,
  coupStart: number,
  cardsUsed: number,
  coupsAfterCut: number,
): boolean {
  if (coupStart + cardsUsed <= cutIndex) return false; // the cut card is still in the shoe
  const extraCoups = config.afterCutCard === 'ONE_MORE_COUP' ? 1 : 0;
  const positionAfterCut = coupStart > cutIndex ? coupsAfterCut + 1 : 0;
  return positionAfterCut >= extraCoups;
}

/** Where a shoe stands between coups: enough to resume it (the API stores it with the shoe). */
export interface ShoeState {
  /** index of the next card to deal */
  cursor: number;
  /** coups played so far */
  coups: number;
  /** coups played that started past the cut card (see isLastCoup) */
  coupsAfterCut: number;
  /** true once the last coup was played */
  finished: boolean;
}

export interface ShoeCoup {
  /** 0-based number of the coup in the shoe */
  index: number;
  /** index of its first card in the shoe order */
  start: number;
  result: CoupResult;
  /** this coup brought out the cut card */
  cutCardOut: boolean;
  last: boolean;
  /** the state after this coup */
  state: ShoeState;
}

/** The state before the first coup: the burn done. */
export function startShoe(order: ArrayLike<Card>): ShoeState {
  return { cursor: firstCoupStart(burnOf(order)), coups: 0, coupsAfterCut: 0, finished: false };
}

/** Plays the next coup of a shoe. Pure: returns the coup and the new state. */
export function nextCoup(
  config: Pick<TableConfig, 'afterCutCard'>,
  order: ArrayLike<Card>,
  cutIndex: number,
  state: ShoeState,
): ShoeCoup {
  if (state.finished) throw new RangeError('the shoe is finished');
  if (!Number.isInteger(cutIndex) || cutIndex <= 0 || cutIndex > order.length) {
    throw new RangeError(`cut index ${cutIndex} is outside the shoe`);
  }
  const start = state.cursor;
  const result = playCoup(order, start);
  const last = isLastCoup(config, cutIndex, start, result.cardsUsed, state.coupsAfterCut);
  return {
    index: state.coups,
    start,
    result,
    cutCardOut: start <= cutIndex && cutIndex < start + result.cardsUsed,
    last,
    state: {
      cursor: start + result.cardsUsed,
      coups: state.coups + 1,
      coupsAfterCut: state.coupsAfterCut + (start > cutIndex ? 1 : 0),
      finished: last,
    },
  };
}

/**
 * A coup voided by a dealer error and burned (seed 004 §2.7, 004:67-68): "si es la primera del próximo
 * pase, ese pase se anula" (its first card came out exposed) and "se anula el pase siguiente completo
 * que se inicia con las cartas de más" (extra cards drawn at the end of a coup). The coup is voided
 * and the cards it would have used — as many as the tableau would have dealt from there — leave the
 * shoe unplayed.
 */
export interface ShoeBurnedCoup {
  /** index of its first card in the shoe order */
  start: number;
  /** the cards burned, in shoe order (4 to 6) */
  cards: Card[];
  /** these cards brought out the cut card */
  cutCardOut: boolean;
  /** the shoe ends with this burn (as it would have with the coup) */
  last: boolean;
  /** the state after the burn */
  state: ShoeState;
}

/**
 * Burns the next coup instead of playing it. It takes a coup's place in the shoe's course — the cursor
 * moves past its cards, and the cut-card rule applies to it as to a coup (a burn that brings out the cut
 * card ends a FINISH_COUP shoe; past the cut it is the extra coup of ONE_MORE_COUP) — but it is not
 * counted as a coup played (`coups` and the next coup's index do not move). Pure.
 */
export function burnCoup(
  config: Pick<TableConfig, 'afterCutCard'>,
  order: ArrayLike<Card>,
  cutIndex: number,
  state: ShoeState,
): ShoeBurnedCoup {
  const coup = nextCoup(config, order, cutIndex, state);
  const { start } = coup;
  return {
    start,
    cards: Array.from({ length: coup.result.cardsUsed }, (_, i) => order[start + i]!),
    cutCardOut: coup.cutCardOut,
    last: coup.last,
    state: { ...coup.state, coups: state.coups },
  };
}

/** Walks a whole shoe: the burn, then coups until the cut card rule ends it. */
export class ShoeRunner {
  readonly burn: Burn;
  state: ShoeState;

  constructor(
    private readonly config: Pick<TableConfig, 'afterCutCard'>,
    private readonly order: ArrayLike<Card>,
    readonly cutIndex: number,
  ) {
    this.burn = burnOf(order);
    this.state = startShoe(order);
  }

  get finished(): boolean {
    return this.state.finished;
  }

  next(): ShoeCoup | undefined {
    if (this.state.finished) return undefined;
    const coup = nextCoup(this.config, this.order, this.cutIndex, this.state);
    this.state = coup.state;
    return coup;
  }

  /** Burns the next coup (a dealer-error void, `burnCoup`). */
  burnNext(): ShoeBurnedCoup | undefined {
    if (this.state.finished) return undefined;
    const burned = burnCoup(this.config, this.order, this.cutIndex, this.state);
    this.state = burned.state;
    return burned;
  }

  /** Plays the rest of the shoe. */
  all(): ShoeCoup[] {
    const coups: ShoeCoup[] = [];
    for (let coup = this.next(); coup; coup = this.next()) coups.push(coup);
    return coups;
  }
}
