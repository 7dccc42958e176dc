import { describe, expect, it } from 'vitest';
import { tablePreset } from '../src';
import { type Bet, BetRuleError, validateBets } from '../src/bets';

const table = tablePreset('mini', { pairBets: true }); // main 500..500000, tie 100..62500, pairs 100..45000
const refusal = (bets: Bet[], config = table): string | undefined => {
  try {
    validateBets(config, bets);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(BetRuleError);
    expect(e).toBeInstanceOf(Error);
    return (e as BetRuleError).code;
  }
};

describe('bet rules (seeds 000, 004)', () => {
  it('accepts Empate alone or with Punto or Banca, and pairs where enabled', () => {
    expect(refusal([{ type: 'TIE', amount: 100 }])).toBeUndefined();
    expect(
      refusal([
        { type: 'PLAYER', amount: 500 },
        { type: 'TIE', amount: 100 },
      ]),
    ).toBeUndefined();
    expect(
      refusal([
        { type: 'BANKER', amount: 500_000 },
        { type: 'TIE', amount: 62_500 },
        { type: 'PLAYER_PAIR', amount: 100 },
        { type: 'BANKER_PAIR', amount: 45_000 },
      ]),
    ).toBeUndefined();
  });

  it.each([
    ['BET_EMPTY', []],
    [
      'BET_PLAYER_AND_BANKER',
      [
        { type: 'PLAYER', amount: 500 },
        { type: 'BANKER', amount: 500 },
      ],
    ],
    [
      'BET_DUPLICATE_TYPE',
      [
        { type: 'TIE', amount: 100 },
        { type: 'TIE', amount: 100 },
      ],
    ],
    ['BET_BELOW_MIN', [{ type: 'PLAYER', amount: 499 }]],
    ['BET_ABOVE_MAX', [{ type: 'TIE', amount: 62_501 }]],
    ['BET_AMOUNT_INVALID', [{ type: 'BANKER', amount: 0 }]],
    ['BET_AMOUNT_INVALID', [{ type: 'BANKER', amount: -500 }]],
    ['BET_AMOUNT_INVALID', [{ type: 'BANKER', amount: 500.5 }]],
    ['BET_AMOUNT_INVALID', [{ type: 'BANKER', amount: 2 ** 53 }]],
    ['BET_TYPE_INVALID', [{ type: 'DRAGON', amount: 500 }]],
  ] as [string, Bet[]][])('refuses with %s: %j', (code, bets) => {
    expect(refusal(bets)).toBe(code);
  });

  it('refuses pair side bets where the table does not offer them', () => {
    expect(refusal([{ type: 'PLAYER_PAIR', amount: 100 }], tablePreset('mini'))).toBe('BET_SIDE_DISABLED');
    const error = (() => {
      try {
        validateBets(tablePreset('mini'), [{ type: 'BANKER_PAIR', amount: 100 }]);
      } catch (e) {
        return e as BetRuleError;
      }
    })();
    expect(error?.betType).toBe('BANKER_PAIR');
    expect(error?.name).toBe('BetRuleError');
  });

  it('side bets: refused where not offered, limits from the side bet, free to combine', () => {
    const limit = { min: 100, max: 1_000 };
    const sides = tablePreset('mini', {
      sideBets: {
        BIG: { limit },
        SMALL: { limit },
        DRAGON_BONUS_PLAYER: { limit },
        DRAGON_BONUS_BANKER: { limit },
      },
    });
    expect(refusal([{ type: 'DRAGON_7', amount: 100 }], sides)).toBe('BET_SIDE_DISABLED');
    expect(refusal([{ type: 'EITHER_PAIR', amount: 100 }])).toBe('BET_SIDE_DISABLED');
    expect(refusal([{ type: 'BIG', amount: 99 }], sides)).toBe('BET_BELOW_MIN');
    expect(refusal([{ type: 'BIG', amount: 1_001 }], sides)).toBe('BET_ABOVE_MAX');
    // a side bet alone, Big with Small, both Dragon Bonus sides, with Punto: each settles on its own
    expect(refusal([{ type: 'SMALL', amount: 1_000 }], sides)).toBeUndefined();
    expect(
      refusal(
        [
          { type: 'PLAYER', amount: 500 },
          { type: 'BIG', amount: 100 },
          { type: 'SMALL', amount: 100 },
          { type: 'DRAGON_BONUS_PLAYER', amount: 100 },
          { type: 'DRAGON_BONUS_BANKER', amount: 100 },
        ],
        sides,
      ),
    ).toBeUndefined();
    expect(
      refusal(
        [
          { type: 'BIG', amount: 100 },
          { type: 'BIG', amount: 100 },
        ],
        sides,
      ),
    ).toBe('BET_DUPLICATE_TYPE');
  });
});
