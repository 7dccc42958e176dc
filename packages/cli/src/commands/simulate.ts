import {
  chiSquare,
  compositionOfDecks,
  exactOdds,
  flatEvents,
  PRESET_SHAPES,
  probabilities,
  ShoeSimulator,
  TALLY,
  type TableConfig,
  tablePreset,
} from '@pyb/engine';
import cliProgress from 'cli-progress';
import { type Command, type CommandIo, intOption, jsonLine, parseOptions, UsageError } from '../command';

const usage = `usage: baccarat simulate --coups N --seed S [--decks 8] [--one-more-coup] [--json]

Plays whole shoes (seeded xoshiro128** shuffle, simulation only; burn; cut card 14-20 cards from the
end) until N coups were played, and compares the observed frequencies with the exact ones of a full
shoe: Pearson chi-square over Banca/Punto/Empate (2 degrees of freedom) and a z-score for every event a
bet is settled on (naturals, pairs, perfect pairs, Dragon Bonus margins, Dragon 7, Panda 8, Banca wins
on 6, Big/Small). A progress bar shows on stderr (when it is a terminal) for long runs.`;

/** Long enough to be worth a progress bar. */
const PROGRESS_FROM = 500_000;
/** Coups between yields to the event loop (so the bar redraws). */
const CHUNK = 250_000;

export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'play N coups of seeded whole shoes and test them against the exact odds',
  usage,
  async run(args, io) {
    const { values } = parseOptions(args, {
      coups: { type: 'string' },
      seed: { type: 'string' },
      decks: { type: 'string', default: '8' },
      'one-more-coup': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    if (values.coups === undefined) throw new UsageError('--coups N is required');
    if (values.seed === undefined || values.seed === '') throw new UsageError('--seed S is required');
    const coups = intOption('coups', values.coups, 1, 1e12)!;
    const decks = intOption('decks', values.decks, 1, 8)!;
    const config = tableOf(decks, values['one-more-coup'] ? 'ONE_MORE_COUP' : 'FINISH_COUP');
    const sim = new ShoeSimulator(config, values.seed);

    const started = performance.now();
    await playWithProgress(sim, coups, io);
    const elapsedMs = performance.now() - started;

    const summary = summarize(sim, decks);
    const result = {
      decks,
      seed: values.seed,
      afterCutCard: config.afterCutCard,
      cutCard: config.cutCard,
      ...summary,
      elapsedMs: Math.round(elapsedMs),
      coupsPerSecond: Math.round(coups / (elapsedMs / 1000)),
    };
    io.stdout.write(values.json ? jsonLine(result) : text(result));
    return 0;
  },
};

async function playWithProgress(sim: ShoeSimulator, coups: number, io: CommandIo): Promise<void> {
  const bar =
    coups >= PROGRESS_FROM && io.stderr.isTTY
      ? new cliProgress.SingleBar(
          {
            format: 'simulate [{bar}] {percentage}% | {value}/{total} coups | ETA {eta}s',
            stream: process.stderr,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
  bar?.start(coups, 0);
  let left = coups;
  while (left > 0) {
    // Whole shoes only: a chunk ends at a shoe boundary (except the very last shoe).
    const target = Math.max(0, left - CHUNK);
    while (left > target) left -= sim.playShoe(left);
    bar?.update(coups - left);
    if (bar) await new Promise((resolve) => setImmediate(resolve));
  }
  bar?.stop();
}

/** The preset with these decks (mini for 6, full for 8), or a custom table. */
function tableOf(decks: number, afterCutCard: TableConfig['afterCutCard']): TableConfig {
  if (decks === PRESET_SHAPES.full.decks) return tablePreset('full', { afterCutCard });
  if (decks === PRESET_SHAPES.mini.decks) return tablePreset('mini', { afterCutCard });
  return tablePreset('custom', { name: `${decks}-deck simulation`, decks, afterCutCard });
}

function summarize(sim: ShoeSimulator, decks: number) {
  const t = sim.tallies;
  const coups = t[TALLY.COUPS]!;
  const exact = flatEvents(probabilities(exactOdds(compositionOfDecks(decks))));
  const observed = flatEvents(sim.events());
  const keys = Object.keys(exact);
  const frequency = Object.fromEntries(keys.map((k) => [k, observed[k]! / coups]));
  // z-score of a binomial proportion against its exact probability
  const zScore = Object.fromEntries(
    keys.map((k) => [k, (observed[k]! - coups * exact[k]!) / Math.sqrt(coups * exact[k]! * (1 - exact[k]!))]),
  );
  const gof = chiSquare(
    [observed.banker!, observed.player!, observed.tie!],
    [exact.banker!, exact.player!, exact.tie!],
  );
  return {
    coups,
    shoes: t[TALLY.SHOES]!,
    cardsPerCoup: t[TALLY.CARDS]! / coups,
    observed,
    frequency,
    exact,
    zScore,
    chiSquare: { categories: ['BANKER', 'PLAYER', 'TIE'], ...gof },
  };
}

function text(
  r: ReturnType<typeof summarize> & {
    decks: number;
    seed: string;
    elapsedMs: number;
    coupsPerSecond: number;
  },
) {
  return [
    `${r.coups} coups in ${r.shoes} shoe(s) of ${r.decks} deck(s), seed "${r.seed}"; ` +
      `${r.cardsPerCoup.toFixed(4)} cards per coup; ${r.elapsedMs} ms (${r.coupsPerSecond} coups/s)`,
    '',
    `${'event'.padEnd(32)} ${'observed'.padStart(14)} ${'frequency'.padStart(10)} ${'exact'.padStart(10)} ${'z'.padStart(8)}`,
    ...Object.keys(r.exact).map(
      (k) =>
        `${k.padEnd(32)} ${String(r.observed[k]).padStart(14)} ${r.frequency[k]!.toFixed(6).padStart(10)} ` +
        `${r.exact[k]!.toFixed(6).padStart(10)} ${r.zScore[k]!.toFixed(2).padStart(8)}`,
    ),
    '',
    `chi-square (Banca/Punto/Empate vs exact, df ${r.chiSquare.df}): ${r.chiSquare.statistic.toFixed(4)}, ` +
      `p-value ${r.chiSquare.pValue.toFixed(4)}`,
    '',
  ].join('\n');
}
