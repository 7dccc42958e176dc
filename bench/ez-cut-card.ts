/**
 * Not a speed benchmark: what a perfect card counter could win on the EZ side bets (Dragon 7, Panda 8)
 * depending on how deep the shoe is dealt — the reason an EZ table may raise its cut card
 * (docs/rules.md, "Dealing depth on EZ tables"). Run: `./node_modules/.bin/tsx bench/ez-cut-card.ts`
 * (EZ_SHOES=N for another number of shoes).
 *
 * Method: seeded 8-deck shoes (xoshiro128**, simulation only), played with the engine's shoe runner.
 * Before every coup of the second half of the shoe, the exact odds of the cards left (exactOdds, every
 * ordered 6-card outcome) give the Dragon 7 and Panda 8 edges; a perfect counter bets 1 unit exactly
 * when the edge favours him. Each shuffle is read for several cut-card depths: with the cut card placed
 * deeper in front (more cards behind it) the shoe ends earlier, so the counter keeps only the coups up
 * to the one that brings the cut card out. The first half of the shoe is left out to keep the run short
 * (its compositions are close to a full shoe's, where the edges are the house's).
 */
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import {
  canonicalShoe,
  compositionOfCards,
  exactOdds,
  houseEdge,
  ShoeRunner,
  shuffleInPlace,
  tablePreset,
  Xoshiro128,
} from '@pyb/engine';

const SHOES = Number(process.env.EZ_SHOES ?? 200);
const DEPTHS = [
  { label: '14-20 cards behind (the presets)', behind: [14, 20] },
  { label: '52 behind (1 deck)', behind: [52, 52] },
  { label: '78 behind (1.5 decks)', behind: [78, 78] },
  { label: '104 behind (2 decks)', behind: [104, 104] },
] as const;

interface Tally {
  coups: number;
  dragonBets: number;
  dragonGain: number;
  pandaBets: number;
  pandaGain: number;
}

export async function run(): Promise<void> {
  const started = performance.now();
  const config = tablePreset('full');
  const rng = new Xoshiro128('ez cut card depth');
  const tallies = DEPTHS.map(
    (): Tally => ({ coups: 0, dragonBets: 0, dragonGain: 0, pandaBets: 0, pandaGain: 0 }),
  );
  const order = canonicalShoe(8);
  for (let s = 0; s < SHOES; s++) {
    shuffleInPlace(order, rng);
    // The cut card of each depth, drawn once per shoe; the runner plays to the shallowest (the presets').
    const cuts = DEPTHS.map((d) => order.length - (d.behind[0] + rng.below(d.behind[1] - d.behind[0] + 1)));
    const runner = new ShoeRunner(config, order, cuts[0]!);
    const ended = DEPTHS.map(() => false);
    for (let coup = runner.next(); coup; coup = runner.next()) {
      const left = order.length - coup.start;
      const edges =
        left <= order.length / 2
          ? houseEdge(config, exactOdds(compositionOfCards(order.subarray(coup.start))))
          : undefined;
      DEPTHS.forEach((_, k) => {
        if (ended[k]) return;
        const t = tallies[k]!;
        t.coups++;
        if (edges && edges.dragon7 < 0) {
          t.dragonBets++;
          t.dragonGain -= edges.dragon7;
        }
        if (edges && edges.panda8 < 0) {
          t.pandaBets++;
          t.pandaGain -= edges.panda8;
        }
        // FINISH_COUP: the coup that brings out this depth's cut card is its last.
        if (coup.start + coup.result.cardsUsed > cuts[k]!) ended[k] = true;
      });
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `EZ side bets vs dealing depth — ${SHOES} seeded 8-deck shoes, ${cpus()[0]?.model ?? 'CPU'}, ` +
      `${seconds.toFixed(0)} s; a perfect counter bets 1 unit when the exact edge of the cards left favours him`,
  );
  console.log(
    `  ${'cut card'.padEnd(34)} ${'coups/shoe'.padStart(10)} ${'D7 bets/shoe'.padStart(13)} ${'D7 units/shoe'.padStart(14)} ${'P8 bets/shoe'.padStart(13)} ${'P8 units/shoe'.padStart(14)}`,
  );
  DEPTHS.forEach((d, k) => {
    const t = tallies[k]!;
    const per = (x: number, digits: number) => (x / SHOES).toFixed(digits);
    console.log(
      `  ${d.label.padEnd(34)} ${per(t.coups, 1).padStart(10)} ${per(t.dragonBets, 2).padStart(13)} ` +
        `${per(t.dragonGain, 3).padStart(14)} ${per(t.pandaBets, 2).padStart(13)} ${per(t.pandaGain, 3).padStart(14)}`,
    );
  });
  console.log(JSON.stringify({ ezCutCard: { shoes: SHOES, depths: DEPTHS, tallies } }));
}

// Run directly (it is an analysis, not one of the `pnpm bench` speed suites).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
