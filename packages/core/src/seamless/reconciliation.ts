/**
 * Seamless reconciliation (docs/seamless-wallet.md §9): the platform's record of every call to an
 * operator's wallet, listed by the period it was created in, with its state, summed per state, kind
 * and currency, the net the operator's books must show for the same txIds, and the unresolved ones
 * named: a credit or rollback (or a debit) not final SEAMLESS_PENDING_AGE_MINUTES after it was
 * created, or one the wallet refused that should never be (a credit, a rollback).
 *
 * The daily job (`reconcileSeamlessDay`, run by EventBridge Scheduler for each seamless operator)
 * stores the report of the UTC day that ended, readable by the endpoint, and hands the stuck
 * transactions to the outbox again (their delivery is idempotent: same txId; a stuck debit is given
 * up and rolled back by it). Read through the Store
 * port only.
 */
import {
  PAGE_DEFAULT_LIMIT,
  SEAMLESS_FINAL_STATES,
  SEAMLESS_PENDING_AGE_MINUTES,
  SEAMLESS_SUMMARY_MAX_TXS,
  SEAMLESS_UNRESOLVED_NAMED_MAX,
  type SeamlessTxKind,
  type SeamlessTxState,
} from '@pyb/contracts';
import type {
  Actor,
  SeamlessReportRecord,
  SeamlessReportView,
  SeamlessSummaryView,
  SeamlessTransactionsQuery,
  SeamlessTransactionsView,
  SeamlessTransactionView,
  SeamlessTxRecord,
} from '../shared';
import { DomainError, MAX_SEAMLESS_LIST_DAYS, notFound, readableOperator, utcDay } from '../shared';
import type { SeamlessCtx } from './ctx';

const PENDING_AGE_MS = SEAMLESS_PENDING_AGE_MINUTES * 60_000;
/** Items per Store page while walking a period. */
const WALK_PAGE = 1000;
/** Credits and rollbacks handed to the outbox per send. */
const SEND_CHUNK = 100;
const FINAL = new Set<SeamlessTxState>(SEAMLESS_FINAL_STATES);

const kindOf = (tx: SeamlessTxRecord): SeamlessTxKind =>
  tx.op === 'CREDIT' ? (tx.creditKind ?? 'PAYOUT') : tx.op;

/** Why a transaction needs someone (or the outbox) to act, if it does, as of `asOfMs`. */
function unresolvedReason(tx: SeamlessTxRecord, asOfMs: number): 'PENDING' | 'REFUSED' | undefined {
  if (FINAL.has(tx.state)) return undefined;
  if (tx.refusal) return 'REFUSED';
  return asOfMs - Date.parse(tx.createdAt) > PENDING_AGE_MS ? 'PENDING' : undefined;
}

/** Sums transactions one at a time: what a summary needs, never the transactions themselves. */
class SeamlessSummarizer {
  private count = 0;
  private readonly totals = new Map<string, SeamlessSummaryView['totals'][number]>();
  private readonly net = new Map<string, SeamlessSummaryView['net'][number]>();
  private unresolvedCount = 0;
  private named: SeamlessSummaryView['unresolved']['transactions'] = [];
  private readonly asOfMs: number;

  constructor(asOf: string) {
    this.asOfMs = Date.parse(asOf);
  }

  add(tx: SeamlessTxRecord): void {
    this.count++;
    const kind = kindOf(tx);
    const key = `${tx.state}|${kind}|${tx.currency}`;
    const total = this.totals.get(key) ?? {
      state: tx.state,
      kind,
      currency: tx.currency,
      count: 0,
      amount: 0,
    };
    total.count++;
    total.amount += tx.amount;
    this.totals.set(key, total);
    const net = this.net.get(tx.currency) ?? { currency: tx.currency, debited: 0, credited: 0, net: 0 };
    if (tx.op === 'DEBIT' && tx.state === 'DEBITED') net.debited += tx.amount;
    if (tx.op === 'CREDIT' && tx.state === 'CREDITED') net.credited += tx.amount;
    net.net = net.credited - net.debited;
    this.net.set(tx.currency, net);
    const reason = unresolvedReason(tx, this.asOfMs);
    if (reason) {
      this.unresolvedCount++;
      this.named.push({
        txId: tx.txId,
        kind,
        state: tx.state,
        playerId: tx.playerId,
        currency: tx.currency,
        amount: tx.amount,
        createdAt: tx.createdAt,
        reason,
      });
      // Keep the oldest ones, bounded: the listing is not in global time order.
      if (this.named.length > 2 * SEAMLESS_UNRESOLVED_NAMED_MAX) this.trim();
    }
  }

  private trim(): void {
    this.named.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.txId.localeCompare(b.txId));
    this.named = this.named.slice(0, SEAMLESS_UNRESOLVED_NAMED_MAX);
  }

  result(): SeamlessSummaryView {
    this.trim();
    const order = (a: string, b: string) => a.localeCompare(b);
    return {
      count: this.count,
      totals: [...this.totals.values()].sort(
        (a, b) => order(a.currency, b.currency) || order(a.kind, b.kind) || order(a.state, b.state),
      ),
      net: [...this.net.values()].sort((a, b) => order(a.currency, b.currency)),
      unresolved: { count: this.unresolvedCount, transactions: [...this.named] },
    };
  }
}

/** A period the listing accepts: UTC timestamps, from < to, at most MAX_SEAMLESS_LIST_DAYS apart. */
function checkPeriod(from: string, to: string): void {
  const f = Date.parse(from);
  const t = Date.parse(to);
  if (Number.isNaN(f) || Number.isNaN(t) || t <= f || t - f > MAX_SEAMLESS_LIST_DAYS * 86_400_000) {
    throw new DomainError(
      'INVALID',
      'SEAMLESS_RANGE_INVALID',
      `from and to must be UTC timestamps with from < to, at most ${MAX_SEAMLESS_LIST_DAYS} days apart`,
    );
  }
}

/** Every transaction of the period, page by page; more than `max` is refused. */
async function* walk(
  ctx: SeamlessCtx,
  operatorId: string,
  range: { from: string; to: string },
  max: number,
): AsyncGenerator<SeamlessTxRecord> {
  let cursor: string | undefined;
  let read = 0;
  do {
    const page = await ctx.store.listSeamlessTxs(operatorId, range, {
      limit: WALK_PAGE,
      ...(cursor && { cursor }),
    });
    read += page.items.length;
    if (read > max) {
      throw new DomainError(
        'UNPROCESSABLE',
        'SEAMLESS_PERIOD_TOO_LARGE',
        `the period holds more than ${max} seamless transactions: ask for a shorter one, or read the daily reports`,
      );
    }
    yield* page.items;
    cursor = page.cursor;
  } while (cursor);
}

const seamlessTransactionView = (tx: SeamlessTxRecord): SeamlessTransactionView => ({
  txId: tx.txId,
  kind: kindOf(tx),
  state: tx.state,
  playerId: tx.playerId,
  currency: tx.currency,
  amount: tx.amount,
  roundId: tx.roundId,
  tableId: tx.tableId,
  betRef: tx.betRef,
  ...(tx.debitTxId !== undefined && { debitTxId: tx.debitTxId }),
  ...(tx.operatorTxId !== undefined && { operatorTxId: tx.operatorTxId }),
  attempts: tx.attempts,
  createdAt: tx.createdAt,
  updatedAt: tx.updatedAt,
  ...(tx.resolvedAt !== undefined && { resolvedAt: tx.resolvedAt }),
  ...(tx.refusal !== undefined && { refusal: tx.refusal.code }),
});

/**
 * An operator's seamless transactions created in [from, to): a page (in the listing's order: by day,
 * then shard, then time), only those in `state` when it is given; the first page (no cursor) carries
 * the summary of the whole period. Operator keys read their own operator, regulator keys the ones
 * they supervise; any other looks absent.
 */
export async function listSeamlessTransactions(
  ctx: SeamlessCtx,
  actor: Actor,
  input: SeamlessTransactionsQuery,
): Promise<SeamlessTransactionsView> {
  const operatorId = readableOperator(actor, input.operatorId);
  checkPeriod(input.from, input.to);
  const range = { from: input.from, to: input.to };
  const asOf = ctx.now();
  let summary: SeamlessSummaryView | null = null;
  if (input.cursor === undefined) {
    const summarizer = new SeamlessSummarizer(asOf);
    for await (const tx of walk(ctx, operatorId, range, SEAMLESS_SUMMARY_MAX_TXS)) summarizer.add(tx);
    summary = summarizer.result();
  }
  const page = await ctx.store.listSeamlessTxs(operatorId, range, {
    limit: input.limit ?? PAGE_DEFAULT_LIMIT,
    ...(input.cursor !== undefined && { cursor: input.cursor }),
  });
  return {
    operatorId,
    from: input.from,
    to: input.to,
    asOf,
    summary,
    transactions: page.items
      .filter((tx) => input.state === undefined || tx.state === input.state)
      .map(seamlessTransactionView),
    nextCursor: page.cursor ?? null,
  };
}

const reportView = (r: SeamlessReportRecord): SeamlessReportView => ({
  operatorId: r.operatorId,
  date: r.date,
  from: r.from,
  to: r.to,
  asOf: r.asOf,
  summary: r.summary,
  redelivered: r.redelivered,
});

/** The report the daily job stored for a UTC day (404 SEAMLESS_REPORT_NOT_FOUND before it ran). */
export async function getSeamlessReport(
  ctx: SeamlessCtx,
  actor: Actor,
  input: { operatorId: string; date: string },
): Promise<SeamlessReportView> {
  const operatorId = readableOperator(actor, input.operatorId);
  if (!utcDay(input.date)) throw new DomainError('INVALID', 'INVALID_INPUT', 'date must be a day YYYY-MM-DD');
  const report = await ctx.store.get('seamlessReport', { operatorId, date: input.date });
  if (!report) {
    throw notFound(
      'seamlessReport',
      input.date,
      `no seamless report of ${operatorId} for ${input.date} (the daily job writes it after the day ends)`,
    );
  }
  return reportView(report);
}

/** The UTC day before the one `now` falls in (`YYYY-MM-DD`). */
const dayBefore = (now: string): string =>
  new Date(Date.parse(`${now.slice(0, 10)}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * The daily job for one seamless operator: the report of the UTC day `date` (default: the day before
 * today), stored (a re-run replaces it), and every transaction of that day still pending past its
 * age and not refused handed to the outbox again. Not bounded like the endpoint: the job walks the
 * whole day (a Lambda of its own, minutes long), keeping only sums and the named unresolved ones.
 */
export async function reconcileSeamlessDay(
  ctx: SeamlessCtx,
  input: { operatorId: string; date?: string },
): Promise<SeamlessReportView> {
  // Sent here, not through sendToOutbox (which never throws): a job that could not re-send fails, so
  // the scheduler retries it and the function's error alarm fires.
  const outbox = ctx.outbox;
  if (!outbox) throw new Error('the reconciliation job needs the outbox queue (ctx.outbox)');
  const asOf = ctx.now();
  const date = input.date ?? dayBefore(asOf);
  const day = utcDay(date);
  if (!day) throw new DomainError('INVALID', 'INVALID_INPUT', `date ${date} is not a day YYYY-MM-DD`);
  const summarizer = new SeamlessSummarizer(asOf);
  const asOfMs = Date.parse(asOf);
  const stuck: string[] = [];
  for await (const tx of walk(ctx, input.operatorId, day, Number.POSITIVE_INFINITY)) {
    summarizer.add(tx);
    // Pending past its age and not refused: a credit or rollback the outbox lost (dead-lettered, or
    // never sent after a crash), or a debit whose bet died before its outcome — the delivery gives
    // that one up and rolls it back (a debit is never sent again as a debit).
    if (unresolvedReason(tx, asOfMs) === 'PENDING') stuck.push(tx.txId);
  }
  for (let i = 0; i < stuck.length; i += SEND_CHUNK) await outbox.send(stuck.slice(i, i + SEND_CHUNK));
  const record: SeamlessReportRecord = {
    operatorId: input.operatorId,
    date,
    from: day.from,
    to: day.to,
    asOf,
    summary: summarizer.result(),
    redelivered: stuck.length,
  };
  // A re-run of the day replaces its report (puts never overwrite: an upsert).
  const { operatorId, ...fields } = record;
  await ctx.store.transact([
    {
      kind: 'update',
      entity: 'seamlessReport',
      key: { operatorId, date },
      set: { operatorId, ...fields },
      upsert: true,
    },
  ]);
  return reportView(record);
}
