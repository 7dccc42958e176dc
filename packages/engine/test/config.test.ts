import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { TableConfigSchema, tablePreset } from '../src/config';

describe('table configuration', () => {
  it('presets: mini 7 seats / 6 decks, midi 9 / 6, full 14 / 8; 5% at payment, tie 8:1', () => {
    expect(
      [tablePreset('mini'), tablePreset('midi'), tablePreset('full')].map((c) => [c.seats, c.decks]),
    ).toEqual([
      [7, 6],
      [9, 6],
      [14, 8],
    ]);
    const full = tablePreset('full');
    expect(full.commission).toEqual({ rateBps: 500, mode: 'AT_PAYMENT' });
    expect(full.tiePays).toBe(8);
    expect(full.afterCutCard).toBe('FINISH_COUP');
    expect(full.cutCard.minCardsBehind).toBeGreaterThanOrEqual(7);
  });

  it('deep-merges overrides and validates the result', () => {
    const c = tablePreset('mini', {
      commission: { mode: 'DEFERRED' },
      tiePays: 9,
      limits: { TIE: { max: 1000 } },
    });
    expect(c.commission).toEqual({ rateBps: 500, mode: 'DEFERRED' });
    expect(c.tiePays).toBe(9);
    expect(c.limits.TIE).toEqual({ min: 100, max: 1000 });
    expect(c.limits.PLAYER).toEqual(tablePreset('mini').limits.PLAYER);
  });

  it.each([
    ['cut card with 6 behind', { cutCard: { minCardsBehind: 6 } }],
    ['min above max behind', { cutCard: { minCardsBehind: 30, maxCardsBehind: 20 } }],
    ['one more coup with 11 behind', { afterCutCard: 'ONE_MORE_COUP', cutCard: { minCardsBehind: 11 } }],
    ['tie pays 7', { tiePays: 7 }],
    ['15 seats', { seats: 15 }],
    ['9 decks', { decks: 9 }],
    ['fractional commission', { commission: { rateBps: 2.5 } }],
    ['min above max limit', { limits: { PLAYER: { min: 10, max: 5 } } }],
    ['zero minimum', { limits: { BANKER: { min: 0 } } }],
    ['unknown key (strict)', { colour: 'green' }],
    ['unknown nested key (strict)', { commission: { rounding: 'up' } }],
    ['lower-case currency', { currency: 'eur' }],
  ])('refuses %s', (_, override) => {
    expect(() => tablePreset('full', override as never)).toThrow(ZodError);
  });

  it('allows the edges: 7 behind, 12 behind with one more coup', () => {
    expect(tablePreset('full', { cutCard: { minCardsBehind: 7 } }).cutCard.minCardsBehind).toBe(7);
    expect(
      tablePreset('full', { afterCutCard: 'ONE_MORE_COUP', cutCard: { minCardsBehind: 12 } }).afterCutCard,
    ).toBe('ONE_MORE_COUP');
  });

  it('refuses a cut card that leaves no room for the burn and a coup', () => {
    expect(() =>
      tablePreset('mini', { decks: 1, cutCard: { minCardsBehind: 7, maxCardsBehind: 40 } }),
    ).toThrow(/room for the burn/);
  });

  it('the schema parses untrusted input', () => {
    expect(TableConfigSchema.parse(JSON.parse(JSON.stringify(tablePreset('midi'))))).toEqual(
      tablePreset('midi'),
    );
  });
});
