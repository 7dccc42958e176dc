/**
 * The rounds of a demo pyb-shoe/3 shoe (docs/provably-fair.md §15.11), as the platform writes them:
 * betting closes and names a beacon round (its head signed: the operator's receipt), the deal waits
 * for that round and draws the coup from it (drawCoupV3); a dealer-error void burns with the round
 * its betting close named (burnV3). The start is fixed by round R of the contributions' close.
 * `forge` lets a test build, with the platform's own keys, the forgeries an insider could.
 */
import { betList, formatCard, settle } from '@pyb/engine';
import { type BeaconRound, beaconRandomness, beaconRoundAfter, roundTime } from '../src/beacon';
import { type RecordedPosition, type RecordedRound, recordedBurn, recordedCoup } from '../src/bundle';
import { shoeEntropyV3 } from '../src/entropy';
import { betsDigest, refundsDigest, settlementsDigest } from '../src/salted';
import { burnV3, drawCoupV3, type ShoeStateV3, startShoeV3 } from '../src/shoe-v3';
import { voidReportV3 } from '../src/voids';
import { demoBets, demoLeaves, demoVoidNote, type PlayContext, type Played } from './demo-play';

const withRandomness = (b: BeaconRound) => ({ ...b, randomness: beaconRandomness(b.signature) });

export async function playV3(ctx: PlayContext): Promise<Played> {
  const { input, append, signHead } = ctx;
  const { table, shoeId } = input;
  const { network, marginSeconds, sign } = input.beacon;
  if (!sign) throw new Error('a pyb-shoe/3 demo needs a beacon that signs its rounds (a local beacon key)');
  let state: ShoeStateV3 = startShoeV3({
    serverSeed: input.serverSeed,
    entropy: shoeEntropyV3(ctx.entropyInputs),
    shoeId,
    decks: table.decks,
    cutCard: table.cutCard,
    afterCutCard: table.afterCutCard,
  });
  const start = state;
  const salt = input.digestSalt;
  const note = demoVoidNote(input);
  let used = false;
  const rounds: RecordedRound[] = [];
  let ledgerSeq = 100;
  for (let n = 1; n <= input.rounds && !state.finished; n++) {
    const roundId = `${shoeId}-r${n}`;
    append('ROUND_OPENED', roundId, { tableId: input.tableId, number: n });
    const placed = demoBets(table, n).map((p) => ({
      ...p,
      stake: betList(p.bets).reduce((s, b) => s + b.amount, 0),
      calls: betList(p.bets).length,
    }));
    const open = placed.map((p) => ({ ...p, settlement: null, ledgerSeq: null }));
    ctx.waitUntil(ctx.now() + (input.forge?.lateSeconds?.(n) ?? 0) * 1000);
    const closing = { betsDigest: betsDigest(open, salt), positions: open.length };
    const closedAt = new Date(ctx.now()).toISOString();
    const named = beaconRoundAfter(network, closedAt, marginSeconds);
    append('BETTING_CLOSED', roundId, { ...closing, beaconRound: named });
    await signHead('BETTING_CLOSED', roundId);
    const refunded = (): RecordedPosition[] =>
      placed.map((p) => ({ ...p, settlement: null, ledgerSeq: ledgerSeq++ }));
    if (input.voided?.includes(n)) {
      // Voided before its round is out: nothing is drawn.
      const positions = refunded();
      append('ROUND_VOIDED', roundId, {
        reason: 'MISDEAL',
        ...note.event,
        refundsDigest: refundsDigest(positions, salt),
        positions: positions.length,
      });
      await signHead('ROUND_VOIDED', roundId);
      rounds.push({
        roundId,
        number: n,
        status: 'VOIDED',
        voidReason: 'MISDEAL',
        ...note.round,
        coup: null,
        positions,
      });
      continue;
    }
    const drawn = input.forge?.drawRound?.(n, named) ?? named;
    const beacon: BeaconRound = { round: drawn, signature: sign(drawn) };
    const step = { beacon: { round: drawn, randomness: beaconRandomness(beacon.signature) } };
    // The deal waits for the round to be published.
    ctx.waitUntil(roundTime(network, drawn) * 1000);
    const firstUse = !used;
    used = true;
    const startBurn = firstUse && { burn: start.burn };
    if (input.burned?.includes(n)) {
      const burn = burnV3(input.serverSeed, state, step);
      state = burn.state;
      const positions = refunded();
      append('ROUND_VOIDED', roundId, {
        reason: 'EXPOSED_CARD',
        ...note.event,
        refundsDigest: refundsDigest(positions, salt),
        positions: positions.length,
        burned: {
          start: burn.start,
          cards: burn.cards,
          cutCardOut: burn.cutCardOut,
          last: burn.last,
          beacon: withRandomness(beacon),
        },
        ...startBurn,
      });
      await signHead('ROUND_VOIDED', roundId);
      rounds.push({
        roundId,
        number: n,
        status: 'VOIDED',
        voidReason: 'EXPOSED_CARD',
        ...note.round,
        coup: null,
        burned: recordedBurn({ start: burn.start, cards: burn.cards, beacon }),
        positions,
      });
      continue;
    }
    const coup = drawCoupV3(input.serverSeed, state, step);
    state = coup.state;
    const { result } = coup;
    append('COUP_DEALT', roundId, {
      index: coup.index,
      start: coup.start,
      cards: coup.cards,
      coup: result,
      cutCardOut: coup.cutCardOut,
      last: coup.last,
      beacon: withRandomness(beacon),
      ...startBurn,
    });
    const positions: RecordedPosition[] = placed.map((p) => {
      const settlement = settle(table, betList(p.bets), result);
      return { ...p, settlement, ledgerSeq: settlement.payout > 0 ? ledgerSeq++ : null };
    });
    append('ROUND_SETTLED', roundId, {
      settlementsDigest: settlementsDigest(positions, salt),
      positions: positions.length,
    });
    await signHead('ROUND_SETTLED', roundId);
    rounds.push({
      roundId,
      number: n,
      status: 'SETTLED',
      coup: recordedCoup({ index: coup.index, start: coup.start, result, beacon }),
      positions,
    });
    demoLeaves(ctx, n);
  }
  return {
    rounds,
    voids: voidReportV3(table, rounds),
    cutIndex: start.cutIndex,
    burn: {
      shown: formatCard(start.burn.shown),
      burned: start.burn.burned,
      cards: start.burn.cards.map(formatCard),
    },
    coups: state.coups,
  };
}
