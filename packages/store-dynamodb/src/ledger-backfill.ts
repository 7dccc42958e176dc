/**
 * The ledger backfill (docs/data-model.md, *Migration*): entries written before the ledger moved to
 * `L#<seq>` sit whole at their key, `K#<scoped key>`, with `lseq` (the sort key of the old ledger
 * index). For each of them one transaction writes the entry at `L#<seq>` and turns its key into the
 * marker the current code writes (`entrySeq`), so lists see the entry and the index holds nothing.
 *
 * - Exact: the entry is put at `L#<seq>` only if that slot is empty or already holds this very entry
 *   (same `seq` and `hash`); the marker replaces the key's item only if it still is that entry. So a
 *   rerun, two runs at once, or a bet, a retry or a settlement committing meanwhile never doubles an
 *   entry, never overwrites another and never drops one: what does not match is left as it is and
 *   reported as a conflict.
 * - Resumable: the scan goes page by page; after each page the caller gets the scan's position
 *   (`cursor`) to save, and a later run starts from it. Starting over is safe too (done keys are
 *   markers, which the scan's filter skips).
 * - Dry run: reads only; counts the old entries and checks each one's `L#<seq>` slot.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  ScanCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { type Item, LEDGER_KEY_PREFIX, ledgerSortKey, MARKER_SEQ, strip } from './layout';

export interface BackfillOptions {
  /** The wallets table (TABLE_WALLETS of the deployment). */
  table: string;
  /** Read and report, write nothing. */
  dryRun?: boolean;
  /** Items the scan reads per page (DynamoDB's Limit, before the filter). Default 500. */
  pageSize?: number;
  /** Where a previous run stopped (the `cursor` of its last page). */
  cursor?: Item;
  /** Stop after this many pages (the run is resumed from the cursor it reports). */
  maxPages?: number;
  /** Called after every page, with the totals so far and the position to resume from. */
  onPage?: (progress: BackfillProgress) => void | Promise<void>;
}

export interface BackfillConflict {
  pk: string;
  sk: string;
  seq: unknown;
  reason: string;
}

export interface BackfillProgress {
  pages: number;
  /** Items the scan read (all kinds). */
  scanned: number;
  /** Entries still at their key in the old layout, found by this run. */
  found: number;
  /** Moved to `L#<seq>` with their marker (dry run: that would be). */
  migrated: number;
  /** Already moved when this run reached them (by a concurrent run): nothing written. */
  alreadyDone: number;
  conflicts: BackfillConflict[];
  /** Where to resume; undefined when the scan reached the end of the table. */
  cursor: Item | undefined;
  done: boolean;
}

/** How often a transaction DynamoDB cancels for a concurrent write (not a condition) is tried again. */
const ATTEMPTS = 5;

/** Runs the backfill (or the dry run) over the whole table, or `maxPages` pages of it. */
export async function backfillLedger(
  doc: DynamoDBDocumentClient,
  options: BackfillOptions,
): Promise<BackfillProgress> {
  const progress: BackfillProgress = {
    pages: 0,
    scanned: 0,
    found: 0,
    migrated: 0,
    alreadyDone: 0,
    conflicts: [],
    cursor: options.cursor,
    done: false,
  };
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: options.table,
        // A key's item in the old layout is the entry (it has `seq`); a current one is a marker.
        FilterExpression: 'begins_with(#sk, :k) AND attribute_not_exists(#marker)',
        ExpressionAttributeNames: { '#sk': 'sk', '#marker': MARKER_SEQ },
        ExpressionAttributeValues: { ':k': LEDGER_KEY_PREFIX },
        ConsistentRead: true,
        Limit: options.pageSize ?? 500,
        ...(progress.cursor && { ExclusiveStartKey: progress.cursor }),
      }),
    );
    for (const item of (page.Items ?? []) as Item[]) {
      progress.found++;
      const outcome = options.dryRun
        ? await inspect(doc, options.table, item)
        : await move(doc, options.table, item);
      if (outcome === 'migrated') progress.migrated++;
      else if (outcome === 'alreadyDone') progress.alreadyDone++;
      else
        progress.conflicts.push({
          pk: String(item.pk),
          sk: String(item.sk),
          seq: item.seq,
          reason: outcome.conflict,
        });
    }
    progress.pages++;
    progress.scanned += page.ScannedCount ?? 0;
    progress.cursor = page.LastEvaluatedKey as Item | undefined;
    progress.done = progress.cursor === undefined;
    await options.onPage?.(progress);
  } while (!progress.done && (options.maxPages === undefined || progress.pages < options.maxPages));
  return progress;
}

type Outcome = 'migrated' | 'alreadyDone' | { conflict: string };

/** An old entry's sequence number, or a conflict when the item is no entry this code knows. */
function seqOf(item: Item): number | { conflict: string } {
  const seq = item.seq;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1)
    return { conflict: 'the item at this key has no sequence number: not a ledger entry' };
  if (typeof item.hash !== 'string') return { conflict: 'the entry has no hash' };
  return seq;
}

const entryAt = (item: Item, seq: number) => ({ pk: item.pk, sk: ledgerSortKey(seq) });

/** The dry run's look at one old entry: would it move, is it there already, or does it conflict? */
async function inspect(doc: DynamoDBDocumentClient, table: string, item: Item): Promise<Outcome> {
  const seq = seqOf(item);
  if (typeof seq !== 'number') return seq;
  const slot = (
    await doc.send(new GetCommand({ TableName: table, Key: entryAt(item, seq), ConsistentRead: true }))
  ).Item as Item | undefined;
  if (slot && slot.hash !== item.hash) return { conflict: `L#${seq} holds another entry` };
  return 'migrated';
}

/** One transaction: the entry at `L#<seq>` (empty, or holding this entry) and its key made a marker. */
async function move(doc: DynamoDBDocumentClient, table: string, item: Item): Promise<Outcome> {
  const seq = seqOf(item);
  if (typeof seq !== 'number') return seq;
  const key = { pk: item.pk, sk: item.sk };
  for (let attempt = 0; ; attempt++) {
    try {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: { ...strip<Item>(item), ...entryAt(item, seq) },
                ConditionExpression: 'attribute_not_exists(pk) OR (#seq = :seq AND #hash = :hash)',
                ExpressionAttributeNames: { '#seq': 'seq', '#hash': 'hash' },
                ExpressionAttributeValues: { ':seq': seq, ':hash': item.hash },
              },
            },
            {
              Put: {
                TableName: table,
                Item: { ...key, [MARKER_SEQ]: seq },
                ConditionExpression: 'attribute_not_exists(#marker) AND #seq = :seq AND #hash = :hash',
                ExpressionAttributeNames: { '#marker': MARKER_SEQ, '#seq': 'seq', '#hash': 'hash' },
                ExpressionAttributeValues: { ':seq': seq, ':hash': item.hash },
              },
            },
          ],
        }),
      );
      return 'migrated';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [slot, marker] = (error.CancellationReasons ?? []).map((r) => r.Code);
      if (slot === 'ConditionalCheckFailed') return { conflict: `L#${seq} holds another entry` };
      if (marker === 'ConditionalCheckFailed') {
        // Moved meanwhile by another run (a marker naming this entry), or changed: look.
        const now = (await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true })))
          .Item as Item | undefined;
        return now?.[MARKER_SEQ] === seq
          ? 'alreadyDone'
          : { conflict: 'the item at this key changed while it was being moved' };
      }
      if (attempt + 1 >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt * Math.random()));
    }
  }
}
