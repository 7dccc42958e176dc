/** Two coups compared in words, for problems a regulator reads. */
import { type CoupResult, cardsText } from '@pyb/engine';
import { same } from '../../shared';

const HAND = { player: 'Punto', banker: 'Banca' } as const;
const COUP_FIELDS = [
  'winner',
  'natural',
  'playerNatural',
  'bankerNatural',
  'playerPair',
  'bankerPair',
  'cardsUsed',
] as const;

/** What differs between the coup the rules (or the chain) give and the recorded one; none if equal. */
export function coupDifferences(expected: CoupResult, recorded: CoupResult): string[] {
  if (same(expected, recorded)) return [];
  try {
    const diffs = describe(expected, recorded);
    // Two coups that differ somewhere describe does not name (a note, a flag) still differ.
    return diffs.length > 0 ? diffs : ['the coup records differ'];
  } catch {
    // A record that is not a coup at all (a forged event) cannot be described field by field.
    return ['the coup records differ'];
  }
}

function describe(expected: CoupResult, recorded: CoupResult): string[] {
  const diffs: string[] = [];
  for (const side of ['player', 'banker'] as const) {
    const name = HAND[side];
    if (!same(expected[side].cards, recorded[side].cards))
      diffs.push(
        `${name}'s cards: ${cardsText(expected[side].cards)}, recorded ${cardsText(recorded[side].cards)}`,
      );
    if (expected[side].total !== recorded[side].total)
      diffs.push(`${name}'s total: ${expected[side].total}, recorded ${recorded[side].total}`);
  }
  for (const f of COUP_FIELDS) {
    if (expected[f] !== recorded[f])
      diffs.push(`${f}: ${String(expected[f])}, recorded ${String(recorded[f])}`);
  }
  const n = Math.max(expected.steps.length, recorded.steps.length);
  for (let i = 0; i < n; i++) {
    const a = expected.steps[i];
    const b = recorded.steps[i];
    if (!same(a, b)) {
      diffs.push(
        `step ${i + 1}: the rules give ${a ? `${a.to} ${a.action} (${a.rule})` : 'no step'}, recorded ${b ? `${b.to} ${b.action} (${b.rule})` : 'no step'}`,
      );
      break;
    }
  }
  return diffs;
}
