import { type Card, cardOf } from '../src/cards';

/** A card of the given point value (0 = ten), varying the suit so hands are not accidental pairs. */
export const cardOfValue = (value: number, suit = 0): Card => cardOf(value === 0 ? 9 : value - 1, suit % 4);

/** Cards in the order they leave the shoe, from point values. */
export const byValues = (...values: number[]): Card[] => values.map((v, i) => cardOfValue(v, i));
