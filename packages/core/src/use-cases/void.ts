/**
 * Voiding a round (seed 004 irregularities, or an operator decision) before its coup is dealt: no more
 * bets, every stake refunded exactly once (each refund its own conditional transaction under the key
 * `refund#<round>#<player>`), then ROUND_VOIDED with the reason and a digest of the refunds. Resumable
 * like resolve.
 */

import { VOID_REASONS } from '@pyb/contracts';
import { refundsDigest as refundsDigestOf } from '@pyb/fairness';
import type { Actor } from '../actor';
import type { RoundView, VoidRoundInput } from '../api';
import { nextAudit, putAudit } from '../audit-chain';
import { refundKey } from '../ledger-keys';
import type { PositionRecord, RoundRecord } from '../model';
import { TransactionCanceled } from '../ports/store';
import { recordedPositions } from '../recorded';
import { backoff, MAX_ATTEMPTS, mapBounded, tooMuchContention, tryTransact } from '../retry';
import { roundView } from '../views';
import { type Ctx, checkText, conflict, invalid, requestHash } from './context';
import { planPositionMovement } from './position-movement';
import { signRoundHead } from './round-heads';
import { loadRound } from './rounds';

export async function voidRound(ctx: Ctx, actor: Actor, input: VoidRoundInput): Promise<RoundView> {
  if (!VOID_REASONS.includes(input.reason)) {
    throw invalid('VOID_REASON_INVALID', `reason must be one of ${VOID_REASONS.join(', ')}`);
  }
  // Checked before anything is written: the note goes into ROUND_VOIDED, hashed as RFC 8785 JSON,
  // which a lone surrogate cannot be (the round would stay VOIDING and the shoe could not close).
  if (input.note !== undefined) checkText('note', input.note, 500);
  let round = await loadRound(ctx, actor, input.roundId, 'write');
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let progressed = true;
    switch (round.status) {
      case 'VOIDED':
        return roundView(await signRoundHead(ctx, round), await ctx.store.listPositions(round.roundId));
      case 'DEALT':
      case 'SETTLED':
        throw conflict('ROUND_ALREADY_DEALT', `round ${round.roundId} was dealt; it can no longer be voided`);
      case 'OPEN':
      case 'CLOSED':
        progressed = await startVoid(ctx, round, input);
        break;
      case 'VOIDING':
        await refundPositions(ctx, round);
        progressed = await finishVoid(ctx, round);
        break;
    }
    if (!progressed) await backoff(attempt);
    round = (await ctx.store.get('round', { roundId: round.roundId }))!;
  }
  throw tooMuchContention('voiding the round');
}

const startVoid = (ctx: Ctx, round: RoundRecord, input: VoidRoundInput) =>
  tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: {
        status: 'VOIDING',
        voidReason: input.reason,
        ...(input.note && { voidNote: input.note }),
        closedAt: round.closedAt ?? ctx.now(),
      },
      expect: { status: round.status },
    },
  ]);

async function refundPositions(ctx: Ctx, round: RoundRecord): Promise<void> {
  const open = (await ctx.store.listPositions(round.roundId)).filter((p) => !p.settledAt && !p.refundedAt);
  await mapBounded(open, ctx.settleConcurrency, (p) => refundPosition(ctx, round, p));
}

async function refundPosition(ctx: Ctx, round: RoundRecord, listed: PositionRecord): Promise<void> {
  const key = { roundId: round.roundId, playerId: listed.playerId };
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    const position = n === 0 ? listed : await ctx.store.get('position', key);
    if (!position || position.settledAt || position.refundedAt) return;
    const wallet = (await ctx.store.get('wallet', {
      operatorId: round.operatorId,
      playerId: position.playerId,
    }))!;
    const at = ctx.now();
    const plan = await planPositionMovement(ctx, key, wallet, {
      kind: 'REFUND',
      key: refundKey(round.roundId, position.playerId),
      requestHash: requestHash('refund', { roundId: round.roundId, stake: position.stake }),
      amount: position.stake,
      reserved: -position.reserve,
      roundId: round.roundId,
      shoeId: round.shoeId,
      tableId: round.tableId,
      reference: round.voidReason,
      at,
    });
    if (!plan) return; // refunded by a concurrent call
    try {
      await ctx.store.transact([
        {
          kind: 'update',
          entity: 'position',
          key,
          set: { refundedAt: at, refundSeq: plan.entry.seq },
          expect: { settledAt: null, refundedAt: null },
        },
        ...plan.ops,
      ]);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      if (error.failed(0)) return; // refunded by a concurrent call
      await backoff(n);
    }
  }
  throw tooMuchContention('refunding a position');
}

async function finishVoid(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const positions = await ctx.store.listPositions(round.roundId);
  if (positions.some((p) => !p.refundedAt)) return false;
  const refundsDigest = refundsDigestOf(recordedPositions(positions, true));
  const at = ctx.now();
  const record = await nextAudit(ctx.store, round.shoeId, 'ROUND_VOIDED', round.roundId, at, {
    reason: round.voidReason,
    ...(round.voidNote && { note: round.voidNote }),
    refundsDigest,
    positions: positions.length,
  });
  return tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: { status: 'VOIDED', voidedAt: at, refundsDigest, 'audit.voided': record.seq },
      expect: { status: 'VOIDING' },
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
