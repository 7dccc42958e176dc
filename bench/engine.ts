/**
 * Engine speed on one core: whole-shoe simulation (coups/s), the packed coup hot path alone, the
 * step-logging playCoup used by replay, and exact-odds time. Run: `pnpm bench engine`.
 */
import { cpus, loadavg } from 'node:os';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  canonicalShoe,
  codeCardsUsed,
  compositionOfDecks,
  coupCode,
  exactOdds,
  parseCards,
  playCoup,
  removeCards,
  ShoeSimulator,
  SIDE_BET_TYPES,
  type SideBets,
  settle,
  shuffleInPlace,
  tablePreset,
  Xoshiro128,
} from '@pyb/engine';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

function time(f: () => void): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

/** Runs f `runs` times after one warm-up run; returns the per-run ms. */
function repeat(runs: number, f: () => void): number[] {
  f();
  return Array.from({ length: runs }, () => time(f));
}

export interface EngineBench {
  simulateCoupsPerSecond: { median: number; best: number };
  /** coups per second of this process's CPU time (user + system): robust when other processes share the cores */
  simulateCoupsPerCpuSecond: number;
  hotPathCoupsPerSecond: number;
  playCoupPerSecond: number;
  /** settle() of one position holding every bet type (base bets and all nine side bets) */
  settleAllBetsPerSecond: number;
  exactOddsMs: { decks8Cold: number; decks8: number; decks6: number; partlyDealt8: number };
  heapGrowthBytesPer10MCoups: number;
  newSpaceGrowthBytesPer10MCoups: number;
}

export function benchEngine(): EngineBench {
  // Exact odds first, while exactOdds is still cold in this process.
  const coldMs = time(() => exactOdds(compositionOfDecks(8)));

  // 1. Whole shoes: seeded shuffle, burn, cut card 14-20 from the end, coups until the shoe ends.
  const COUPS = 3_000_000;
  const sim = new ShoeSimulator(tablePreset('full'), 'bench');
  sim.playCoups(2_000_000); // warm-up (JIT)
  const simRuns: number[] = [];
  const simCpu: number[] = [];
  for (let i = 0; i < 11; i++) {
    const cpu0 = process.cpuUsage();
    simRuns.push(time(() => sim.playCoups(COUPS)));
    const cpu = process.cpuUsage(cpu0);
    simCpu.push((cpu.user + cpu.system) / 1000);
  }
  const perSecond = (ms: number) => COUPS / (ms / 1000);

  // Allocation check: heap after vs before 10M more coups, each after a full GC (exposed at run time),
  // and the young-generation heap used during the run (allocation would fill it and force scavenges).
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const newSpace = () =>
    getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_used_size ?? 0;
  const newBefore = newSpace();
  sim.playCoups(10_000_000);
  const newSpaceGrowth = newSpace() - newBefore;
  gc();
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;

  // 2. The coup hot path alone over pre-shuffled shoes (no shuffle cost).
  const shoes = Array.from({ length: 64 }, (_, i) => {
    const order = canonicalShoe(8);
    shuffleInPlace(order, new Xoshiro128(i));
    return order;
  });
  let hotCoups = 0;
  let sink = 0;
  const hotMs = median(
    repeat(5, () => {
      hotCoups = 0;
      for (let rep = 0; rep < 2_000; rep++) {
        const order = shoes[rep & 63]!;
        for (let pos = 11; pos < order.length - 20; ) {
          const code = coupCode(order, pos);
          sink += code & 3;
          pos += codeCardsUsed(code);
          hotCoups++;
        }
      }
    }),
  );

  // 3. playCoup with its step log (the replay path; allocates by design).
  const seq = parseCards('AS 2H 3D 4C 5S 6H');
  const playMs = median(
    repeat(5, () => {
      for (let i = 0; i < 500_000; i++) sink += playCoup(seq).cardsUsed;
    }),
  );
  // 3b. settle() of a position with every bet type on a table offering every side bet (what resolve
  // and the replay verifier do per position).
  const limit = { min: 1, max: 1_000_000 };
  const sideBets = Object.fromEntries(SIDE_BET_TYPES.map((t) => [t, { limit }])) as SideBets;
  const allBets = tablePreset('full', { pairBets: true, sideBets });
  const position = [
    { type: 'BANKER' as const, amount: 1_000 },
    { type: 'TIE' as const, amount: 100 },
    { type: 'PLAYER_PAIR' as const, amount: 100 },
    { type: 'BANKER_PAIR' as const, amount: 100 },
    ...SIDE_BET_TYPES.map((type) => ({ type, amount: 100 })),
  ];
  const coups = shoes[0]!.subarray(11, 11 + 64 * 6);
  const played = Array.from({ length: 64 }, (_, i) => playCoup(coups, i * 6));
  const settleMs = median(
    repeat(5, () => {
      for (let i = 0; i < 100_000; i++) sink += settle(allBets, position, played[i & 63]!).payout;
    }),
  );
  if (sink === -1) console.log(sink); // keep the loops observable

  // 4. Exact odds: the first call in a fresh process (what the CLI pays), then warm medians.
  const eight = compositionOfDecks(8);
  const dealt = removeCards(eight, canonicalShoe(2).subarray(0, 100));
  const warm = (f: () => void) => {
    for (let i = 0; i < 10; i++) f();
    return median(Array.from({ length: 10 }, () => time(f)));
  };
  return {
    simulateCoupsPerSecond: { median: perSecond(median(simRuns)), best: perSecond(Math.min(...simRuns)) },
    simulateCoupsPerCpuSecond: perSecond(median(simCpu)),
    hotPathCoupsPerSecond: hotCoups / (hotMs / 1000),
    playCoupPerSecond: 500_000 / (playMs / 1000),
    settleAllBetsPerSecond: 100_000 / (settleMs / 1000),
    exactOddsMs: {
      decks8Cold: coldMs,
      decks8: warm(() => exactOdds(eight)),
      decks6: warm(() => exactOdds(compositionOfDecks(6))),
      partlyDealt8: warm(() => exactOdds(dealt)),
    },
    heapGrowthBytesPer10MCoups: heapGrowth,
    newSpaceGrowthBytesPer10MCoups: newSpaceGrowth,
  };
}

export async function run(): Promise<void> {
  console.log(
    `engine bench — node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, ` +
      `one core (single thread), load average ${loadavg()[0]!.toFixed(2)}`,
  );
  const r = benchEngine();
  const rows: [string, string][] = [
    [
      'simulate whole shoes, 8 decks (median of 11 x 3M coups)',
      `${fmt(r.simulateCoupsPerSecond.median)} coups/s`,
    ],
    ['simulate whole shoes, 8 decks (best run)', `${fmt(r.simulateCoupsPerSecond.best)} coups/s`],
    ['simulate whole shoes, 8 decks (per CPU-second, median)', `${fmt(r.simulateCoupsPerCpuSecond)} coups/s`],
    ['coupCode hot path alone (pre-shuffled shoes)', `${fmt(r.hotPathCoupsPerSecond)} coups/s`],
    ['playCoup with step log (replay path)', `${fmt(r.playCoupPerSecond)} coups/s`],
    ['settle a position of all 14 bet types', `${fmt(r.settleAllBetsPerSecond)} positions/s`],
    ['exact odds, 8 decks, first call (cold JIT)', `${r.exactOddsMs.decks8Cold.toFixed(1)} ms`],
    ['exact odds, 8 decks (warm median)', `${r.exactOddsMs.decks8.toFixed(1)} ms`],
    ['exact odds, 6 decks (warm median)', `${r.exactOddsMs.decks6.toFixed(1)} ms`],
    ['exact odds, 8 decks less 100 cards (warm median)', `${r.exactOddsMs.partlyDealt8.toFixed(1)} ms`],
    ['heap growth over 10M simulated coups (after GC)', `${fmt(r.heapGrowthBytesPer10MCoups)} bytes`],
    ['young-generation bytes allocated over 10M coups', `${fmt(r.newSpaceGrowthBytesPer10MCoups)} bytes`],
  ];
  for (const [name, value] of rows) console.log(`  ${name.padEnd(58)} ${value.padStart(20)}`);
  console.log(JSON.stringify({ engine: r, node: process.version, loadAverage: loadavg()[0] }));
}
