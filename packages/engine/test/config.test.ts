import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { betLimit, DEFAULT_SIDE_BET_PAYS, TableConfigSchema, tablePreset } from '../src';

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
      tablePreset('custom', {
        name: 'One deck',
        decks: 1,
        cutCard: { minCardsBehind: 7, maxCardsBehind: 40 },
      }),
    ).toThrow(/room for the burn/);
  });

  it('the schema parses untrusted input', () => {
    expect(TableConfigSchema().parse(JSON.parse(JSON.stringify(tablePreset('midi'))))).toEqual(
      tablePreset('midi'),
    );
  });

  it('a configuration without the new features keeps its canonical JSON (the signed statement embeds it)', () => {
    // Keys sorted as RFC 8785 sorts them; the midi preset as it was before custom tables, Banca modes
    // and side bets existed, key for key.
    const sorted = (v: unknown): unknown =>
      typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
    expect(JSON.stringify(sorted(tablePreset('midi')))).toBe(
      '{"afterCutCard":"FINISH_COUP","commission":{"mode":"AT_PAYMENT","rateBps":500},"currency":"EUR",' +
        '"cutCard":{"maxCardsBehind":20,"minCardsBehind":14},"decks":6,"limits":{"BANKER":{"max":1000000,' +
        '"min":1000},"BANKER_PAIR":{"max":90000,"min":500},"PLAYER":{"max":1000000,"min":1000},' +
        '"PLAYER_PAIR":{"max":90000,"min":500},"TIE":{"max":125000,"min":500}},"pairBets":false,"seats":9,' +
        '"tiePays":8,"variant":"midi"}',
    );
    for (const variant of ['mini', 'midi', 'full'] as const) {
      expect(Object.keys(tablePreset(variant))).not.toContain('name');
      expect(Object.keys(tablePreset(variant))).not.toContain('bankerMode');
      expect(Object.keys(tablePreset(variant))).not.toContain('sideBets');
    }
  });
});

describe('presets enforce their table type (seeds 000, 004)', () => {
  it.each([
    ['mini', { seats: 14 }, 'seats'],
    ['mini', { decks: 1 }, 'decks'],
    ['mini', { decks: 8 }, 'decks'],
    ['midi', { seats: 7 }, 'seats'],
    ['full', { decks: 6 }, 'decks'],
    ['full', { seats: 12 }, 'seats'],
  ] as const)('a %s table with %j is refused: it is a custom table', (variant, override, path) => {
    try {
      tablePreset(variant, override);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ZodError);
      const issue = (e as ZodError).issues.find((i) => i.path[0] === path);
      expect(issue?.message).toMatch(/custom table/);
    }
  });

  it('a custom table takes any seats and decks within the schema, and needs a name', () => {
    const twelve = tablePreset('custom', { name: 'Punto y Banca 12', seats: 12, decks: 8 }); // seed 003: 12 places
    expect(twelve).toMatchObject({ variant: 'custom', name: 'Punto y Banca 12', seats: 12, decks: 8 });
    expect(tablePreset('custom', { name: 'Test deck', decks: 1, seats: 1 }).decks).toBe(1);
    expect(() => tablePreset('custom', { decks: 2 })).toThrow(/custom table needs a name/);
    expect(() => tablePreset('custom', { name: 'x', seats: 15 })).toThrow(ZodError);
  });

  it('only a custom table has a name, and a name is displayable text', () => {
    expect(() => tablePreset('mini', { name: 'Mini 1' })).toThrow(/only a custom table has a name/);
    for (const name of [
      '',
      ' padded ',
      'bell\u0007',
      'rtl\u202eevil',
      'a\u2028b',
      'x'.repeat(81),
      'lone\ud800',
    ]) {
      expect(() => tablePreset('custom', { name }), JSON.stringify(name)).toThrow(ZodError);
    }
    expect(tablePreset('custom', { name: 'Ñandú 🂡 — 4 decks' }).name).toBe('Ñandú 🂡 — 4 decks');
  });
});

describe('side bets and Banca modes in the configuration', () => {
  const limit = { min: 100, max: 10_000 };

  it('a side bet is offered with its limit; its pay table defaults when left out', () => {
    const t = tablePreset('mini', { sideBets: { DRAGON_7: { limit }, BIG: { limit } } });
    expect(t.sideBets).toEqual({
      DRAGON_7: { pays: { win: 40, per: 1 }, limit },
      BIG: { pays: { win: 54, per: 100 }, limit },
    });
    expect(betLimit(t, 'DRAGON_7')).toEqual(limit);
    expect(betLimit(t, 'PANDA_8')).toBeUndefined();
    expect(betLimit(t, 'PLAYER_PAIR')).toBeUndefined(); // pairBets off
    expect(betLimit(tablePreset('mini', { pairBets: true }), 'PLAYER_PAIR')).toEqual({
      min: 100,
      max: 45_000,
    });
    const dragon = tablePreset('mini', { sideBets: { DRAGON_BONUS_PLAYER: { limit } } }).sideBets!;
    expect(dragon.DRAGON_BONUS_PLAYER).toEqual({ ...DEFAULT_SIDE_BET_PAYS.DRAGON_BONUS, limit });
    // parsing is idempotent: what was stored parses back to itself
    expect(TableConfigSchema().parse(JSON.parse(JSON.stringify(t)))).toEqual(t);
  });

  it('keeps a pay table the operator sets', () => {
    const t = tablePreset('mini', {
      sideBets: { SUPER_6: { pays: { win: 15, per: 1 }, limit }, SMALL: { pays: { win: 3, per: 2 }, limit } },
    });
    expect(t.sideBets?.SUPER_6?.pays).toEqual({ win: 15, per: 1 });
  });

  it.each([
    ['an empty sideBets (off is the field left out)', { sideBets: {} }],
    ['a side bet without a limit', { sideBets: { BIG: {} } }],
    ['an unknown side bet', { sideBets: { LUCKY_7: { limit } } }],
    ['pays per 0', { sideBets: { BIG: { pays: { win: 54, per: 0 }, limit } } }],
    ['pays win 0', { sideBets: { BIG: { pays: { win: 0, per: 1 }, limit } } }],
    ['a fractional pay', { sideBets: { BIG: { pays: { win: 0.54, per: 1 }, limit } } }],
    ['a limit min above max', { sideBets: { BIG: { limit: { min: 10, max: 5 } } } }],
    [
      'a Dragon Bonus margin of 3',
      { sideBets: { DRAGON_BONUS_BANKER: { margin: { 3: { win: 1, per: 1 } }, limit } } },
    ],
    ['an unknown Banca mode', { bankerMode: 'COMMISSION' }],
  ])('refuses %s', (_, override) => {
    expect(() => tablePreset('mini', override as never)).toThrow(ZodError);
  });

  it('EZ and Super 6 are one choice of Banca mode; absent means commission', () => {
    expect(tablePreset('mini', { bankerMode: 'EZ' }).bankerMode).toBe('EZ');
    expect(tablePreset('mini', { bankerMode: 'SUPER_6' }).bankerMode).toBe('SUPER_6');
    expect(tablePreset('mini').bankerMode).toBeUndefined();
  });

  it('an EZ table may raise the cut card (deal less deep, docs/rules.md): 1.5 decks behind it, up to the burn and a coup', () => {
    const ez = tablePreset('full', {
      bankerMode: 'EZ',
      sideBets: { DRAGON_7: { limit }, PANDA_8: { limit } },
      cutCard: { minCardsBehind: 78, maxCardsBehind: 90 },
    });
    expect(ez.cutCard).toEqual({ minCardsBehind: 78, maxCardsBehind: 90 });
    expect(
      tablePreset('full', { cutCard: { minCardsBehind: 7, maxCardsBehind: 416 - 17 } }).cutCard
        .maxCardsBehind,
    ).toBe(399);
    expect(() => tablePreset('full', { cutCard: { maxCardsBehind: 400 } })).toThrow(/room for the burn/);
  });
});
