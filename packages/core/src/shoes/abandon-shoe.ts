/**
 * Abandoning a shoe (docs/regulators.md, "Lock-out"): when close finds a shoe's audit chain broken it
 * signs nothing and locks the table (source AUDIT). If the missing items cannot be put back, an admin
 * gives the shoe up with a reason: in one transaction the shoe becomes ABANDONED (why, when, by whom,
 * the problems the close found), the table lets it go and its lock is cleared, and SHOE_ABANDONED is
 * appended to the table's events (the regulator feed carries it). The seed is never revealed and the
 * shoe never verifies. Only a shoe whose close locked its table can be abandoned: abandoning is no way
 * to discard a healthy shoe's bad order (that is an early close, with its reason, revealed).
 */
import type { AbandonShoeInput, Actor, ShoeView, TableEventRecord } from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  checkText,
  conflict,
  invalid,
  shoeAbandoned,
  shoeView,
  TransactionCanceled,
  tooMuchContention,
} from '../shared';
import { loadShoe } from './load-shoe';

const ABANDON_REASON_MAX = 500;

export async function abandonShoe(ctx: Ctx, actor: Actor, input: AbandonShoeInput): Promise<ShoeView> {
  const reason = checkText('reason', input.reason, ABANDON_REASON_MAX).trim();
  if (reason.length === 0) throw invalid('INVALID_INPUT', 'reason must say why the shoe is given up');
  for (const attempt of attempts(ctx)) {
    const shoe = await loadShoe(ctx, actor, input.shoeId, 'write');
    if (shoe.status === 'ABANDONED') throw shoeAbandoned(shoe);
    const table = (await ctx.store.get('table', { tableId: shoe.tableId }))!;
    const lock = table.lock;
    if (
      shoe.status !== 'CLOSING' ||
      lock?.source !== 'AUDIT' ||
      lock.shoeId !== shoe.shoeId ||
      table.currentShoeId !== shoe.shoeId
    ) {
      throw conflict(
        'SHOE_NOT_ABANDONABLE',
        `shoe ${shoe.shoeId} is ${shoe.status}${lock?.source === 'AUDIT' && lock.shoeId === shoe.shoeId ? '' : ' and no close found its audit chain broken'}: only a shoe whose close locked its table can be abandoned; close it (POST /v1/shoes/${shoe.shoeId}/close)`,
      );
    }
    const at = ctx.now();
    const by = { role: actor.role, operatorId: actor.operatorId };
    const seq = table.events ?? 0;
    const event: TableEventRecord = {
      tableId: table.tableId,
      operatorId: table.operatorId,
      seq,
      type: 'SHOE_ABANDONED',
      at,
      shoeId: shoe.shoeId,
      reason,
      clears: lock.seq,
      by,
    };
    const abandoned = { at, reason, by, problems: lock.problems ?? [lock.detail] };
    try {
      await ctx.store.transact([
        {
          kind: 'update',
          entity: 'shoe',
          key: { shoeId: shoe.shoeId },
          set: { status: 'ABANDONED', abandoned },
          expect: { status: 'CLOSING' },
        },
        {
          kind: 'update',
          entity: 'table',
          key: { tableId: table.tableId },
          set: { currentShoeId: null, lock: null },
          add: { events: 1 },
          expect: { currentShoeId: shoe.shoeId, 'lock.seq': lock.seq, events: seq },
        },
        { kind: 'put', entity: 'tableEvent', key: { tableId: table.tableId, seq }, item: event },
      ]);
      return shoeView({ ...shoe, status: 'ABANDONED', abandoned });
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      await backoff(attempt);
    }
  }
  throw tooMuchContention('abandoning the shoe');
}
