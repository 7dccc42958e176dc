import { clientSeedProblem } from '@pyb/fairness';
import type { Actor } from '../actor';
import type { OpenRoundInput, RoundView } from '../api';
import { nextAudit, putAudit } from '../audit-chain';
import { DEFAULT_BET_GATES } from '../gates';
import type { RoundRecord, ShoeRecord } from '../model';
import { type Expect, TransactionCanceled, type WriteOp } from '../ports/store';
import { backoff, MAX_ATTEMPTS, tooMuchContention } from '../retry';
import { roundView } from '../views';
import { type Ctx, checkId, conflict, guard, invalid } from './context';
import { loadTable } from './tables';

export async function loadRound(
  ctx: Ctx,
  actor: Actor,
  roundId: string,
  access: 'read' | 'write',
): Promise<RoundRecord> {
  checkId('roundId', roundId);
  return guard(actor, await ctx.store.get('round', { roundId }), 'round', roundId, access);
}

export async function getRound(ctx: Ctx, actor: Actor, input: { roundId: string }): Promise<RoundView> {
  const round = await loadRound(ctx, actor, input.roundId, 'read');
  return roundView(round, await ctx.store.listPositions(round.roundId));
}

/** The grammar of @pyb/fairness: 1-256 UTF-8 bytes of clean text (docs/provably-fair.md §5). */
function checkClientSeed(seed: unknown): string {
  const problem = clientSeedProblem(seed);
  if (problem) throw invalid('CLIENT_SEED_INVALID', `the client seed ${problem}`);
  return seed as string;
}

/**
 * Opens the table's next round on its shoe. One round in play per table (a condition on the table
 * item). The first round of a shoe fixes the client seed: after the commitment was published, before
 * the first card; ROUND_OPENED records it in the audit chain.
 */
export async function openRound(ctx: Ctx, actor: Actor, input: OpenRoundInput): Promise<RoundView> {
  const wanted = input.clientSeed === undefined ? undefined : checkClientSeed(input.clientSeed);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const table = await loadTable(ctx, actor, input.tableId, 'write');
    if (!table.currentShoeId) throw conflict('NO_SHOE_OPEN', `table ${table.tableId} has no shoe in play`);
    if (table.openRoundId) throw conflict('ROUND_IN_PLAY', `round ${table.openRoundId} is still in play`);
    const shoe = (await ctx.store.get('shoe', { shoeId: table.currentShoeId })) as ShoeRecord;
    if (shoe.status !== 'OPEN')
      throw conflict('SHOE_ENDED', `shoe ${shoe.shoeId} has ended; close it and open another`);
    if (shoe.clientSeed && wanted !== undefined && wanted !== shoe.clientSeed) {
      throw conflict('CLIENT_SEED_ALREADY_FIXED', `shoe ${shoe.shoeId} already has its client seed`);
    }
    // Omitted on the first round: a random one from the Ids port (no key-service call, so opening a
    // round needs no KMS permission). Players wanting a guarantee supply their own.
    const fixing = shoe.clientSeed ? undefined : (wanted ?? ctx.ids.next('cs'));
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
      openedAt,
      audit: { opened: -1 },
    };
    const opened = await nextAudit(ctx.store, shoe.shoeId, 'ROUND_OPENED', round.roundId, openedAt, {
      tableId: table.tableId,
      number: round.number,
      ...(fixing !== undefined && { clientSeed: fixing }),
      ...(lastAnnounced && { lastCoup: true }),
    });
    round.audit.opened = opened.seq;
    const shoeExpect: Expect = {
      status: 'OPEN',
      rounds: shoe.rounds,
      ...(fixing !== undefined && { clientSeed: null }),
    };
    try {
      await ctx.store.transact([
        {
          kind: 'update',
          entity: 'table',
          key: { tableId: table.tableId },
          set: { openRoundId: round.roundId, rounds: round.tableRound },
          expect: { openRoundId: null, currentShoeId: shoe.shoeId },
        },
        {
          kind: 'update',
          entity: 'shoe',
          key: { shoeId: shoe.shoeId },
          add: { rounds: 1 },
          ...(fixing !== undefined && { set: { clientSeed: fixing } }),
          expect: shoeExpect,
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
