import {
  type Card,
  compositionOfDecks,
  exactOdds,
  houseEdge,
  parseCards,
  probabilities,
  removeCards,
  tablePreset,
} from '@pyb/engine';
import { type Command, intOption, jsonLine, parseOptions, UsageError } from '../command';

const usage = `usage: baccarat odds --decks N [--dealt "CARDS"] [--commission-bps 500] [--tie-pays 8|9] [--json]

Exact counts of every ordered 6-card outcome (BigInt) for a shoe of N decks (1-8), optionally with
some cards already dealt, and the house edge of each bet (Banca commission in basis points, Empate
8:1 or 9:1, pairs 11:1).`;

const pct = (x: number) => `${(x * 100).toFixed(4)}%`;

export const oddsCommand: Command = {
  name: 'odds',
  summary: 'exact Punto/Banca/Empate counts and house edges for a shoe',
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
    const config = tablePreset(decks === 8 ? 'full' : 'mini', { commission: { rateBps }, tiePays });
    const edge = houseEdge(config, odds);
    const p = probabilities(odds);
    const result = {
      decks,
      dealt: dealt.length,
      cards: odds.cards,
      total: odds.total.toString(),
      banker: odds.banker.toString(),
      player: odds.player.toString(),
      tie: odds.tie.toString(),
      natural: odds.natural.toString(),
      playerPair: odds.playerPair.toString(),
      bankerPair: odds.bankerPair.toString(),
      probability: p,
      rules: { commissionBps: rateBps, tiePays, pairPays: 11 },
      houseEdge: {
        banker: edge.BANKER,
        player: edge.PLAYER,
        tie: edge.TIE,
        playerPair: edge.PLAYER_PAIR,
        bankerPair: edge.BANKER_PAIR,
      },
    };
    if (values.json) {
      io.stdout.write(jsonLine(result));
      return 0;
    }
    const rows: [string, string, number, number][] = [
      ['Banca', result.banker, p.banker, edge.BANKER],
      ['Punto', result.player, p.player, edge.PLAYER],
      [`Empate ${tiePays}:1`, result.tie, p.tie, edge.TIE],
      ['Punto pair 11:1', result.playerPair, p.playerPair, edge.PLAYER_PAIR],
      ['Banca pair 11:1', result.bankerPair, p.bankerPair, edge.BANKER_PAIR],
    ];
    const lines = [
      `${decks} deck(s), ${odds.cards} cards${dealt.length ? ` (${dealt.length} dealt)` : ''}; ` +
        `commission ${rateBps} bps; ${result.total} ordered 6-card outcomes`,
      '',
      `${'bet'.padEnd(16)} ${'outcomes'.padStart(22)} ${'probability'.padStart(12)} ${'house edge'.padStart(11)}`,
      ...rows.map(
        ([name, count, prob, e]) =>
          `${name.padEnd(16)} ${count.padStart(22)} ${prob.toFixed(8).padStart(12)} ${pct(e).padStart(11)}`,
      ),
      '',
    ];
    io.stdout.write(lines.join('\n'));
    return 0;
  },
};
