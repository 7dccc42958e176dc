/**
 * The daily gross-gaming-revenue report (docs/regulators.md, "GGR report"): per operator, table and
 * currency, what the rounds finished in one UTC day took and gave back. A round counts on the day it
 * finished — settled (SETTLED) or voided (VOIDED) — never on the day it opened, so each round counts
 * once and a report of a past day never changes. Read through the Store port only.
 *
 * stakes: the settled positions' stakes; returns: what their settlements paid back (stake included,
 * commission at payment deducted); GGR = stakes − returns, exactly the opposite of what the ledger
 * moved for those rounds (BET, BET_WITHDRAWAL, PAYOUT entries). Voided rounds move nothing in the end
 * (their stakes refunded: `voids`), and are not in the GGR. `commission` is what settlement took at
 * payment (already inside returns); `commissionDeferred` what it added to players' debts (DEFERRED
 * tables: revenue when collected, by COMMISSION ledger entries at leave or shoe end, not in this GGR).
 */
import type { Actor, GgrReportView, RoundRecord, ShoeRecord, TableRecord } from '../shared';
import { DomainError, operatorTables, readableOperator, utcDay } from '../shared';
import type { ReportsCtx } from './ctx';

interface GgrRow {
  tableId: string;
  currency: string;
  /** Rounds settled that day. */
  rounds: number;
  /** Their positions. */
  positions: number;
  stakes: number;
  returns: number;
  commission: number;
  commissionDeferred: number;
  /** Rounds voided that day, and the stakes refunded. */
  voidedRounds: number;
  voids: number;
  /** Discards (D1, shoes/discards.ts): voids after their beacon round was out; shoes closed early after theirs. */
  voidsAfterBeacon: number;
  earlyClosesAfterBeacon: number;
  ggr: number;
}

const PAGE = 100;

/** The table's shoes that may hold a round finished in [from, to): opened before `to`, not closed before `from`. */
export async function* shoesIn(
  ctx: ReportsCtx,
  tableId: string,
  from: string,
  to: string,
): AsyncGenerator<ShoeRecord> {
  let cursor: string | undefined;
  do {
    const page = await ctx.store.listShoes(tableId, { limit: PAGE, ...(cursor && { cursor }) });
    for (const shoe of page.items) {
      if (shoe.openedAt >= to) return; // by number: every later shoe opened later still
      if (shoe.closedAt !== undefined && shoe.closedAt < from) continue;
      if (shoe.abandoned !== undefined && shoe.abandoned.at < from) continue;
      yield shoe;
    }
    cursor = page.cursor;
  } while (cursor);
}

/** When a round finished (settled or voided), if it did. */
export const finishedAt = (round: RoundRecord): string | undefined =>
  round.status === 'SETTLED' ? round.settledAt : round.status === 'VOIDED' ? round.voidedAt : undefined;

/**
 * Every round of the operator finished in [from, to), with its table and shoe, and every shoe closed
 * early in it after its beacon round (no round): a walk of tables → shoes → rounds, a page at a time
 * (the regulator feed walks the same way).
 */
async function* roundsFinishedIn(
  ctx: ReportsCtx,
  operatorId: string,
  from: string,
  to: string,
): AsyncGenerator<{ table: TableRecord; shoe: ShoeRecord; round?: RoundRecord }> {
  for await (const table of operatorTables(ctx, operatorId)) {
    for await (const shoe of shoesIn(ctx, table.tableId, from, to)) {
      // A shoe closed early that day after its beacon round was out (a discard): no round needed.
      if (shoe.discard && shoe.discard.at >= from && shoe.discard.at < to) yield { table, shoe };
      for (const round of await ctx.store.listRounds(shoe.shoeId)) {
        const at = finishedAt(round);
        if (at !== undefined && at >= from && at < to) yield { table, shoe, round };
      }
    }
  }
}

const emptyRow = (tableId: string, currency: string): GgrRow => ({
  tableId,
  currency,
  rounds: 0,
  positions: 0,
  stakes: 0,
  returns: 0,
  commission: 0,
  commissionDeferred: 0,
  voidedRounds: 0,
  voids: 0,
  voidsAfterBeacon: 0,
  earlyClosesAfterBeacon: 0,
  ggr: 0,
});

const SUMMED = [
  'rounds',
  'positions',
  'stakes',
  'returns',
  'commission',
  'commissionDeferred',
  'voidedRounds',
  'voids',
  'voidsAfterBeacon',
  'earlyClosesAfterBeacon',
  'ggr',
] as const;

export async function ggrReport(
  ctx: ReportsCtx,
  actor: Actor,
  input: { operatorId?: string; date: string },
): Promise<GgrReportView> {
  const operatorId = readableOperator(actor, input.operatorId);
  const day = utcDay(input.date);
  if (!day) throw new DomainError('INVALID', 'INVALID_INPUT', 'date must be a calendar day YYYY-MM-DD (UTC)');
  const rows = new Map<string, GgrRow>();
  for await (const { table, shoe, round } of roundsFinishedIn(ctx, operatorId, day.from, day.to)) {
    const currency = shoe.config.currency;
    const key = `${table.tableId}\n${currency}`;
    const row = rows.get(key) ?? emptyRow(table.tableId, currency);
    rows.set(key, row);
    if (!round) {
      row.earlyClosesAfterBeacon += 1;
      continue;
    }
    const positions = await ctx.store.listPositions(round.roundId);
    if (round.status === 'VOIDED') {
      row.voidedRounds += 1;
      if (round.discard) row.voidsAfterBeacon += 1;
      for (const p of positions) if (p.refundedAt !== undefined) row.voids += p.stake;
      continue;
    }
    row.rounds += 1;
    for (const p of positions) {
      const s = p.settlement;
      if (!s) continue;
      row.positions += 1;
      row.stakes += s.stake;
      row.returns += s.payout;
      row.commission += s.commission;
      row.commissionDeferred += s.commissionOwed;
    }
    row.ggr = row.stakes - row.returns;
  }
  const sorted = [...rows.values()].sort((a, b) =>
    a.tableId === b.tableId ? a.currency.localeCompare(b.currency) : a.tableId < b.tableId ? -1 : 1,
  );
  const totals = new Map<string, GgrRow>();
  for (const row of sorted) {
    const total = totals.get(row.currency) ?? emptyRow('', row.currency);
    for (const k of SUMMED) total[k] += row[k];
    totals.set(row.currency, total);
  }
  return {
    operatorId,
    date: input.date,
    from: day.from,
    to: day.to,
    complete: ctx.now() >= day.to,
    rows: sorted,
    totals: [...totals.values()]
      .map(({ tableId: _table, ...total }) => total)
      .sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}
