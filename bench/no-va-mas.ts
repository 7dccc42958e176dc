/**
 * `pnpm bench no-va-mas`: the wait pyb-shoe/3 adds between "no va más" and the cards, and its cost per
 * coup. In process, on the real clock: the use cases on the in-memory store, the local key service, a
 * local beacon publishing a round every 3 s (drand quicknet's period) with the 5 s margin the
 * deployment uses, and a local RFC 3161 TSA over HTTP behind the deployment's stamper (one token per
 * 1 s window, TSA_WINDOW_MS's default), so the close of betting pays its time-stamp as it does on AWS. Each round: open, one bet, close betting (the receipt), resolve (waits for the
 * named round, draws, settles), "no va más" called at a spread of phases of the beacon's period. The
 * wait is measured from the close's answer to the resolve's; the
 * draw itself (fairness drawCoupV3 against pyb-shoe/2's precomputed order) is timed apart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBeacon } from '@pyb/beacon';
import { type Actor, createCore } from '@pyb/core';
import { nextCoup, startShoe, tablePreset } from '@pyb/engine';
import { beaconRandomness, dealShoe, drawCoupV3, type ShoeStateV3, startShoeV3 } from '@pyb/fairness';
import { LocalKeyService } from '@pyb/keys';
import { MemoryStore } from '@pyb/store-memory';
import {
  HttpTimeStampAuthority,
  headAnchors,
  LocalTimeStampAuthority,
  MerkleStamper,
  timerScheduler,
} from '@pyb/timestamp';
import { startTimeStampServer } from '@pyb/timestamp/server';
import { HAND_WRITTEN, writeDocSection } from './doc-section';

const ROUNDS = Number(process.env.NO_VA_MAS_ROUNDS ?? 25);
const PERIOD = 3;
const MARGIN = 5;
/** The stamper's window (TSA_WINDOW_MS's default): every head of a window shares one token. */
const WINDOW_MS = 1000;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function waits(): Promise<{ waits: number[]; closes: number[]; stamps: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'pyb-bench-nvm-'));
  const clock = { now: () => new Date() };
  const tsa = await LocalTimeStampAuthority.create({ name: 'bench TSA', clock });
  const server = await startTimeStampServer(tsa);
  try {
    const beacon = new LocalBeacon({ dir: join(dir, 'beacon'), period: PERIOD, clock, env: {} });
    const authorities = [
      {
        authority: new HttpTimeStampAuthority(server.url, { name: 'bench TSA' }),
        trusted: [tsa.certificatePem()],
      },
    ];
    const stamper = headAnchors(
      new MerkleStamper({ authorities, scheduler: timerScheduler, windowMs: WINDOW_MS }),
      authorities,
    );
    // The time-stamp alone, as the close of betting asks for it: window plus TSA round trip.
    const stamps: number[] = [];
    const timeStamper = {
      anchor: async (digest: Uint8Array) => {
        const t = performance.now();
        const answer = await stamper.anchor(digest);
        stamps.push(performance.now() - t);
        return answer;
      },
    };
    const core = createCore({
      store: new MemoryStore(),
      keys: new LocalKeyService({ dir, env: {} }),
      beacon,
      beaconMarginSeconds: MARGIN,
      beaconWaitMs: 15_000,
      timeStamper,
      clock,
      codeVersion: 'bench',
    });
    const boss: Actor = { operatorId: 'bench', role: 'admin', supervises: [] };
    const op: Actor = { operatorId: 'bench', role: 'operator', supervises: [] };
    await core.walletTransaction(op, {
      playerId: 'p1',
      type: 'CREDIT',
      amount: 10_000_000,
      currency: 'EUR',
      idempotencyKey: 'fund',
    });
    const { tableId } = await core.createTable(boss, { name: 'bench', variant: 'mini' });
    await core.openShoe(boss, { tableId });
    const out: number[] = [];
    const closes: number[] = [];
    for (let n = 0; n < ROUNDS; n++) {
      const round = await core.openRound(op, { tableId });
      await core.placeBet(op, {
        roundId: round.roundId,
        playerId: 'p1',
        bets: [{ type: 'PLAYER', amount: 1000 }],
        idempotencyKey: `bet-${n}`,
      });
      // "No va más" at a spread of points of the beacon's period (a table's clock is not the beacon's):
      // closing right after the last resolve would always meet the period at the same phase.
      await new Promise((r) => setTimeout(r, ((n * 0.618034) % 1) * PERIOD * 1000));
      const t0 = performance.now();
      await core.closeBetting(op, { roundId: round.roundId });
      const t1 = performance.now();
      await core.resolveRound(op, { roundId: round.roundId });
      out.push(performance.now() - t1);
      closes.push(t1 - t0);
    }
    return {
      waits: out.sort((a, b) => a - b),
      closes: closes.sort((a, b) => a - b),
      stamps: stamps.sort((a, b) => a - b),
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** µs per coup drawn: pyb-shoe/3 (per coup, from the cards left) vs pyb-shoe/2 (from the dealt order). */
function drawCost(): { v3: number; v2: number } {
  const seed = new Uint8Array(32).fill(7);
  const config = tablePreset('mini');
  const inputs = {
    serverSeed: seed,
    entropy: 'ab'.repeat(32),
    shoeId: 'bench',
    decks: config.decks,
    cutCard: config.cutCard,
    afterCutCard: config.afterCutCard,
  };
  const beacon = { round: 1, randomness: beaconRandomness('cd'.repeat(48)) };
  let coups = 0;
  let t = performance.now();
  for (let shoe = 0; shoe < 40; shoe++) {
    let state: ShoeStateV3 = startShoeV3({ ...inputs, shoeId: `bench-${shoe}` });
    while (!state.finished) {
      state = drawCoupV3(seed, state, { beacon: { ...beacon, round: coups + 1 } }).state;
      coups++;
    }
  }
  const v3 = ((performance.now() - t) * 1000) / coups;
  let v2Coups = 0;
  t = performance.now();
  for (let shoe = 0; shoe < 40; shoe++) {
    const deck = dealShoe({
      serverSeed: seed,
      clientSeed: inputs.entropy,
      shoeId: `bench-${shoe}`,
      decks: config.decks,
      cutCard: config.cutCard,
    });
    let state = startShoe(deck.order);
    while (!state.finished) {
      state = nextCoup(config, deck.order, deck.cutIndex, state).state;
      v2Coups++;
    }
  }
  const v2 = ((performance.now() - t) * 1000) / v2Coups;
  return { v3, v2 };
}

export async function run(): Promise<void> {
  const load = loadavg()[0]!;
  const { waits: w, closes, stamps } = await waits();
  const cost = drawCost();
  const ms = (x: number) => `${(x / 1000).toFixed(2)} s`;
  const rows = [
    ['rounds', String(ROUNDS)],
    ['"no va más" → cards, median', ms(quantile(w, 0.5))],
    ['"no va más" → cards, p99', ms(quantile(w, 0.99))],
    ['"no va más" → cards, min / max', `${ms(w[0]!)} / ${ms(w.at(-1)!)}`],
    [
      'close-betting call (receipt signed and time-stamped), median',
      `${quantile(closes, 0.5).toFixed(1)} ms`,
    ],
    ['close-betting call, p99', `${quantile(closes, 0.99).toFixed(1)} ms`],
    [
      `time-stamp of a head (${WINDOW_MS} ms window + local TSA over HTTP), median / p99`,
      `${quantile(stamps, 0.5).toFixed(0)} / ${quantile(stamps, 0.99).toFixed(0)} ms`,
    ],
    ['draw per coup, pyb-shoe/3 (from the cards left)', `${cost.v3.toFixed(1)} µs`],
    ['coup per coup, pyb-shoe/2 (order dealt once per shoe, amortised)', `${cost.v2.toFixed(1)} µs`],
  ];
  for (const [name, value] of rows) console.log(`  ${name!.padEnd(66)} ${value!.padStart(14)}`);
  writeDocSection(
    '## "No va más" to the cards (pyb-shoe/3)',
    [
      '## "No va más" to the cards (pyb-shoe/3)',
      '',
      `\`pnpm bench no-va-mas\` (bench/no-va-mas.ts), ${ROUNDS} rounds in process on the real clock: a local beacon with ${PERIOD}-second rounds (quicknet's period) and the ${MARGIN}-second margin, a local RFC 3161 TSA over HTTP behind the deployment's stamper (${WINDOW_MS} ms window); load average ${load.toFixed(1)}, Node ${process.version}.`,
      '',
      '| measure | value |',
      '|---|---|',
      ...rows.map(([name, value]) => `| ${name} | ${value} |`),
      '',
      HAND_WRITTEN,
      '',
    ].join('\n'),
  );
}
