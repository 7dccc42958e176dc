import { describe, expect, it } from 'vitest';
import { Amount } from '../src/common';
import { PlayerId } from '../src/ids';
import { CreateTableRequest } from '../src/tables';

/** The schema errors a new user met (issue 23), in words that say what is wanted. */
const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message).join('; ');

describe('schema messages', () => {
  it('a player id with ñ: ASCII letters are meant, and the message says so', () => {
    expect(messageOf(PlayerId().safeParse('jugador-ñ'))).toContain(
      'ASCII letters (A-Z, a-z: no accents, no ñ)',
    );
    expect(PlayerId().safeParse('jugador-n').success).toBe(true);
  });

  it('an amount of 10.50: integer minor units, with what 10.50 EUR is', () => {
    expect(messageOf(Amount().safeParse(10.5))).toBe(
      'an integer number of minor units (cents): 10.50 EUR is 1050',
    );
    expect(messageOf(Amount().safeParse(0))).toContain('minor units (cents): 10.50 EUR is 1050, at least 1');
    expect(Amount().safeParse(1050).success).toBe(true);
  });

  it('a table of 1 or 7 decks: the rulebooks allow 6 or 8, and a short shoe is a deep cut card', () => {
    const table = (decks: number) =>
      CreateTableRequest().safeParse({ name: 'T', variant: 'custom', config: { decks } });
    for (const decks of [1, 2, 7, 9]) {
      expect(messageOf(table(decks))).toBe(
        'a table has 6 or 8 decks of 52 (seeds 003, 004); for a short shoe raise cutCard.minCardsBehind/maxCardsBehind instead',
      );
    }
    expect([table(6).success, table(8).success]).toEqual([true, true]);
  });
});
