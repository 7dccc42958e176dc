import { betList } from '@pyb/engine';
import type { Bets } from './model';

/** The total of a set of bets (minor units). */
export const sumOf = (bets: Bets): number => betList(bets).reduce((s, b) => s + b.amount, 0);
