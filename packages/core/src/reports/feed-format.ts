/**
 * The feed's two encodings (docs/regulators.md, "Regulator data feed"):
 * - NDJSON (`application/x-ndjson`): one JSON object per line, each with its `type`;
 * - CSV (`text/csv`, RFC 4180, CRLF): ONE file for every record type, with the fixed column set
 *   FEED_COLUMNS (the union of the record types' fields, `type` first): a record fills its own
 *   columns and leaves the others empty; nested values (`bets`, `results`, `counts`, `totals`, `discards`) are
 *   JSON in their cell.
 */
import type { FeedRecord } from './feed-records';

const FEED_FORMATS = ['ndjson', 'csv'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export const FEED_MEDIA_TYPES: Record<FeedFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8; header=present',
};

/** Every column of the CSV file, in order (a new field of a record is added at the end). */
export const FEED_COLUMNS = [
  'type',
  'operatorId',
  'tableId',
  'tableName',
  'shoeId',
  'shoeNumber',
  'roundId',
  'roundNumber',
  'playerId',
  'seat',
  'sessionId',
  'status',
  'currency',
  'at',
  'seq',
  'kind',
  'amount',
  'balanceBefore',
  'balanceAfter',
  'owedAfter',
  'reservedAfter',
  'bets',
  'stake',
  'calls',
  'payout',
  'commission',
  'commissionOwed',
  'results',
  'positions',
  'openedAt',
  'closedAt',
  'dealtAt',
  'settledAt',
  'voidedAt',
  'endedAt',
  'createdAt',
  'updatedAt',
  'winner',
  'playerCards',
  'playerTotal',
  'bankerCards',
  'bankerTotal',
  'voidReason',
  'voidNote',
  'decks',
  'commitment',
  'keyId',
  'closeReason',
  'serverSeed',
  'cutIndex',
  'reference',
  'prevHash',
  'hash',
  'from',
  'to',
  'counts',
  'totals',
  'event',
  'lockSource',
  'lockCause',
  'problems',
  'reason',
  'clears',
  'abandonedAt',
  'abandonReason',
  'discardBeaconRound',
  'discardedAt',
  'discards',
  'betType',
  'person',
  'byKeyId',
] as const;

const COLUMN_SET: ReadonlySet<string> = new Set(FEED_COLUMNS);

/** RFC 4180: a cell with a comma, a quote or a line break is quoted, its quotes doubled. */
function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvHeader = (): string => `${FEED_COLUMNS.join(',')}\r\n`;

function csvLine(record: FeedRecord): string {
  for (const name of Object.keys(record)) {
    if (!COLUMN_SET.has(name)) throw new Error(`feed record field ${name} has no CSV column`);
  }
  return `${FEED_COLUMNS.map((c) => cell(record[c])).join(',')}\r\n`;
}

const ndjsonLine = (record: FeedRecord): string => `${JSON.stringify(record)}\n`;

/** The file's text, a piece at a time: the header (CSV), then one line per record. */
export async function* encodeFeed(
  records: AsyncIterable<FeedRecord>,
  format: FeedFormat,
): AsyncGenerator<string> {
  if (format === 'csv') yield csvHeader();
  for await (const record of records) yield format === 'csv' ? csvLine(record) : ndjsonLine(record);
}
