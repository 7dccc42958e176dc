/**
 * Voiding a round (seed 004 irregularities, or an operator decision) before its coup is dealt: no more
 * bets (the round and its betting gates closed in one transaction), every stake refunded exactly once
 * (each refund its own conditional transaction under the key `refund#<round>#<player>`; in the request,
 * or fanned out in batches like settlement when the round has many positions), then ROUND_VOIDED with
 * the reason and a digest of the refunds. Resumable like resolve.
 *
 * A dealer error that exposed the coup's cards (seed 004:67-68: its first card came out face up, or
 * extra cards were drawn at the end of the coup before) voids the coup AND burns the cards it would
 * have used (`burnCards`): they are claimed from the shoe like a deal's (one transaction, conditional
 * on the shoe's cursor, with the void's start), recorded on the round and in ROUND_VOIDED.
 */

import { VOID_REASONS, type VoidReason } from '@pyb/contracts';
import { burnCoup, startShoe } from '@pyb/engine';
import { refundsDigest as refundsDigestOf, SHOE_V3_SCHEME } from '@pyb/fairness';
import type {
  Actor,
  PositionRecord,
  RoundBurn,
  RoundRecord,
  RoundView,
  ShoeRecord,
  VoidRoundInput,
} from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  checkText,
  conflict,
  invalid,
  roundView,
  tooMuchContention,
  tryTransact,
  type WriteOp,
} from '../shared';
import {
  claimDraw,
  countDiscard,
  decksOf,
  drawRoundBurn,
  recordedBeacon,
  scheduleCloseDeadline,
  shoeWithOrder,
  signRoundHead,
  voidDiscard,
} from '../shoes';
import { underLockOut } from '../tables';
import { digestSaltOf, recordedPositions } from '../trail';
import { type PositionWork, resumeFanOut } from './fan-out';
import { closeGates, towardsBettingClosed } from './resolve';
import { endRound, inlineOrHandOver, payPosition } from './round-end';
import { loadRound } from './rounds';
import { stakeMoneyOfPosition } from './stake-sources';
import { voidNoteField } from './void-note';

export async function voidRound(ctx: Ctx, actor: Actor, input: VoidRoundInput): Promise<RoundView> {
  if (!VOID_REASONS.includes(input.reason)) {
    throw invalid('VOID_REASON_INVALID', `reason must be one of ${VOID_REASONS.join(', ')}`);
  }
  if (input.burnCards !== undefined && typeof input.burnCards !== 'boolean')
    throw invalid('INVALID_INPUT', 'burnCards must be true or false');
  if (input.burnCards && !DEALER_ERRORS.includes(input.reason)) {
    throw invalid(
      'VOID_REASON_INVALID',
      `burnCards is for a dealer error that exposed the coup's cards: reason ${DEALER_ERRORS.join(' or ')}`,
    );
  }
  // Checked before anything is written: the note goes into ROUND_VOIDED, hashed as RFC 8785 JSON,
  // which a lone surrogate cannot be (the round would stay VOIDING and the shoe could not close).
  if (input.note !== undefined) checkText('note', input.note, 500);
  let round = await loadRound(ctx, actor, input.roundId, 'write');
  // A burn whose betting this call closes names a round not yet out: no discard (shoes/discards.ts).
  const closedByVoid = round.status === 'OPEN' && input.burnCards === true;
  for (const attempt of attempts(ctx)) {
    let progressed = true;
    switch (round.status) {
      case 'VOIDED':
        return roundView(await signRoundHead(ctx, round), await ctx.store.listPositions(round.roundId));
      case 'DEALT':
      case 'SETTLING':
      case 'SETTLED':
        throw conflict('ROUND_ALREADY_DEALT', `round ${round.roundId} was dealt; it can no longer be voided`);
      case 'OPEN':
      case 'CLOSED': {
        // pyb-shoe/3 draws the burned cards from the round "no va más" names: betting closes first.
        const step =
          input.burnCards && (await drawsPerCoup(ctx, round))
            ? await towardsBettingClosed(ctx, round)
            : undefined;
        progressed = step ?? (await startVoid(ctx, round, input, closedByVoid));
        break;
      }
      case 'VOIDING':
        if (round.batches) {
          // Fanned out (here or by an earlier call): finished by the last batch, or resumed.
          await resumeFanOut(ctx, round, REFUND);
          round = (await ctx.store.get('round', { roundId: round.roundId }))!;
          if (round.status === 'VOIDED') continue;
          return roundView(round, await ctx.store.listPositions(round.roundId));
        }
        // Refunded here when few (or no queue), else fanned out.
        progressed = await inlineOrHandOver(
          ctx,
          round,
          await ctx.store.listPositions(round.roundId),
          REFUND,
          async () => (p) => refundPosition(ctx, round, p),
        );
        break;
    }
    if (!progressed) await backoff(attempt);
    round = (await ctx.store.get('round', { roundId: round.roundId }))!;
  }
  throw tooMuchContention('voiding the round');
}

const drawsPerCoup = async (ctx: Ctx, round: RoundRecord): Promise<boolean> =>
  (await ctx.store.get('shoe', { shoeId: round.shoeId }))?.statement.scheme === SHOE_V3_SCHEME;

/** The reasons that void the coup whose cards a dealer error exposed (seed 004:67-68). */
const DEALER_ERRORS: readonly VoidReason[] = ['EXPOSED_CARD', 'EXTRA_CARDS'];

/** An OPEN round's gates close in the same transaction: no bet lands once it is VOIDING. */
async function startVoid(
  ctx: Ctx,
  round: RoundRecord,
  input: VoidRoundInput,
  closedByVoid: boolean,
): Promise<boolean> {
  const burn = input.burnCards ? await burnOps(ctx, round) : undefined;
  const shoe = await ctx.store.get('shoe', { shoeId: round.shoeId });
  const discard = shoe && voidDiscard(ctx, shoe, round, closedByVoid);
  const done = await tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: {
        status: 'VOIDING',
        voidReason: input.reason,
        ...(input.note && { voidNote: input.note }),
        ...(burn && { burned: burn.burned }),
        ...(discard && { discard }),
        closedAt: round.closedAt ?? ctx.now(),
      },
      expect: { status: round.status },
    },
    ...(round.status === 'OPEN' ? closeGates(round) : []),
    ...(burn ? [burn.shoe] : []),
  ]);
  if (done) countDiscard(ctx, discard);
  return done;
}

/**
 * The cards the round's coup would have used, claimed from the shoe as a deal claims them (conditional
 * on the shoe's cursor): the next coup starts after them, and the shoe ends if they bring out the cut
 * card (engine `burnCoup`).
 */
async function burnOps(ctx: Ctx, round: RoundRecord): Promise<{ burned: RoundBurn; shoe: WriteOp }> {
  // As a deal: the shoe's first use of its cards waits for the beacon round that fixes the order.
  const shoe = await shoeWithOrder(ctx, (await ctx.store.get('shoe', { shoeId: round.shoeId }))!);
  if (round.betting) return burnOpsV3(ctx, shoe, round);
  const deck = await decksOf(ctx).order(shoe);
  const state = shoe.state ?? startShoe(deck.order);
  if (state.finished)
    throw new Error(`shoe ${shoe.shoeId} is finished but round ${round.roundId} is in play`);
  const burned = burnCoup(shoe.config, deck.order, deck.cutIndex, state);
  const first = shoe.state === undefined;
  const at = ctx.now();
  if (burned.last) await scheduleCloseDeadline(ctx, shoe, at);
  return {
    burned: {
      start: burned.start,
      cards: burned.cards,
      cutCardOut: burned.cutCardOut,
      last: burned.last,
      ...(first && { shoeBurn: deck.burn }),
    },
    shoe: {
      kind: 'update',
      entity: 'shoe',
      key: { shoeId: shoe.shoeId },
      set: {
        state: burned.state,
        ...(first && { burn: deck.burn }),
        ...(burned.last && { status: 'ENDED', endedAt: at }),
      },
      expect: { status: 'OPEN', ...(first ? { state: null } : { 'state.cursor': state.cursor }) },
    },
  };
}

/** pyb-shoe/3: the burned cards drawn from the round "no va más" named (shoes/draw-v3.ts). */
async function burnOpsV3(
  ctx: Ctx,
  shoe: ShoeRecord,
  round: RoundRecord,
): Promise<{ burned: RoundBurn; shoe: WriteOp }> {
  const { burn, before, first, beacon } = await underLockOut(
    ctx,
    round.tableId,
    { phase: 'RESOLVE', shoeId: round.shoeId, roundId: round.roundId },
    () => drawRoundBurn(ctx, shoe, round),
  );
  const at = ctx.now();
  if (burn.last) await scheduleCloseDeadline(ctx, shoe, at);
  const shoeBurn = { shown: before.burn.shown, burned: before.burn.burned };
  return {
    burned: {
      start: burn.start,
      cards: burn.cards,
      cutCardOut: burn.cutCardOut,
      last: burn.last,
      beacon,
      // with the cards the shoe's start burned: the chain records them (COUP_DEALT's `burn` likewise)
      ...(first && { shoeBurn: before.burn }),
    },
    shoe: claimDraw(shoe, before, burn.state, {
      ...(first && { burn: shoeBurn }),
      ...(burn.cutCardOut && { cutCardOut: true }),
      ...(burn.last && { status: 'ENDED', endedAt: at }),
    }),
  };
}

async function refundPosition(
  ctx: Ctx,
  round: RoundRecord,
  listed: PositionRecord | { playerId: string },
): Promise<void> {
  const key = { roundId: round.roundId, playerId: listed.playerId };
  await payPosition(ctx, round, listed, 'refunding a position', async (position, at) => {
    const source = stakeMoneyOfPosition(position);
    const money = await source.refundParts(ctx, { round, position, at });
    if (!money) return undefined; // refunded by a concurrent call
    return {
      position: {
        kind: 'update',
        entity: 'position',
        key,
        set: {
          refundedAt: at,
          ...(money.seq !== undefined && { refundSeq: money.seq }),
          // Index keys: a refunded position enters the player's rounds (see the DynamoDB adapter).
          operatorId: position.operatorId,
          openedAt: position.openedAt,
        },
        expect: { settledAt: null, refundedAt: null },
      },
      ops: money.ops,
      outbox: money.outbox,
      source,
    };
  });
}

/** Refunds as the settlement queue's batches run them (fan-out.ts). */
export const REFUND: PositionWork = {
  kind: 'refund',
  one: (ctx, round, playerId) => refundPosition(ctx, round, { playerId }),
  finish: (ctx, round) => finishVoid(ctx, round),
  finished: (round) => round.status === 'VOIDED',
};

async function finishVoid(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const positions = await ctx.store.listPositions(round.roundId);
  if (positions.some((p) => !p.refundedAt)) return false;
  const salt = await digestSaltOf(ctx, round.shoeId);
  const refundsDigest = refundsDigestOf(recordedPositions(positions, true), salt);
  const at = ctx.now();
  // The receipt is signed where the round finishes (in the request, or by the last refund batch).
  return endRound(
    ctx,
    round,
    at,
    {
      type: 'ROUND_VOIDED',
      payload: {
        reason: round.voidReason,
        ...voidNoteField(round.voidNote, salt),
        refundsDigest,
        positions: positions.length,
        ...(round.burned && {
          burned: {
            start: round.burned.start,
            cards: round.burned.cards,
            cutCardOut: round.burned.cutCardOut,
            last: round.burned.last,
            ...(round.burned.beacon && { beacon: recordedBeacon(round.burned.beacon) }),
          },
          ...(round.burned.shoeBurn && { burn: round.burned.shoeBurn }),
        }),
      },
    },
    (seq) => ({ status: 'VOIDED', voidedAt: at, refundsDigest, 'audit.voided': seq }),
    { status: 'VOIDING' },
  );
}
