import { describe, expect, it } from 'vitest';
import { Amount } from '../src/common';
import { PlayerId } from '../src/ids';

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
});
