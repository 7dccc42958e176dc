/**
 * Resolving a round, as a state machine over the stored round so that any caller can pick it up
 * where a crash (or a concurrent caller) left it:
 *
 *   OPEN     --"no va más": the round (then, in ONE transaction, the round and all its gates) closed--> CLOSED
 *   CLOSED   --commit the bets (digest of the positions -> BETTING_CLOSED)----------------------------> CLOSED + digest
 *   CLOSED   --deal: claim the cards (shoe cursor) + outcome + COUP_DEALT, one tx---------------------> DEALT
 *   DEALT    --few positions: settle each (own tx, idempotent), then ROUND_SETTLED--------------------> SETTLED
 *   DEALT    --many: hand them to the settlement queue in batches (fan-out.ts)-----------------------> SETTLING
 *   SETTLING --the last batch lands: ROUND_SETTLED (finishRound, by whoever lands it)------------------> SETTLED
 *
 * Every step is a conditional write: two resolvers race, one wins each step, the other re-reads and
 * continues, so there is one outcome and each position is paid once.
 */
import { nextCoup, startShoe } from '@pyb/engine';
import { beaconRoundAfter, betsDigest as betsDigestOf, SHOE_V3_SCHEME } from '@pyb/fairness';
import type { Actor, PositionRecord, RoundRecord, RoundView, ShoeRecord } from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  conflict,
  roundView,
  tooMuchContention,
  tryTransact,
  type WriteOp,
} from '../shared';
import { anchorBettingHead, decksOf, signBettingHead, signRoundHead } from '../shoes';
import { assertUnlocked } from '../tables';
import { chainRecord, digestSaltOf, eventAt, latest, putAudit, recordedPositions } from '../trail';
import { collectShoeDebts } from '../wallet';
import { shoeConfig } from './bet-parts';
import { dealV3 } from './deal-v3';
import { resumeFanOut } from './fan-out';
import { drawUnderLockOut, recordDeal, roundCoupOf } from './record-deal';
import { inlineOrHandOver } from './round-end';
import { loadRound } from './rounds';
import { SETTLE, settlePosition } from './settle';

export async function resolveRound(ctx: Ctx, actor: Actor, input: { roundId: string }): Promise<RoundView> {
  let round = await loadRound(ctx, actor, input.roundId, 'write');
  /** The positions as handed to the queue by this call (its answer lists them; no second listing). */
  let handedOver: PositionRecord[] | undefined;
  // A locked table deals nothing (lock-out.ts): the round stays as it is, voidable (its bets refunded).
  if (round.status === 'OPEN' || round.status === 'CLOSED') {
    const table = await ctx.store.get('table', { tableId: round.tableId });
    if (table) assertUnlocked(table);
  }
  // A step that moved the round on (its status changed) is not a collision: the next step is timed afresh. Otherwise a slow
  // step (the deal waits for its beacon round, up to the margin plus a period) would count as the
  // slowest attempt, and the fast settlement after it would be given up as contention it never met.
  let tries = attempts(ctx);
  for (let next = tries.next(); !next.done; next = tries.next()) {
    const attempt = next.value;
    let progressed = true;
    switch (round.status) {
      case 'SETTLED':
        // The last coup of the shoe: what players owe is collected now (seed 000), not at the close.
        if (round.coup?.last) await collectShoeDebts(ctx, round.shoeId);
        // Signed where the round finished (finishRound); here only if that crashed before signing.
        return roundView(await signRoundHead(ctx, round), await ctx.store.listPositions(round.roundId));
      case 'VOIDING':
      case 'VOIDED':
        throw conflict('ROUND_VOIDED', `round ${round.roundId} was voided`);
      case 'OPEN':
        progressed = await closeBetting(ctx, round);
        break;
      case 'CLOSED':
        progressed = await closedStep(ctx, round);
        break;
      case 'DEALT': {
        const positions = await ctx.store.listPositions(round.roundId);
        // Settled here when few positions (ctx.inlineSettleMax) or no queue is wired, else handed
        // to the settlement queue (SETTLING).
        progressed = await inlineOrHandOver(ctx, round, positions, SETTLE, async () => {
          const config = await shoeConfig(ctx, round.shoeId);
          return (p) => settlePosition(ctx, config, round, p);
        });
        handedOver = positions;
        break;
      }
      case 'SETTLING':
        // Handed over in this call: answer at once. Otherwise a crash or a lost batch may have left
        // it: finish it if every batch landed, re-send what is missing once it is overdue.
        if (handedOver) return roundView(round, handedOver);
        await resumeFanOut(ctx, round, SETTLE);
        round = (await ctx.store.get('round', { roundId: round.roundId }))!;
        if (round.status === 'SETTLED') continue;
        return roundView(round, await ctx.store.listPositions(round.roundId));
    }
    if (!progressed) await backoff(attempt);
    const before = round.status;
    round = (await ctx.store.get('round', { roundId: round.roundId }))!;
    if (round.status !== before) tries = attempts(ctx);
  }
  throw tooMuchContention('resolving the round');
}

/**
 * "No va más". First the round item alone (bets read it and stop coming: a hint, so the next
 * transaction is not starved by bets in flight), then ONE transaction closing the round and every one
 * of its gates. A bet condition-checks its gate in its own transaction, so it is serialised before
 * this one (and listed by commitBets) or after it (and refused): the list is exactly the bets placed
 * before "no va más".
 */
async function closeBetting(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const at = ctx.now();
  if (!round.closingAt) {
    return tryTransact(ctx.store, [
      {
        kind: 'update',
        entity: 'round',
        key: { roundId: round.roundId },
        set: { closingAt: at },
        expect: { status: 'OPEN', closingAt: null },
      },
    ]);
  }
  return tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: { status: 'CLOSED', closedAt: at },
      expect: { status: 'OPEN' },
    },
    ...closeGates(round),
  ]);
}

/** Every gate of the round set CLOSED (in the transaction that closes the round or voids it). */
export const closeGates = (round: RoundRecord): WriteOp[] =>
  Array.from({ length: round.gates }, (_, gate) => ({
    kind: 'update' as const,
    entity: 'gate' as const,
    key: { roundId: round.roundId, gate },
    set: { status: 'CLOSED' },
    expect: { status: 'OPEN' },
  }));

/**
 * The bets, now final, committed into the chain by their digest. Under pyb-shoe/3 the same event
 * names the beacon round the coup's cards will come from: the first published at least the margin
 * after it, so it is not out when the bets are fixed (docs/provably-fair.md §15).
 */
async function commitBets(ctx: Ctx, round: RoundRecord, shoe: ShoeRecord): Promise<boolean> {
  const positions = await ctx.store.listPositions(round.roundId);
  const betsDigest = betsDigestOf(recordedPositions(positions), await digestSaltOf(ctx, round.shoeId));
  const head = await ctx.store.auditHead(round.shoeId);
  if (!head) throw new Error(`shoe ${round.shoeId} has no audit chain`);
  // Dated as the chain allows (never before its head): the round is named from this very time.
  const at = latest(ctx.now(), eventAt(head) ?? ctx.now());
  const network = shoe.statement.beacon;
  const beaconRound =
    shoe.statement.scheme === SHOE_V3_SCHEME
      ? beaconRoundAfter(network, at, network.marginSeconds)
      : undefined;
  // No amount in clear: the chain is public in the shoe's proof (the digest commits to the stakes).
  const record = chainRecord(head, round.shoeId, 'BETTING_CLOSED', round.roundId, at, {
    betsDigest,
    positions: positions.length,
    ...(beaconRound !== undefined && { beaconRound }),
  });
  return tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: {
        betsDigest,
        'audit.bettingClosed': record.seq,
        ...(beaconRound !== undefined && { betting: { beaconRound } }),
      },
      expect: { status: 'CLOSED', 'audit.bettingClosed': null },
    },
    putAudit(record),
  ]);
}

/**
 * One step towards "no va más" with its receipt — betting closed, the bets committed, and under
 * pyb-shoe/3 the receipt naming the beacon round signed and time-stamped, before anything is drawn. Undefined once
 * there: the round's cards may be drawn (a coup, or a dealer-error void's burn).
 */
export async function towardsBettingClosed(ctx: Ctx, round: RoundRecord): Promise<boolean | undefined> {
  if (round.status === 'OPEN') return closeBetting(ctx, round);
  if (round.status !== 'CLOSED') return undefined;
  if (round.audit.bettingClosed === undefined)
    return commitBets(ctx, round, (await ctx.store.get('shoe', { shoeId: round.shoeId }))!);
  if (round.betting && !round.betting.head) {
    await signBettingHead(ctx, round);
    return true;
  }
  // The head's outside witness, before its round is published (shoes/anchor-heads.ts): else 503
  // TIME_STAMP_PENDING, or the table locks once the round is out.
  if (round.betting && !round.betting.anchor) {
    await anchorBettingHead(ctx, round);
    return true;
  }
  return undefined;
}

/** A closed round's next step: towards its receipt, then its coup dealt by the shoe's scheme. */
async function closedStep(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const step = await towardsBettingClosed(ctx, round);
  if (step !== undefined) return step;
  return round.betting ? dealV3(ctx, round) : deal(ctx, round);
}

/**
 * "No va más" as its own step (POST /v1/rounds/{id}/close): betting closed, the bets committed and,
 * under pyb-shoe/3, the receipt naming the beacon round signed — answered before that round is out,
 * so the operator (and through it every player) holds it before anyone can know the cards. Resolve
 * then deals. Called again, it answers the same.
 */
export async function closeRoundBetting(
  ctx: Ctx,
  actor: Actor,
  input: { roundId: string },
): Promise<RoundView> {
  let round = await loadRound(ctx, actor, input.roundId, 'write');
  if (round.status === 'OPEN') {
    const table = await ctx.store.get('table', { tableId: round.tableId });
    if (table) assertUnlocked(table);
  }
  for (const attempt of attempts(ctx)) {
    if (round.status === 'VOIDING' || round.status === 'VOIDED')
      throw conflict('ROUND_VOIDED', `round ${round.roundId} was voided`);
    const step = await towardsBettingClosed(ctx, round);
    if (step === undefined) return roundView(round, await ctx.store.listPositions(round.roundId));
    if (!step) await backoff(attempt);
    round = (await ctx.store.get('round', { roundId: round.roundId }))!;
  }
  throw tooMuchContention('closing the betting');
}

/** Claims the next cards (conditional on the shoe's cursor) and records the outcome, in one transaction. */
async function deal(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const { shoe, drawn: deck } = await drawUnderLockOut(ctx, round, (shoe) => decksOf(ctx).order(shoe));
  const state = shoe.state ?? startShoe(deck.order);
  if (state.finished)
    throw new Error(`shoe ${shoe.shoeId} is finished but round ${round.roundId} is in play`);
  const coup = nextCoup(shoe.config, deck.order, deck.cutIndex, state);
  const first = shoe.state === undefined;
  return recordDeal(ctx, round, shoe, roundCoupOf(coup), {
    burn: first ? deck.burn : undefined,
    claim: (at) => ({
      kind: 'update',
      entity: 'shoe',
      key: { shoeId: shoe.shoeId },
      set: {
        state: coup.state,
        ...(first && { burn: deck.burn }),
        ...(coup.cutCardOut && { cutCardOut: true }),
        ...(coup.last && { status: 'ENDED', endedAt: at }),
      },
      expect: { status: 'OPEN', ...(first ? { state: null } : { 'state.cursor': state.cursor }) },
    }),
  });
}
