import type { Actor, OpenRoundInput, RoundRecord, RoundView, ShoeRecord } from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  checkId,
  conflict,
  guard,
  roundView,
  TransactionCanceled,
  tooMuchContention,
  type WriteOp,
  withinScope,
} from '../shared';
import { anchorContributionsHead, checkSeed, closeContributions, signContributionsHead } from '../shoes';
import { assertAvailable, assertUnlocked, DEFAULT_BET_GATES, loadTable } from '../tables';
import { nextAudit, putAudit } from '../trail';
import { scheduleRoundDeadline } from './round-deadline';

export async function loadRound(
  ctx: Pick<Ctx, 'store'>,
  actor: Actor,
  roundId: string,
  access: 'read' | 'write',
): Promise<RoundRecord> {
  checkId('roundId', roundId);
  const round = guard(actor, await ctx.store.get('round', { roundId }), 'round', roundId, access);
  withinScope(actor, { tableId: round.tableId });
  return round;
}

export async function getRound(ctx: Ctx, actor: Actor, input: { roundId: string }): Promise<RoundView> {
  const round = await loadRound(ctx, actor, input.roundId, 'read');
  const positions = await ctx.store.listPositions(round.roundId);
  // A player token sees the round and his own position, never another player's.
  const player = actor.player?.playerId;
  return roundView(round, player === undefined ? positions : positions.filter((p) => p.playerId === player));
}

/**
 * Opens the table's next round on its shoe. One round in play per table (a condition on the table
 * item). The first round of a shoe first closes its seed contributions (contributions.ts): the
 * operator's client seed, if given, is the last one; the beacon round that will fix the order is named
 * then, and published only after.
 */
export async function openRound(ctx: Ctx, actor: Actor, input: OpenRoundInput): Promise<RoundView> {
  const wanted =
    input.clientSeed === undefined ? undefined : checkSeed(input.clientSeed, 'CLIENT_SEED_INVALID');
  for (const attempt of attempts(ctx)) {
    const table = await loadTable(ctx, actor, input.tableId, 'write');
    assertUnlocked(table);
    assertAvailable(table);
    if (!table.currentShoeId) throw conflict('NO_SHOE_OPEN', `table ${table.tableId} has no shoe in play`);
    if (table.openRoundId) throw conflict('ROUND_IN_PLAY', `round ${table.openRoundId} is still in play`);
    const shoe = (await ctx.store.get('shoe', { shoeId: table.currentShoeId })) as ShoeRecord;
    if (shoe.status !== 'OPEN')
      throw conflict('SHOE_ENDED', `shoe ${shoe.shoeId} has ended; close it and open another`);
    if (!shoe.contributionsClosed) {
      if (!(await closeContributions(ctx, shoe, wanted))) await backoff(attempt);
      continue; // read again: the seeds are fixed now (by this call or a concurrent one)
    }
    if (wanted !== undefined && wanted !== shoe.clientSeed) {
      throw conflict('CLIENT_SEED_ALREADY_FIXED', `shoe ${shoe.shoeId} already has its seeds`);
    }
    // The receipt of the close of contributions, before any bet (a no-op once signed), and under
    // pyb-shoe/3 its outside time-stamp, before R₀ is out (shoes/anchor-heads.ts).
    // (a head signed by an earlier, interrupted call is anchored now: a no-op once it is)
    const head = (await signContributionsHead(ctx, shoe)) ?? shoe.contributionsClosed.head;
    if (head)
      await anchorContributionsHead(ctx, {
        ...shoe,
        contributionsClosed: { ...shoe.contributionsClosed, head },
      });
    const openedAt = ctx.now();
    // Seed 004: when the cut card comes out, "última mano" is announced. With ONE_MORE_COUP the round
    // after the coup that brought it out is the last, and that is known before its bets.
    const lastAnnounced = shoe.cutCardOut === true && shoe.config.afterCutCard === 'ONE_MORE_COUP';
    const round: RoundRecord = {
      roundId: ctx.ids.next('rnd'),
      tableId: table.tableId,
      shoeId: shoe.shoeId,
      operatorId: table.operatorId,
      number: shoe.rounds + 1,
      status: 'OPEN',
      seats: shoe.config.seats,
      gates: table.betGates ?? DEFAULT_BET_GATES,
      tableRound: (table.rounds ?? 0) + 1,
      ...(lastAnnounced && { lastAnnounced }),
      ...(table.betsOff?.length && { betsOff: table.betsOff }),
      openedAt,
      // A cadence table's round says when betting closes: bets are refused from then (bets.ts).
      ...(table.cadence?.state === 'RUNNING' && {
        closesAt: new Date(Date.parse(openedAt) + table.cadence.bettingSeconds * 1000).toISOString(),
      }),
      audit: { opened: -1 },
    };
    const opened = await nextAudit(ctx.store, shoe.shoeId, 'ROUND_OPENED', round.roundId, openedAt, {
      tableId: table.tableId,
      number: round.number,
      ...(lastAnnounced && { lastCoup: true }),
    });
    round.audit.opened = opened.seq;
    // Watched before it exists: no round in play goes without its interrupted-game check (a retry's
    // round id that never commits is checked and found missing).
    await scheduleRoundDeadline(ctx, round);
    try {
      await ctx.store.transact([
        {
          kind: 'update',
          entity: 'table',
          key: { tableId: table.tableId },
          set: { openRoundId: round.roundId, rounds: round.tableRound },
          // The betsOff it copied are those in force (a change meanwhile adds an event: re-read).
          expect: { openRoundId: null, currentShoeId: shoe.shoeId, lock: null, events: table.events ?? null },
        },
        {
          kind: 'update',
          entity: 'shoe',
          key: { shoeId: shoe.shoeId },
          add: { rounds: 1 },
          expect: { status: 'OPEN', rounds: shoe.rounds },
        },
        { kind: 'put', entity: 'round', key: { roundId: round.roundId }, item: round },
        putAudit(opened),
        ...openGates(round),
      ]);
      return roundView(round, []);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      await backoff(attempt); // the re-read says why (round in play, shoe ended) or we simply retry
    }
  }
  throw tooMuchContention('opening the round');
}

/** The round's betting gates, all OPEN (written with the round, in the open-round transaction). */
const openGates = (round: RoundRecord): WriteOp[] =>
  Array.from({ length: round.gates }, (_, gate) => ({
    kind: 'put' as const,
    entity: 'gate' as const,
    key: { roundId: round.roundId, gate },
    item: { roundId: round.roundId, gate, status: 'OPEN' as const },
  }));
