/**
 * Resolving a round, as a state machine over the stored round so that any caller can pick it up
 * where a crash (or a concurrent caller) left it:
 *
 *   OPEN    --close betting ("no va más")------------------------------------------> CLOSED
 *   CLOSED  --commit the bets (digest of the positions -> BETTING_CLOSED)-----------> CLOSED + digest
 *   CLOSED  --deal: claim the cards (shoe cursor) + outcome + COUP_DEALT, one tx----> DEALT
 *   DEALT   --settle each position (own tx, idempotent), then ROUND_SETTLED---------> SETTLED
 *
 * Every step is a conditional write: two resolvers race, one wins each step, the other re-reads and
 * continues, so there is one outcome and each position is paid once.
 */
import { betList, dealtCards, nextCoup, settle, startShoe, type TableConfig } from '@pyb/engine';
import { betsDigest as betsDigestOf, settlementsDigest as settlementsDigestOf } from '@pyb/fairness';
import type { Actor } from '../actor';
import type { RoundView } from '../api';
import { nextAudit, putAudit } from '../audit-chain';
import { settleKey } from '../ledger-keys';
import type { PositionRecord, RoundCoup, RoundRecord } from '../model';
import { TransactionCanceled, type WriteOp } from '../ports/store';
import { recordedPositions, totalsOf } from '../recorded';
import { backoff, MAX_ATTEMPTS, mapBounded, tooMuchContention, tryTransact } from '../retry';
import { roundView } from '../views';
import { scheduleCloseDeadline } from './close-deadline';
import { type Ctx, conflict, requestHash } from './context';
import { planPositionMovement } from './position-movement';
import { signRoundHead } from './round-heads';
import { loadRound } from './rounds';
import { shoeWithOrder } from './shoe-order';

export async function resolveRound(ctx: Ctx, actor: Actor, input: { roundId: string }): Promise<RoundView> {
  let round = await loadRound(ctx, actor, input.roundId, 'write');
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let progressed = true;
    switch (round.status) {
      case 'SETTLED':
        return roundView(await signRoundHead(ctx, round), await ctx.store.listPositions(round.roundId));
      case 'VOIDING':
      case 'VOIDED':
        throw conflict('ROUND_VOIDED', `round ${round.roundId} was voided`);
      case 'OPEN':
        progressed = await closeBetting(ctx, round);
        break;
      case 'CLOSED':
        progressed =
          round.audit.bettingClosed === undefined ? await commitBets(ctx, round) : await deal(ctx, round);
        break;
      case 'DEALT':
        await settlePositions(ctx, round);
        progressed = await finishRound(ctx, round);
        break;
    }
    if (!progressed) await backoff(attempt);
    round = (await ctx.store.get('round', { roundId: round.roundId }))!;
  }
  throw tooMuchContention('resolving the round');
}

/** "No va más": from now on no bet can land (every bet checks the round is OPEN in its transaction). */
const closeBetting = (ctx: Ctx, round: RoundRecord) =>
  tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: { status: 'CLOSED', closedAt: ctx.now() },
      expect: { status: 'OPEN' },
    },
  ]);

/** The bets, now final, committed into the chain by their digest. */
async function commitBets(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const positions = await ctx.store.listPositions(round.roundId);
  const betsDigest = betsDigestOf(recordedPositions(positions));
  const at = ctx.now();
  // No amount in clear: the chain is public in the shoe's proof (the digest commits to the stakes).
  const record = await nextAudit(ctx.store, round.shoeId, 'BETTING_CLOSED', round.roundId, at, {
    betsDigest,
    positions: positions.length,
  });
  return tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: { betsDigest, 'audit.bettingClosed': record.seq },
      expect: { status: 'CLOSED', 'audit.bettingClosed': null },
    },
    putAudit(record),
  ]);
}

/** Claims the next cards (conditional on the shoe's cursor) and records the outcome, in one transaction. */
async function deal(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const shoe = await shoeWithOrder(ctx, (await ctx.store.get('shoe', { shoeId: round.shoeId }))!);
  const deck = await ctx.decks.order(shoe);
  const state = shoe.state ?? startShoe(deck.order);
  if (state.finished)
    throw new Error(`shoe ${shoe.shoeId} is finished but round ${round.roundId} is in play`);
  const coup = nextCoup(shoe.config, deck.order, deck.cutIndex, state);
  const roundCoup: RoundCoup = {
    index: coup.index,
    start: coup.start,
    result: coup.result,
    cutCardOut: coup.cutCardOut,
    last: coup.last,
  };
  const at = ctx.now();
  const first = shoe.state === undefined;
  const record = await nextAudit(ctx.store, round.shoeId, 'COUP_DEALT', round.roundId, at, {
    index: coup.index,
    start: coup.start,
    cards: dealtCards(coup.result),
    coup: coup.result,
    cutCardOut: coup.cutCardOut,
    last: coup.last,
    ...(first && { burn: deck.burn }),
  });
  if (coup.last) await scheduleCloseDeadline(ctx, shoe, at);
  return tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'shoe',
      key: { shoeId: shoe.shoeId },
      set: {
        state: coup.state,
        ...(first && { burn: deck.burn }),
        ...(coup.last && { status: 'ENDED', endedAt: at }),
      },
      expect: { status: 'OPEN', ...(first ? { state: null } : { 'state.cursor': state.cursor }) },
    },
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: { status: 'DEALT', coup: roundCoup, dealtAt: at, 'audit.dealt': record.seq },
      expect: { status: 'CLOSED', 'audit.bettingClosed': 'exists' },
    },
    putAudit(record),
  ]);
}

async function settlePositions(ctx: Ctx, round: RoundRecord): Promise<void> {
  const shoe = (await ctx.store.get('shoe', { shoeId: round.shoeId }))!;
  const open = (await ctx.store.listPositions(round.roundId)).filter((p) => !p.settledAt && !p.refundedAt);
  await mapBounded(open, ctx.settleConcurrency, (p) => settlePosition(ctx, shoe.config, round, p));
}

/**
 * Pays one position: the position marked settled (only if it was not), the wallet credited, the
 * ledger entry under `settle#<round>#<player>` (only if absent), and in DEFERRED mode the commission
 * added to the player's debt for the shoe. One transaction, so it happens exactly once.
 */
export async function settlePosition(
  ctx: Ctx,
  config: TableConfig,
  round: RoundRecord,
  listed: PositionRecord,
): Promise<void> {
  const coup = round.coup!.result;
  const key = { roundId: round.roundId, playerId: listed.playerId };
  const walletKey = { operatorId: round.operatorId, playerId: listed.playerId };
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    const position = n === 0 ? listed : await ctx.store.get('position', key);
    if (!position || position.settledAt || position.refundedAt) return;
    const settlement = settle(config, betList(position.bets), coup);
    const at = ctx.now();
    const ops: WriteOp[] = [];
    let settleSeq: number | undefined;
    if (settlement.payout > 0 || settlement.commissionOwed > 0 || position.reserve > 0) {
      const wallet = (await ctx.store.get('wallet', walletKey))!;
      const plan = await planPositionMovement(ctx, key, wallet, {
        kind: 'PAYOUT',
        key: settleKey(round.roundId, position.playerId),
        requestHash: requestHash('settle', { roundId: round.roundId, settlement }),
        amount: settlement.payout,
        owed: settlement.commissionOwed,
        reserved: -position.reserve,
        roundId: round.roundId,
        shoeId: round.shoeId,
        tableId: round.tableId,
        at,
      });
      if (!plan) return; // settled by a concurrent resolver
      settleSeq = plan.entry.seq;
      ops.push(...plan.ops);
      if (settlement.commissionOwed > 0) {
        ops.push({
          kind: 'update',
          entity: 'debt',
          key: { shoeId: round.shoeId, ...walletKey },
          upsert: true,
          set: { shoeId: round.shoeId, ...walletKey, updatedAt: at },
          add: { owed: settlement.commissionOwed, collected: 0, collections: 0 },
        });
      }
    }
    ops.unshift({
      kind: 'update',
      entity: 'position',
      key,
      set: { settledAt: at, settlement, ...(settleSeq !== undefined && { settleSeq }) },
      expect: { settledAt: null, refundedAt: null },
    });
    try {
      await ctx.store.transact(ops);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      if (error.failed(0)) return; // settled by a concurrent resolver
      await backoff(n);
    }
  }
  throw tooMuchContention('settling a position');
}

/** Once every position is paid: ROUND_SETTLED (digest of the settlements) and the table is free again. */
async function finishRound(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const positions = await ctx.store.listPositions(round.roundId);
  if (positions.some((p) => !p.settledAt)) return false;
  const settlementsDigest = settlementsDigestOf(recordedPositions(positions));
  const totals = totalsOf(positions);
  const at = ctx.now();
  const record = await nextAudit(ctx.store, round.shoeId, 'ROUND_SETTLED', round.roundId, at, {
    settlementsDigest,
    positions: positions.length,
  });
  return tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: { status: 'SETTLED', settledAt: at, settlementsDigest, totals, 'audit.settled': record.seq },
      expect: { status: 'DEALT' },
    },
    {
      kind: 'update',
      entity: 'table',
      key: { tableId: round.tableId },
      set: { openRoundId: null },
      expect: { openRoundId: round.roundId },
    },
    putAudit(record),
  ]);
}
