/** Records -> what the use cases return. */
import { betList, type CoupResult, coupOutcome, formatCard, stepCard } from '@pyb/engine';
import type { HeadAnchor, SignedKeyCertificate } from '@pyb/fairness';
import type {
  BetView,
  CoupView,
  LedgerEntryView,
  PositionView,
  RoundView,
  ShoeSummaryView,
  ShoeView,
  TableView,
  WalletView,
} from './api';
import type {
  KeyCertificateRecord,
  LedgerEntry,
  PositionRecord,
  RoundCoup,
  RoundRecord,
  ShoeRecord,
  TableRecord,
  WalletRecord,
} from './model';
import type { StoredAnchor } from './ports/time-stamps';

export const tableView = (t: TableRecord): TableView => ({
  tableId: t.tableId,
  operatorId: t.operatorId,
  name: t.name,
  config: t.config,
  currentShoeId: t.currentShoeId ?? null,
  openRoundId: t.openRoundId ?? null,
  createdAt: t.createdAt,
  cadence: t.cadence ?? null,
  lock: t.lock ?? null,
  disabled: t.disabled ?? null,
  betsOff: t.betsOff ?? [],
});

export const shoeView = (s: ShoeRecord): ShoeView => ({
  shoeId: s.shoeId,
  tableId: s.tableId,
  operatorId: s.operatorId,
  number: s.number,
  status: s.status === 'CLOSED' ? 'CLOSED' : 'OPEN',
  phase: s.status,
  ended: s.status !== 'OPEN',
  decks: s.config.decks,
  commitment: s.commitment,
  statement: s.statement,
  signature: s.signature,
  keyId: s.keyId,
  clientSeed: s.clientSeed ?? null,
  rounds: s.rounds,
  coups: s.state?.coups ?? 0,
  burn: s.burn ? { shown: formatCard(s.burn.shown), burned: s.burn.burned } : null,
  openedAt: s.openedAt,
  closedAt: s.closedAt ?? null,
  serverSeed: s.serverSeed ?? null,
  cutIndex: s.status === 'CLOSED' ? (s.cutIndex ?? null) : null,
  close: s.close ?? null,
  contributions: {
    count: s.contributions ?? 0,
    closedAt: s.contributionsClosed?.at ?? null,
    digest: s.contributionsClosed?.digest ?? null,
    beaconRound: s.contributionsClosed?.beaconRound ?? null,
    head: s.contributionsClosed?.head ?? null,
  },
  beacon: s.beacon ? { round: s.beacon.round, signature: s.beacon.signature } : null,
  closeReason: s.closeReason ?? null,
  voids: s.status === 'CLOSED' ? (s.voids ?? null) : null,
  abandoned: s.abandoned
    ? { at: s.abandoned.at, reason: s.abandoned.reason, problems: s.abandoned.problems }
    : null,
});

export const shoeSummaryView = (s: ShoeRecord): ShoeSummaryView => ({
  shoeId: s.shoeId,
  number: s.number,
  phase: s.status,
  openedAt: s.openedAt,
  endedAt: s.endedAt ?? null,
  closedAt: s.closedAt ?? null,
  closeReason: s.closeReason ?? null,
  rounds: s.rounds,
  coups: s.state?.coups ?? 0,
  commitment: s.commitment,
  closeHead: s.close?.statement.head ?? null,
  voids: s.status === 'CLOSED' ? (s.voids ?? null) : null,
});

const coupView = (c: RoundCoup): CoupView => {
  const r: CoupResult = c.result;
  return {
    ...coupOutcome(r),
    steps: r.steps.map((s) => ({
      card: stepCard(s),
      to: s.to,
      action: s.action,
      rule: s.rule,
      note: s.note,
    })),
    start: c.start,
    cardsUsed: r.cardsUsed,
    cutCardOut: c.cutCardOut,
  };
};

export function positionView(p: PositionRecord): PositionView {
  const settled = p.settlement;
  const bets: BetView[] = betList(p.bets).map(({ type, amount }) => {
    const s = settled?.bets.find((b) => b.type === type);
    return {
      type,
      amount,
      result: s?.result ?? null,
      payout: s ? s.payout : p.refundedAt ? amount : null,
      commission: s ? s.commission : null,
      commissionOwed: s ? s.commissionOwed : null,
    };
  });
  return {
    roundId: p.roundId,
    playerId: p.playerId,
    seat: p.seat ?? null,
    sessionId: p.sessionId ?? null,
    bets,
    stake: p.stake,
    payout: settled ? settled.payout : p.refundedAt ? p.stake : null,
    commission: settled ? settled.commission : null,
    commissionOwed: settled ? settled.commissionOwed : null,
    status: p.settledAt ? 'SETTLED' : p.refundedAt ? 'REFUNDED' : 'OPEN',
  };
}

export const roundView = (r: RoundRecord, positions: readonly PositionRecord[]): RoundView => ({
  roundId: r.roundId,
  tableId: r.tableId,
  shoeId: r.shoeId,
  operatorId: r.operatorId,
  coup: r.number,
  status: r.status,
  openedAt: r.openedAt,
  closesAt: r.closesAt ?? null,
  betsOff: r.betsOff ?? [],
  resolvedAt: r.settledAt ?? r.voidedAt ?? null,
  result: r.coup ? coupView(r.coup) : null,
  positions: [...positions].sort((a, b) => (a.playerId < b.playerId ? -1 : 1)).map(positionView),
  lastCoup: r.coup?.last ?? r.burned?.last ?? r.lastAnnounced ?? false,
  voidReason: r.voidReason ?? null,
  burned: r.burned
    ? { start: r.burned.start, cards: r.burned.cards.map(formatCard), cutCardOut: r.burned.cutCardOut }
    : null,
  betsDigest: r.betsDigest ?? null,
  settlementsDigest: r.settlementsDigest ?? null,
  head: r.head ?? null,
  bettingClosed: r.betting
    ? {
        beaconRound: r.betting.beaconRound,
        head: r.betting.head ?? null,
        anchor:
          r.betting.anchor && r.betting.head
            ? { seq: r.betting.head.statement.seq, ...publicAnchor(r.betting.anchor) }
            : null,
      }
    : null,
  beacon: r.coup?.beacon ?? r.burned?.beacon ?? null,
});

export const walletView = (w: WalletRecord): WalletView => ({
  operatorId: w.operatorId,
  playerId: w.playerId,
  currency: w.currency,
  balance: w.balance,
  commissionOwed: w.owed,
  reserved: w.reserved,
  available: w.available,
  updatedAt: w.updatedAt,
});

export const ledgerEntryView = (e: LedgerEntry): LedgerEntryView => ({
  entryId: String(e.seq),
  seq: e.seq,
  playerId: e.playerId,
  kind: e.kind,
  amount: e.amount,
  balanceBefore: e.balanceBefore,
  balanceAfter: e.balanceAfter,
  roundId: e.roundId ?? null,
  shoeId: e.shoeId ?? null,
  reference: e.reference ?? null,
  sessionId: e.sessionId ?? null,
  createdAt: e.at,
});

/** An anchor as the API and the bundle show it: without the platform's own reading of its time. */
export const publicAnchor = ({ existedBy: _, ...anchor }: StoredAnchor): Omit<HeadAnchor, 'seq'> => anchor;

/** A key certificate as the API and the bundle show it: the certificate, its signature, the rotation's stamp. */
export const publicCertificate = (record: KeyCertificateRecord): SignedKeyCertificate => ({
  certificate: record.certificate,
  signature: record.signature,
  ...(record.anchor && { anchor: publicAnchor(record.anchor) }),
});
