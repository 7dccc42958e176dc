import { dealShoe, hexToBytes } from '@pyb/fairness';
import { describe, expect, it } from 'vitest';
import { runCli as cli } from '../src/in-process';

const seed = 'a1'.repeat(32);

describe('baccarat shoe', () => {
  it('--json prints the whole order, the burn and the cut index the library deals', async () => {
    const { code, stdout } = await cli([
      'shoe',
      '--server-seed',
      seed,
      '--client-seed',
      'lucky',
      '--shoe-id',
      'S-1',
      '--json',
    ]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    const shoe = dealShoe({
      serverSeed: hexToBytes(seed),
      clientSeed: 'lucky',
      shoeId: 'S-1',
      decks: 8,
      cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
    });
    expect(out.order).toHaveLength(416);
    expect(out.cutIndex).toBe(shoe.cutIndex);
    expect(out.cardsBehindCut).toBeGreaterThanOrEqual(14);
    expect(out.burn.burned).toBe(shoe.burn.burned);
    expect(out.firstCoupAt).toBe(1 + shoe.burn.burned);
    expect(out.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(out.order.slice(0, 3)).toEqual(
      Array.from(shoe.order.subarray(0, 3), (c) => 'A23456789TJQK'[c % 13]! + 'SHDC'[Math.floor(c / 13)]!),
    );
  });

  it('honours --decks and the cut-card bounds', async () => {
    const { code, stdout } = await cli([
      'shoe',
      '--server-seed',
      seed,
      '--client-seed',
      'c',
      '--shoe-id',
      's',
      '--decks',
      '6',
      '--min-behind',
      '30',
      '--max-behind',
      '30',
      '--json',
    ]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.order).toHaveLength(312);
    expect(out.cutIndex).toBe(312 - 30);
  });

  it('prints a readable listing without --json', async () => {
    const { code, stdout } = await cli([
      'shoe',
      '--server-seed',
      seed,
      '--client-seed',
      'c',
      '--shoe-id',
      's',
      '--decks',
      '1',
      '--min-behind',
      '7',
      '--max-behind',
      '20',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^shoe s: 1 deck\(s\), 52 cards; commitment [0-9a-f]{64}\nburn: \w\w shown, \d+ burned/,
    );
    expect(stdout).toMatch(/cut card before card \d+ \(\d+ cards behind it\)/);
    expect(stdout.match(/\|/g)).toHaveLength(1);
  });

  it('refuses missing or malformed seeds and impossible bounds with a usage error (exit 2)', async () => {
    expect((await cli(['shoe', '--client-seed', 'c', '--shoe-id', 's'])).code).toBe(2);
    const short = await cli(['shoe', '--server-seed', 'abc', '--client-seed', 'c', '--shoe-id', 's']);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/64 hex digits/);
    const bounds = await cli([
      'shoe',
      '--server-seed',
      seed,
      '--client-seed',
      'c',
      '--shoe-id',
      's',
      '--decks',
      '1',
      '--max-behind',
      '40',
    ]);
    expect(bounds.code).toBe(2);
    expect(bounds.stderr).toMatch(/before the cut/);
  });
});
