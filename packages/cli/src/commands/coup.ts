import { createInterface } from 'node:readline';
import {
  type Card,
  type CoupResult,
  cardsText,
  handNotation,
  parseCards,
  playCoup,
  stepCard,
} from '@pyb/engine';
import { type Command, type CommandIo, jsonLine, parseOptions, UsageError } from '../command';

const usage = `usage: baccarat coup CARD CARD CARD CARD [CARD] [CARD] [--json]
       baccarat coup - [--json]      one sequence a line on stdin, one result a line on stdout

Plays one coup from cards in the order they leave the shoe (P, B, P, B, then any third cards) with
seed 000's tableau. Cards: AS, TD or 10D, KH, ... (case-insensitive). Cards after the coup are unused.
With -, a line that cannot be played (bad card, too few cards) gives an error line; exit code 1 if any did.`;

/** The coup as JSON: cards in notation, every step with the rule applied. */
export const coupJson = (coup: CoupResult) => ({
  player: handNotation(coup.player),
  banker: handNotation(coup.banker),
  winner: coup.winner,
  natural: coup.natural,
  playerNatural: coup.playerNatural,
  bankerNatural: coup.bankerNatural,
  playerPair: coup.playerPair,
  bankerPair: coup.bankerPair,
  cardsUsed: coup.cardsUsed,
  steps: coup.steps.map((s) => ({
    action: s.action,
    to: s.to,
    card: stepCard(s),
    rule: s.rule,
    note: s.note,
  })),
});

const NAME = { PLAYER: 'Punto', BANKER: 'Banca', TIE: 'Empate' } as const;

const coupText = (coup: CoupResult): string => {
  const hand = (h: CoupResult['player']) => `${cardsText(h.cards)} = ${h.total}`;
  const marks = [
    coup.natural ? 'natural' : '',
    coup.playerPair ? 'Punto pair' : '',
    coup.bankerPair ? 'Banca pair' : '',
  ].filter(Boolean);
  return [
    ...coup.steps.map((s) => `  ${s.note}  [${s.rule}]`),
    `Punto ${hand(coup.player)} | Banca ${hand(coup.banker)} -> ${NAME[coup.winner]}` +
      `${coup.winner === 'TIE' ? '' : ' wins'}${marks.length ? ` (${marks.join(', ')})` : ''}; ${coup.cardsUsed} cards`,
    '',
  ].join('\n');
};

const errorOf = (error: unknown) => ({
  code: (error as { code?: string }).code ?? 'INVALID_SEQUENCE',
  message: (error as Error).message,
});

async function fromStdin(io: CommandIo, json: boolean): Promise<number> {
  let failed = false;
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    let cards: Card[];
    try {
      cards = parseCards(line);
      if (cards.length === 0) throw Object.assign(new Error('empty sequence'), { code: 'EMPTY_SEQUENCE' });
      const coup = playCoup(cards);
      io.stdout.write(json ? jsonLine(coupJson(coup)) : coupText(coup));
    } catch (error) {
      failed = true;
      io.stdout.write(
        json ? jsonLine({ input: line, error: errorOf(error) }) : `error: ${errorOf(error).message}\n`,
      );
    }
  }
  return failed ? 1 : 0;
}

export const coupCommand: Command = {
  name: 'coup',
  summary: 'play one coup from given cards (or many, one per stdin line)',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, { json: { type: 'boolean', default: false } }, true);
    if (positionals.length === 1 && positionals[0] === '-') return fromStdin(io, values.json);
    if (positionals.length === 0) throw new UsageError('give the cards, or - to read sequences from stdin');
    let cards: Card[];
    try {
      cards = positionals.flatMap((p) => parseCards(p));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    try {
      const coup = playCoup(cards);
      io.stdout.write(values.json ? jsonLine(coupJson(coup)) : coupText(coup));
      return 0;
    } catch (error) {
      if (values.json) io.stdout.write(jsonLine({ error: errorOf(error) }));
      else io.stderr.write(`baccarat coup: ${errorOf(error).message}\n`);
      return 1;
    }
  },
};
