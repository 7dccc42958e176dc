import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli as inProcess } from '../src/in-process';

const bin = fileURLToPath(new URL('../../../node_modules/.bin/baccarat', import.meta.url));
const run = promisify(execFile);

/** Spawns the installed bin; resolves with the exit code instead of throwing on non-zero. */
async function baccarat(args: string[], stdin?: string) {
  const child = run(bin, args, { encoding: 'utf8' });
  if (stdin !== undefined) {
    child.child.stdin!.end(stdin);
  }
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('baccarat CLI (spawned bin)', () => {
  it('odds --decks 8 --json: the published exact counts and house edges', async () => {
    const { code, stdout } = await baccarat(['odds', '--decks', '8', '--json']);
    expect(code).toBe(0);
    const odds = JSON.parse(stdout);
    expect(odds).toMatchObject({
      decks: 8,
      total: '4998398275503360',
      banker: '2292252566437888',
      player: '2230518282592256',
      tie: '475627426473216',
    });
    expect(odds.houseEdge.banker).toBeCloseTo(0.0106, 4);
    expect(odds.houseEdge.player).toBeCloseTo(0.0124, 4);
    expect(odds.houseEdge.tie).toBeCloseTo(0.1436, 4);
    expect(odds.houseEdge.playerPair).toBeCloseTo(0.1036, 4);
    // the side bets and Banca variants (docs/rules.md lists them beside the published figures)
    expect(Object.keys(odds.houseEdge)).toEqual(
      expect.arrayContaining([
        'eitherPair',
        'perfectPair',
        'dragonBonusPlayer',
        'dragonBonusBanker',
        'dragon7',
        'panda8',
        'ezBanker',
        'noCommissionBanker',
        'super6',
        'big',
        'small',
      ]),
    );
    expect(odds.houseEdge.dragonBonusPlayer).toBeCloseTo(0.0265, 4);
    expect(odds.houseEdge.dragon7).toBeCloseTo(0.0761, 4);
    expect(odds.houseEdge.ezBanker).toBeCloseTo(0.0102, 4);
    expect(odds.counts.dragon7).toBe('112633011329024');
    expect(odds.counts.dragonBonusBanker.margin['9']).toBe('15390342909952');
  });

  it('odds text output: the count of every event and the edge of every bet', async () => {
    const { code, stdout } = await baccarat(['odds', '--decks', '6']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Punto non-natural win by 9 +\d+ +0\.00\d+/);
    expect(stdout).toMatch(/two perfect pairs +227456349120 /);
    expect(stdout).toMatch(/Dragon Bonus Punto .* 2\.6675%/);
    expect(stdout).toMatch(/Small +1\.5:1 .* 5\.2687%/);
  });

  it('coup - --json: one JSON line per input line, error lines for bad or short sequences', async () => {
    const input = ['AS KH 5D 2C 9S', '4S 10H', '3S 3X 4D 4C', '2s 3h 4d 3c', 'KS 2H KD 3C 2S 2H'].join('\n');
    const { code, stdout } = await baccarat(['coup', '-', '--json'], `${input}\n`);
    expect(code).toBe(1); // some lines failed
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatchObject({
      player: { cards: ['AS', '5D'], total: 6 },
      banker: { cards: ['KH', '2C', '9S'], total: 1 },
      winner: 'PLAYER',
      natural: false,
      playerPair: false,
      bankerPair: false,
      cardsUsed: 5,
    });
    expect(lines[0].steps.at(-1)).toMatchObject({ rule: 'BANKER_PLAYER_STOOD_DRAWS_0_5', card: '9S' });
    expect(lines[1]).toMatchObject({ input: '4S 10H', error: { code: 'NOT_ENOUGH_CARDS' } });
    expect(lines[2]).toMatchObject({ error: { code: 'CARD_NOTATION_INVALID' } });
    expect(lines[3]).toMatchObject({ winner: 'TIE', cardsUsed: 4 }); // Punto 6, Banca 6: both stand
    expect(lines[4]).toMatchObject({ playerPair: true, winner: 'BANKER' });
  });

  it('simulate --json: whole shoes, observed vs exact, chi-square', async () => {
    const { code, stdout } = await baccarat([
      'simulate',
      '--coups',
      '20000',
      '--seed',
      '7',
      '--decks',
      '6',
      '--json',
    ]);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r.coups).toBe(20000);
    expect(r.observed.banker + r.observed.player + r.observed.tie).toBe(20000);
    expect(r.shoes).toBeGreaterThan(20000 / 70);
    expect(r.exact.banker).toBeCloseTo(0.458653, 6);
    expect(r.chiSquare.df).toBe(2);
    expect(r.observed.small + r.observed.big).toBe(20000);
    expect(Object.keys(r.zScore)).toEqual(expect.arrayContaining(['dragon7', 'panda8', 'perfectPairBoth']));
    expect(r.chiSquare.pValue).toBeGreaterThan(0);
    expect(r.chiSquare.pValue).toBeLessThanOrEqual(1);
  });
});

describe('baccarat CLI (dispatcher, in-process)', () => {
  it.each(['6', '8'])(
    'odds --decks %s --json: every count and edge to the last digit, as pinned before pyb-shoe/3 (test/fixtures)',
    async (decks) => {
      // exactOdds is combinatorial (composition -> counts) and takes no random draw: the way a shoe's
      // cards are drawn (pyb-shoe/2 shuffle, pyb-shoe/3 draw per coup) cannot move it. This pins it.
      const { code, stdout } = await inProcess(['odds', '--decks', decks, '--json']);
      expect(code).toBe(0);
      const pinned = JSON.parse(
        readFileSync(new URL(`./fixtures/odds-${decks}-decks.json`, import.meta.url), 'utf8'),
      );
      expect(JSON.parse(stdout)).toEqual(pinned);
    },
  );

  it.each([
    [[]],
    [['deal']],
    [['odds', '--decks', '9']],
    [['odds', '--decks', 'eight']],
    [['odds', '--colour', 'red']],
    [['odds', '--decks', '1', '--dealt', 'AS AS AS AS AS']],
    [['coup']],
    [['coup', 'AS', 'ZZ']],
    [['simulate', '--seed', 'x']],
    [['simulate', '--coups', '10']],
    [['simulate', '--coups', '0', '--seed', 'x']],
  ])('usage error (exit 2): %j', async (args) => {
    const { code, stderr } = await inProcess(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(/usage: baccarat/);
  });

  it('--help prints usage on stdout with exit 0', async () => {
    expect(await inProcess(['--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('simulate'),
    });
    expect(await inProcess(['coup', '--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('coup -'),
    });
  });

  it('coup with too few cards is an error, not a crash', async () => {
    expect(await inProcess(['coup', 'AS', 'KH', '5D', '2C'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('needs card #5'),
    });
    const json = await inProcess(['coup', 'AS', 'KH', '5D', '2C', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'NOT_ENOUGH_CARDS' } });
  });

  it('odds for a partly dealt shoe and a 9:1 tie', async () => {
    const { code, stdout } = await inProcess([
      'odds',
      '--decks',
      '1',
      '--dealt',
      'AS KH',
      '--tie-pays',
      '9',
      '--json',
    ]);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ decks: 1, dealt: 2, cards: 50, total: String(50 * 49 * 48 * 47 * 46 * 45) });
    expect(r.rules.tiePays).toBe(9);
  });
});
