/**
 * The regulator data feed (docs/regulators.md, "Regulator data feed"): an operator's records of a
 * time range [from, to) (UTC), as NDJSON or CSV (feed/format.ts), read through the Store port a page
 * at a time and yielded one record at a time — never the whole range in memory.
 *
 * What is in a range, and in what order:
 * 1. per table (by creation) and shoe (by number) in play during the range (opened before `to`, not
 *    closed before `from`): the `shoe` as it stood at `to` (feed/records.ts: no seed before its close);
 *    then each round of that shoe FINISHED in the range (settled or voided — as the GGR report counts
 *    it, so the two reconcile): the `round`, and per position (by player id) its `bet`, the
 *    `movement`s of its calls, its `settlement` or `refund` and the `movement` that paid or refunded it.
 *    A round's records are all in the range it finished in, whatever the time of its bets. After a
 *    DEFERRED shoe's rounds, its seamless players' commission collections in the range (a hosted
 *    player's are ledger entries: 2.), by time, as `movement`s of kind COMMISSION. After the table's
 *    shoes, its own events in the range (`tableEvent`: TABLE_LOCKED, TABLE_UNLOCKED, SHOE_ABANDONED).
 * 2. the wallet `movement`s outside rounds (credits, debits, RG changes, commission collections,
 *    session ends) with `at` in the range, by time (Store.listMovements);
 * 3. one `summary`: counts per type and, per currency, the sums to reconcile with (FeedSummary).
 *
 * Two ways out: the daily job writes yesterday's files per operator through the FeedFiles port
 * (`writeDailyFeed`, run by EventBridge Scheduler: infra/src/feed.ts), and the API answers a bounded
 * range on demand (`exportFeed`, at most FEED_MAX_RANGE_MS and FEED_MAX_BYTES) and serves the files.
 */

import { ledgerEntries, loadPositionLedger } from '../audit';
import type { Actor, FeedFiles, FeedFileWritten } from '../shared';
import { DomainError, mapBounded, notFound, operatorTables, readableOperator, utcDay } from '../shared';
import { debtBooksOf } from '../wallet';
import type { ReportsCtx } from './ctx';
import { encodeFeed, FEED_MEDIA_TYPES, type FeedFormat } from './feed-format';
import {
  betRecord,
  type FeedRecord,
  FeedSummary,
  movementRecord,
  refundRecord,
  roundRecord,
  seamlessCollectionRecord,
  settlementRecord,
  shoeRecord,
  tableEventRecord,
} from './feed-records';
import { finishedAt, shoesIn } from './ggr';

/** The longest range the API answers on demand (one day); longer ranges are the daily files'. */
const FEED_MAX_RANGE_MS = 86_400_000;
/** The largest answer on demand (an API Gateway + Lambda answer is at most 6 MB). */
const FEED_MAX_BYTES = 5 * 1024 * 1024;
/** Movements read per page; positions' ledgers read at once. */
const PAGE = 200;
const CONCURRENCY = 8;
const DAY_MS = 86_400_000;

/** The daily files of an operator, by name. */
const FEED_FILES = { 'feed.ndjson': 'ndjson', 'feed.csv': 'csv' } as const satisfies Record<
  string,
  FeedFormat
>;
export type FeedFileName = keyof typeof FEED_FILES;

export const feedFileKey = (operatorId: string, date: string, name: string): string =>
  `feed/${operatorId}/${date}/${name}`;

/** The records of `operatorId` for [from, to), in the order above; the summary last. */
export async function* feedRecords(
  ctx: ReportsCtx,
  operatorId: string,
  from: string,
  to: string,
): AsyncGenerator<FeedRecord> {
  const summary = new FeedSummary(operatorId, from, to);
  const counted = function* (records: Iterable<FeedRecord>) {
    for (const r of records) {
      summary.add(r);
      yield r;
    }
  };
  for await (const table of operatorTables(ctx, operatorId)) {
    for await (const shoe of shoesIn(ctx, table.tableId, from, to)) {
      yield* counted([shoeRecord(table, shoe, to)]);
      const currency = shoe.config.currency;
      for (const round of await ctx.store.listRounds(shoe.shoeId)) {
        const at = finishedAt(round);
        if (at === undefined || at < from || at >= to) continue;
        yield* counted([roundRecord(round, currency)]);
        const positions = await ctx.store.listPositions(round.roundId);
        // A round's positions with their ledger entries, a bounded number read at once.
        for (let i = 0; i < positions.length; i += PAGE) {
          const chunk = positions.slice(i, i + PAGE);
          const ledgers = await mapBounded(chunk, CONCURRENCY, (p) =>
            loadPositionLedger(ctx.store, round, p),
          );
          for (const [j, p] of chunk.entries()) {
            const ledger = ledgers[j]!;
            const out: FeedRecord[] = [betRecord(p, currency), ...ledger.bets.map(movementRecord)];
            if (p.settlement) out.push(settlementRecord(p, currency));
            if (p.refundedAt !== undefined) out.push(refundRecord(p, currency));
            for (const e of ledgerEntries(ledger).slice(ledger.bets.length))
              if (e) out.push(movementRecord(e));
            yield* counted(out);
          }
        }
      }
      // The commission collections no wallet ledger holds (a seamless player's, recorded on his debt):
      // in the range, by time.
      if (shoe.config.commission.mode === 'DEFERRED') {
        const collections = (await ctx.store.listDebts(shoe.shoeId))
          .flatMap((d) =>
            debtBooksOf(d)
              .logged(d)
              .map((c, i) => seamlessCollectionRecord(d, table.tableId, currency, c, i + 1)),
          )
          .filter((r) => (r.at as string) >= from && (r.at as string) < to)
          .sort((a, b) => ((a.at as string) < (b.at as string) ? -1 : a.at === b.at ? 0 : 1));
        yield* counted(collections);
      }
    }
    // The table's lock-outs, a broken chain found at close and an abandoned shoe: in the range, in order.
    const events = (await ctx.store.listTableEvents(table.tableId)).filter((e) => e.at >= from && e.at < to);
    yield* counted(events.map((e) => tableEventRecord(table, e)));
  }
  // Movements outside rounds, kept per UTC day: one day's partition after the other.
  for (let day = Date.parse(`${from.slice(0, 10)}T00:00:00.000Z`); day < Date.parse(to); day += DAY_MS) {
    const dayFrom = new Date(Math.max(day, Date.parse(from))).toISOString();
    const dayTo = new Date(Math.min(day + DAY_MS, Date.parse(to))).toISOString();
    let cursor: string | undefined;
    do {
      const page = await ctx.store.listMovements(
        operatorId,
        { from: dayFrom, to: dayTo },
        { limit: PAGE, ...(cursor && { cursor }) },
      );
      yield* counted(page.items.map(movementRecord));
      cursor = page.cursor;
    } while (cursor);
  }
  yield summary.record();
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** A UTC instant as stored (toISOString), or undefined when `text` is none. */
function instant(text: string): string | undefined {
  if (!INSTANT.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

function feedRange(input: { from: string; to: string }): { from: string; to: string } {
  const from = instant(input.from);
  const to = instant(input.to);
  if (!from || !to || from >= to) {
    throw new DomainError(
      'INVALID',
      'FEED_RANGE_INVALID',
      'from and to must be UTC instants (YYYY-MM-DDTHH:MM:SS[.sss]Z) with from before to',
    );
  }
  if (Date.parse(to) - Date.parse(from) > FEED_MAX_RANGE_MS) {
    throw new DomainError(
      'UNPROCESSABLE',
      'FEED_RANGE_TOO_LARGE',
      `a range on demand is at most ${FEED_MAX_RANGE_MS / 3_600_000} hours: longer ranges are in the daily files`,
      { maxRangeHours: FEED_MAX_RANGE_MS / 3_600_000 },
    );
  }
  return { from, to };
}

export interface FeedExport {
  contentType: string;
  body: string;
}

/** The feed of a bounded range, on demand (a regulator of the operator, or the operator itself). */
export async function exportFeed(
  ctx: ReportsCtx,
  actor: Actor,
  input: { operatorId?: string; from: string; to: string; format: FeedFormat },
): Promise<FeedExport> {
  const operatorId = readableOperator(actor, input.operatorId);
  const { from, to } = feedRange(input);
  const parts: string[] = [];
  let bytes = 0;
  const utf8 = new TextEncoder();
  for await (const text of encodeFeed(feedRecords(ctx, operatorId, from, to), input.format)) {
    bytes += utf8.encode(text).length;
    if (bytes > FEED_MAX_BYTES) {
      throw new DomainError(
        'UNPROCESSABLE',
        'FEED_TOO_LARGE',
        `the range holds more than ${FEED_MAX_BYTES} bytes of records: ask for a shorter range or read the daily files`,
        { maxBytes: FEED_MAX_BYTES },
      );
    }
    parts.push(text);
  }
  return { contentType: FEED_MEDIA_TYPES[input.format], body: parts.join('') };
}

async function* bytesOf(texts: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  const utf8 = new TextEncoder();
  for await (const text of texts) yield utf8.encode(text);
}

/**
 * The daily job's work for one operator and one UTC day: both files written (each a walk of the day,
 * streamed to the file port). Re-running it writes the same bytes: a past day's rounds, shoes as they
 * stood at its end and its movements do not change.
 */
export async function writeDailyFeed(
  ctx: ReportsCtx,
  files: FeedFiles,
  input: { operatorId: string; date: string },
): Promise<FeedFileWritten[]> {
  const day = utcDay(input.date);
  if (!day) throw new RangeError(`not a calendar day: ${input.date}`);
  const written: FeedFileWritten[] = [];
  for (const [name, format] of Object.entries(FEED_FILES)) {
    const records = feedRecords(ctx, input.operatorId, day.from, day.to);
    written.push(
      await files.write(
        feedFileKey(input.operatorId, input.date, name),
        FEED_MEDIA_TYPES[format],
        bytesOf(encodeFeed(records, format)),
      ),
    );
  }
  return written;
}

/** The day before `now`'s UTC day: what the daily job writes. */
export const yesterday = (now: Date): string => new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);

/** The most days one listing covers. */
const FEED_LIST_MAX_DAYS = 31;

export interface FeedFileView {
  date: string;
  name: FeedFileName;
  bytes: number;
  modifiedAt: string;
  contentType: string;
}

/** The daily files of an operator for the days [from, to] (dates, at most FEED_LIST_MAX_DAYS). */
export async function listFeedFiles(
  files: FeedFiles,
  actor: Actor,
  input: { operatorId?: string; from: string; to: string },
): Promise<{ operatorId: string; files: FeedFileView[] }> {
  const operatorId = readableOperator(actor, input.operatorId);
  const first = utcDay(input.from);
  const last = utcDay(input.to);
  if (!first || !last || first.from > last.from) {
    throw new DomainError(
      'INVALID',
      'FEED_RANGE_INVALID',
      'from and to must be days YYYY-MM-DD, from not after to',
    );
  }
  const days = (Date.parse(last.from) - Date.parse(first.from)) / DAY_MS + 1;
  if (days > FEED_LIST_MAX_DAYS) {
    throw new DomainError(
      'UNPROCESSABLE',
      'FEED_RANGE_TOO_LARGE',
      `a listing covers at most ${FEED_LIST_MAX_DAYS} days`,
      { maxDays: FEED_LIST_MAX_DAYS },
    );
  }
  const out: FeedFileView[] = [];
  for (let i = 0; i < days; i++) {
    const date = new Date(Date.parse(first.from) + i * DAY_MS).toISOString().slice(0, 10);
    const prefix = feedFileKey(operatorId, date, '');
    for (const f of await files.list(prefix)) {
      const name = f.key.slice(prefix.length) as FeedFileName;
      const format = FEED_FILES[name];
      if (!format) continue; // not a feed file (nothing else is written there)
      out.push({
        date,
        name,
        bytes: f.bytes,
        modifiedAt: f.modifiedAt,
        contentType: FEED_MEDIA_TYPES[format],
      });
    }
  }
  return { operatorId, files: out };
}

/** One daily file, as written. */
export async function getFeedFile(
  files: FeedFiles,
  actor: Actor,
  input: { operatorId?: string; date: string; name: string },
): Promise<FeedExport> {
  const operatorId = readableOperator(actor, input.operatorId);
  const missing = () => notFound('feedFile', input.name, `no feed file ${input.name} for ${input.date}`);
  if (!utcDay(input.date) || !(input.name in FEED_FILES)) throw missing();
  const file = await files.read(feedFileKey(operatorId, input.date, input.name), FEED_MAX_BYTES);
  if (!file) throw missing();
  if (file.body === undefined) {
    throw new DomainError(
      'UNPROCESSABLE',
      'FEED_TOO_LARGE',
      `the file holds ${file.bytes} bytes, more than an answer carries (${FEED_MAX_BYTES}): read it from the bucket`,
      { maxBytes: FEED_MAX_BYTES },
    );
  }
  return { contentType: file.contentType, body: new TextDecoder().decode(file.body) };
}
