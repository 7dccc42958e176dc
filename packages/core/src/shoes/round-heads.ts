/**
 * Signed round heads (docs/provably-fair.md §11.3): once a round is settled or voided, the chain head
 * right after its ROUND_SETTLED or ROUND_VOIDED is signed with the statement key and kept with the
 * round; resolve and void answer with it, so the operator (and through it the players) hold a
 * receipt that any later rewrite of the chain up to there contradicts. Whoever finishes a round calls
 * this — resolve inline, a settlement batch, void — and a call on a round already signed is a no-op.
 */
import type { Ctx, RoundRecord } from '../shared';
import { TransactionCanceled } from '../shared';
import { signHead } from './signing';

export async function signRoundHead(ctx: Ctx, round: RoundRecord): Promise<RoundRecord> {
  if (round.head) return round;
  const type =
    round.status === 'SETTLED' ? 'ROUND_SETTLED' : round.status === 'VOIDED' ? 'ROUND_VOIDED' : undefined;
  const seq = type === 'ROUND_SETTLED' ? round.audit.settled : round.audit.voided;
  if (!type || seq === undefined) return round;
  const [record, shoe] = await Promise.all([
    ctx.store.get('audit', { shoeId: round.shoeId, seq }),
    ctx.store.get('shoe', { shoeId: round.shoeId }),
  ]);
  if (!record || !shoe) throw new Error(`round ${round.roundId}: its ${type} event or its shoe is missing`);
  const head = await signHead(ctx, shoe, record, type);
  try {
    await ctx.store.transact([
      {
        kind: 'update',
        entity: 'round',
        key: { roundId: round.roundId },
        set: { head },
        expect: { status: round.status, head: null },
      },
    ]);
    return { ...round, head };
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error;
    // Signed by a concurrent caller: its head is the round's.
    return (await ctx.store.get('round', { roundId: round.roundId }))!;
  }
}

/**
 * pyb-shoe/3: the chain head right after BETTING_CLOSED, signed once — the receipt that names the
 * beacon round the coup's cards will come from, given out before that round is published. Nothing
 * is drawn for the round until it is signed (resolve and a burning void call this first).
 */
export async function signBettingHead(ctx: Ctx, round: RoundRecord): Promise<RoundRecord> {
  const betting = round.betting;
  const seq = round.audit.bettingClosed;
  if (!betting || seq === undefined || betting.head) return round;
  const [record, shoe] = await Promise.all([
    ctx.store.get('audit', { shoeId: round.shoeId, seq }),
    ctx.store.get('shoe', { shoeId: round.shoeId }),
  ]);
  if (!record || !shoe)
    throw new Error(`round ${round.roundId}: its BETTING_CLOSED event or its shoe is missing`);
  const head = await signHead(ctx, shoe, record, 'BETTING_CLOSED');
  try {
    await ctx.store.transact([
      {
        kind: 'update',
        entity: 'round',
        key: { roundId: round.roundId },
        set: { 'betting.head': head },
        expect: { 'audit.bettingClosed': seq, 'betting.head': null },
      },
    ]);
    return { ...round, betting: { ...betting, head } };
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error;
    return (await ctx.store.get('round', { roundId: round.roundId }))!;
  }
}
