import {
  type Card,
  compositionOfDecks,
  DEFAULT_SIDE_BET_PAYS,
  exactOdds,
  flatEvents,
  houseEdge,
  PAIR_PAYS,
  type Pays,
  parseCards,
  probabilities,
  removeCards,
} from '@pyb/engine';
import { type Command, intOption, jsonLine, parseOptions, UsageError } from '../command';

const usage = `usage: baccarat odds --decks N [--dealt "CARDS"] [--commission-bps 500] [--tie-pays 8|9] [--json]

Exact counts of every ordered 6-card outcome (BigInt) for a shoe of N decks (1-8), optionally with
some cards already dealt, for every event a bet is settled on, and the house edge of each bet: Banca
(commission in basis points), Punto, Empate (8:1 or 9:1), the pairs (11:1), and the side bets and
Banca variants at their default pay tables (docs/rules.md).`;

const pct = (x: number) => `${(x * 100).toFixed(4)}%`;
const ratio = (p: Pays) => `${p.per === 1 ? p.win : p.win / p.per}:1`;
const { DRAGON_BONUS } = DEFAULT_SIDE_BET_PAYS;

/** Names of the events in the text output, in the order printed. */
const EVENT_NAMES: Record<string, string> = {
  banker: 'Banca wins',
  player: 'Punto wins',
  tie: 'Empate',
  natural: 'a natural',
  playerPair: 'Punto pair',
  bankerPair: 'Banca pair',
  eitherPair: 'either pair',
  perfectPairOne: 'one perfect pair',
  perfectPairBoth: 'two perfect pairs',
  dragon7: 'Banca wins, three-card 7',
  panda8: 'Punto wins, three-card 8',
  bankerWinOn6: 'Banca wins on 6',
  small: '4 cards',
  big: '5 or 6 cards',
};
const dragonName = (key: string) => {
  const [side, event] = key.split('.') as [string, string];
  const who = side === 'dragonBonusPlayer' ? 'Punto' : 'Banca';
  if (event === 'naturalWin') return `${who} natural win`;
  if (event === 'naturalTie') return `natural tie`;
  return `${who} non-natural win by ${event.slice('margin'.length)}`;
};

export const oddsCommand: Command = {
  name: 'odds',
  summary: 'exact counts and house edges of every bet for a shoe',
  usage,
  async run(args, io) {
    const { values } = parseOptions(args, {
      decks: { type: 'string', default: '8' },
      dealt: { type: 'string' },
      'commission-bps': { type: 'string', default: '500' },
      'tie-pays': { type: 'string', default: '8' },
      json: { type: 'boolean', default: false },
    });
    const decks = intOption('decks', values.decks, 1, 8)!;
    const rateBps = intOption('commission-bps', values['commission-bps'], 0, 10_000)!;
    const tiePays = intOption('tie-pays', values['tie-pays'], 8, 9) as 8 | 9;
    let dealt: Card[] = [];
    let composition = compositionOfDecks(decks);
    if (values.dealt !== undefined) {
      try {
        dealt = parseCards(values.dealt);
        composition = removeCards(composition, dealt);
      } catch (error) {
        throw new UsageError(`--dealt: ${(error as Error).message}`);
      }
    }
    const odds = exactOdds(composition);
    const edge = houseEdge({ commission: { rateBps, mode: 'AT_PAYMENT' }, tiePays }, odds);
    const p = probabilities(odds);
    const { cards, total, ...counts } = odds;
    const result = {
      decks,
      dealt: dealt.length,
      cards,
      total: total.toString(),
      banker: odds.banker.toString(),
      player: odds.player.toString(),
      tie: odds.tie.toString(),
      natural: odds.natural.toString(),
      playerPair: odds.playerPair.toString(),
      bankerPair: odds.bankerPair.toString(),
      counts,
      probability: p,
      rules: { commissionBps: rateBps, tiePays, pairPays: PAIR_PAYS, sideBets: DEFAULT_SIDE_BET_PAYS },
      houseEdge: edge,
    };
    if (values.json) {
      io.stdout.write(jsonLine(result));
      return 0;
    }
    const flatCounts = flatEvents(counts);
    const flatP = flatEvents(p);
    const eventRows = Object.keys(flatCounts)
      .filter((k) => !k.startsWith('dragonBonusBanker.naturalTie'))
      .map((k) => [EVENT_NAMES[k] ?? dragonName(k), String(flatCounts[k]), flatP[k]!] as const);
    const margins = Object.values(DRAGON_BONUS.margin)
      .reverse()
      .map((pays) => ratio(pays).replace(':1', ''))
      .join('/');
    const bets: [string, string, number][] = [
      ['Banca', `1:1 less ${rateBps} bps`, edge.banker],
      ['Punto', '1:1', edge.player],
      ['Empate', `${tiePays}:1`, edge.tie],
      ['Punto pair', `${PAIR_PAYS}:1`, edge.playerPair],
      ['Banca pair', `${PAIR_PAYS}:1`, edge.bankerPair],
      ['Either Pair', ratio(DEFAULT_SIDE_BET_PAYS.EITHER_PAIR.pays), edge.eitherPair],
      [
        'Perfect Pair',
        `${ratio(DEFAULT_SIDE_BET_PAYS.PERFECT_PAIR.pays)}, both ${ratio(DEFAULT_SIDE_BET_PAYS.PERFECT_PAIR.paysBoth)}`,
        edge.perfectPair,
      ],
      [
        'Dragon Bonus Punto',
        `natural ${ratio(DRAGON_BONUS.natural)}, by 9..4: ${margins} to 1`,
        edge.dragonBonusPlayer,
      ],
      ['Dragon Bonus Banca', 'same', edge.dragonBonusBanker],
      ['Dragon 7', ratio(DEFAULT_SIDE_BET_PAYS.DRAGON_7.pays), edge.dragon7],
      ['Panda 8', ratio(DEFAULT_SIDE_BET_PAYS.PANDA_8.pays), edge.panda8],
      ['EZ Banca', '1:1, push on three-card 7', edge.ezBanker],
      ['Super 6 table Banca', '1:1, win on 6 pays 1:2', edge.noCommissionBanker],
      ['Super 6', ratio(DEFAULT_SIDE_BET_PAYS.SUPER_6.pays), edge.super6],
      ['Big', ratio(DEFAULT_SIDE_BET_PAYS.BIG.pays), edge.big],
      ['Small', ratio(DEFAULT_SIDE_BET_PAYS.SMALL.pays), edge.small],
    ];
    const lines = [
      `${decks} deck(s), ${odds.cards} cards${dealt.length ? ` (${dealt.length} dealt)` : ''}; ` +
        `${result.total} ordered 6-card outcomes`,
      '',
      `${'event'.padEnd(36)} ${'outcomes'.padStart(22)} ${'probability'.padStart(12)}`,
      ...eventRows.map(
        ([name, count, prob]) => `${name.padEnd(36)} ${count.padStart(22)} ${prob.toFixed(8).padStart(12)}`,
      ),
      '',
      `${'bet'.padEnd(20)} ${'pays'.padEnd(44)} ${'house edge'.padStart(11)}`,
      ...bets.map(([name, pays, e]) => `${name.padEnd(20)} ${pays.padEnd(44)} ${pct(e).padStart(11)}`),
      '',
    ];
    io.stdout.write(lines.join('\n'));
    return 0;
  },
};
