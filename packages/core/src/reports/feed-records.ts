/**
 * The records of the regulator feed (docs/regulators.md, "Regulator data feed"): flat objects with a
 * `type`, built from stored items without any rule of their own. Nested values are only `bets` (stake
 * per bet type), `results` (a settlement per bet), `counts` and `totals` of the summary.
 *
 * A shoe is described as it stood at the end of the range: its server seed only when it was closed
 * before that end (never a secret of a shoe in play — the sealed seed is never exported).
 */
import { formatCard } from '@pyb/engine';
import type {
  DebtRecord,
  LedgerEntry,
  PositionRecord,
  RoundRecord,
  ShoeRecord,
  TableEventRecord,
  TableRecord,
} from '../shared';

const FEED_RECORD_TYPES = [
  'shoe',
  'round',
  'bet',
  'settlement',
  'refund',
  'movement',
  'tableEvent',
  'summary',
] as const;
export type FeedRecordType = (typeof FEED_RECORD_TYPES)[number];

export type FeedRecord = { type: FeedRecordType } & Record<string, unknown>;

const defined = <T extends Record<string, unknown>>(record: T): T =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;

const before = (at: string | undefined, to: string): string | undefined =>
  at !== undefined && at < to ? at : undefined;

/** The shoe at the end of the range `[.., to)`: what had happened by then, nothing later. */
export function shoeRecord(table: TableRecord, shoe: ShoeRecord, to: string): FeedRecord {
  const closedAt = before(shoe.closedAt, to);
  const endedAt = before(shoe.endedAt, to);
  const abandonedAt = before(shoe.abandoned?.at, to);
  return defined({
    type: 'shoe',
    operatorId: shoe.operatorId,
    tableId: table.tableId,
    tableName: table.name,
    shoeId: shoe.shoeId,
    shoeNumber: shoe.number,
    status: abandonedAt ? 'ABANDONED' : closedAt ? 'CLOSED' : endedAt ? 'ENDED' : 'OPEN',
    currency: shoe.config.currency,
    decks: shoe.config.decks,
    openedAt: shoe.openedAt,
    endedAt,
    closedAt,
    commitment: shoe.commitment,
    keyId: shoe.keyId,
    closeReason: closedAt ? shoe.closeReason : undefined,
    // Revealed at close: in the record only when the close is inside the range's past.
    serverSeed: closedAt ? shoe.serverSeed : undefined,
    cutIndex: closedAt ? shoe.cutIndex : undefined,
    abandonedAt,
    abandonReason: abandonedAt ? shoe.abandoned?.reason : undefined,
    ...discardFields(shoe.discard, to),
  });
}

/** A discard (D1, shoes/discards.ts) by the end of the range: the beacon round it threw away, and when. */
const discardFields = (discard: { beaconRound: number; at: string } | undefined, to: string) =>
  discard && discard.at < to ? { discardBeaconRound: discard.beaconRound, discardedAt: discard.at } : {};

/**
 * A table's own event (TABLE_LOCKED, TABLE_UNLOCKED, SHOE_ABANDONED): regulators are told of every
 * lock-out, of a shoe whose audit chain broke at close and of its abandonment.
 */
export function tableEventRecord(table: TableRecord, e: TableEventRecord): FeedRecord {
  return defined({
    type: 'tableEvent',
    operatorId: table.operatorId,
    tableId: table.tableId,
    tableName: table.name,
    seq: e.seq,
    at: e.at,
    event: e.type,
    shoeId: e.shoeId ?? e.lock?.shoeId,
    roundId: e.lock?.roundId,
    lockSource: e.lock?.source,
    lockCause: e.lock?.cause,
    problems: e.lock ? (e.lock.problems ?? [e.lock.detail]) : undefined,
    reason: e.reason,
    clears: e.clears,
    betType: e.betType,
    person: e.person,
    byKeyId: e.by?.keyId,
  });
}

const cards = (list: readonly number[]) => list.map((c) => formatCard(c as never)).join(' ');

export function roundRecord(round: RoundRecord, currency: string): FeedRecord {
  const coup = round.coup?.result;
  return defined({
    type: 'round',
    operatorId: round.operatorId,
    tableId: round.tableId,
    shoeId: round.shoeId,
    roundId: round.roundId,
    roundNumber: round.number,
    status: round.status,
    currency,
    openedAt: round.openedAt,
    closedAt: round.closedAt,
    dealtAt: round.dealtAt,
    settledAt: round.settledAt,
    voidedAt: round.voidedAt,
    winner: coup?.winner,
    playerCards: coup ? cards(coup.player.cards) : undefined,
    playerTotal: coup?.player.total,
    bankerCards: coup ? cards(coup.banker.cards) : undefined,
    bankerTotal: coup?.banker.total,
    voidReason: round.voidReason,
    voidNote: round.voidNote,
    positions: round.totals?.positions,
    stake: round.totals?.stake,
    payout: round.totals?.payout,
    commission: round.totals?.commission,
    commissionOwed: round.totals?.commissionOwed,
    ...(round.discard && { discardBeaconRound: round.discard.beaconRound, discardedAt: round.discard.at }),
  });
}

/** A player's position: what his calls staked per bet type, and how many calls made it. */
export function betRecord(p: PositionRecord, currency: string): FeedRecord {
  return defined({
    type: 'bet',
    operatorId: p.operatorId,
    tableId: p.tableId,
    shoeId: p.shoeId,
    roundId: p.roundId,
    playerId: p.playerId,
    seat: p.seat ?? null,
    sessionId: p.sessionId,
    currency,
    bets: p.bets,
    stake: p.stake,
    calls: p.calls,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  });
}

export function settlementRecord(p: PositionRecord, currency: string): FeedRecord {
  const s = p.settlement!;
  return defined({
    type: 'settlement',
    operatorId: p.operatorId,
    tableId: p.tableId,
    shoeId: p.shoeId,
    roundId: p.roundId,
    playerId: p.playerId,
    sessionId: p.sessionId,
    currency,
    at: p.settledAt,
    stake: s.stake,
    payout: s.payout,
    commission: s.commission,
    commissionOwed: s.commissionOwed,
    results: s.bets,
    seq: p.settleSeq,
  });
}

/** A voided round's position given back: its whole stake. */
export function refundRecord(p: PositionRecord, currency: string): FeedRecord {
  return defined({
    type: 'refund',
    operatorId: p.operatorId,
    tableId: p.tableId,
    shoeId: p.shoeId,
    roundId: p.roundId,
    playerId: p.playerId,
    sessionId: p.sessionId,
    currency,
    at: p.refundedAt,
    amount: p.stake,
    seq: p.refundSeq,
  });
}

/** A ledger entry as it is (its hash chain included), without the idempotency key and request hash. */
/**
 * A seamless player's deferred commission collected (its `n`th collection for the shoe): the COMMISSION
 * movement a hosted wallet's ledger would hold. No balance: the money left the operator's wallet with
 * the bets (their commission reserves), which the operator's wallet answers for.
 */
export function seamlessCollectionRecord(
  debt: DebtRecord,
  tableId: string,
  currency: string,
  collection: { at: string; amount: number },
  n: number,
): FeedRecord {
  return {
    type: 'movement',
    operatorId: debt.operatorId,
    tableId,
    shoeId: debt.shoeId,
    playerId: debt.playerId,
    currency,
    at: collection.at,
    seq: n,
    kind: 'COMMISSION',
    amount: -collection.amount,
  };
}

export function movementRecord(e: LedgerEntry): FeedRecord {
  return defined({
    type: 'movement',
    operatorId: e.operatorId,
    tableId: e.tableId,
    shoeId: e.shoeId,
    roundId: e.roundId,
    playerId: e.playerId,
    sessionId: e.sessionId,
    currency: e.currency,
    at: e.at,
    seq: e.seq,
    kind: e.kind,
    amount: e.amount,
    balanceBefore: e.balanceBefore,
    balanceAfter: e.balanceAfter,
    owedAfter: e.owedAfter,
    reservedAfter: e.reservedAfter,
    bets: e.bets,
    reference: e.reference,
    prevHash: e.prevHash,
    hash: e.hash,
  });
}

/** Per currency: the sums a reader reconciles the file with (and with the GGR report of the day). */
export interface FeedTotals {
  currency: string;
  /** Settlements: stakes and what they paid back (= the GGR report's stakes and returns). */
  stakes: number;
  returns: number;
  commission: number;
  commissionOwed: number;
  /** stakes − returns (the GGR report's `ggr` when the range is its day). */
  ggr: number;
  /** Refunds of voided rounds (the GGR report's `voids`). */
  voids: number;
  /** Sum of every movement's amount, and per ledger kind. */
  movements: number;
  byKind: Record<string, number>;
}

/** Counts and totals of a feed as its records go by: the last record (`summary`). */
export class FeedSummary {
  readonly counts: Record<string, number> = {};
  private readonly totals = new Map<string, FeedTotals>();
  /** Discards in the range, per table (D1): rounds voided, shoes closed early, after their beacon round. */
  private readonly discards = new Map<
    string,
    { tableId: string; voidsAfterBeacon: number; earlyClosesAfterBeacon: number }
  >();

  constructor(
    private readonly operatorId: string,
    private readonly from: string,
    private readonly to: string,
  ) {}

  add(record: FeedRecord): void {
    this.counts[record.type] = (this.counts[record.type] ?? 0) + 1;
    const discardedAt = record.discardedAt as string | undefined;
    if (discardedAt !== undefined && discardedAt >= this.from && discardedAt < this.to) {
      const tableId = record.tableId as string;
      const d = this.discards.get(tableId) ?? { tableId, voidsAfterBeacon: 0, earlyClosesAfterBeacon: 0 };
      if (record.type === 'round') d.voidsAfterBeacon += 1;
      else d.earlyClosesAfterBeacon += 1;
      this.discards.set(tableId, d);
    }
    const currency = record.currency as string | undefined;
    if (currency === undefined) return;
    const t = this.totalsOf(currency);
    const n = (k: string) => (record[k] as number | undefined) ?? 0;
    if (record.type === 'settlement') {
      t.stakes += n('stake');
      t.returns += n('payout');
      t.commission += n('commission');
      t.commissionOwed += n('commissionOwed');
      t.ggr = t.stakes - t.returns;
    } else if (record.type === 'refund') {
      t.voids += n('amount');
    } else if (record.type === 'movement') {
      t.movements += n('amount');
      const kind = record.kind as string;
      t.byKind[kind] = (t.byKind[kind] ?? 0) + n('amount');
    }
  }

  private totalsOf(currency: string): FeedTotals {
    let t = this.totals.get(currency);
    if (!t) {
      t = {
        currency,
        stakes: 0,
        returns: 0,
        commission: 0,
        commissionOwed: 0,
        ggr: 0,
        voids: 0,
        movements: 0,
        byKind: {},
      };
      this.totals.set(currency, t);
    }
    return t;
  }

  record(): FeedRecord {
    return {
      type: 'summary',
      operatorId: this.operatorId,
      from: this.from,
      to: this.to,
      counts: { ...this.counts },
      discards: [...this.discards.values()].sort((a, b) =>
        a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0,
      ),
      totals: [...this.totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    };
  }
}
