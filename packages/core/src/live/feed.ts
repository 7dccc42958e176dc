/**
 * The table's live feed: the durable logs (the current shoe's audit chain, the table's own events)
 * projected into one sequence per table, numbered 0, 1, 2, … without gaps, then published.
 *
 * Why a projection run after each use case commits (docs/architecture.md, "Live events"): the event
 * exists durably before anyone is told (the chain is written in the use case's own transaction), the
 * numbering is one conditional counter (the feed's head: a concurrent projector's write fails and it
 * re-reads), and the projection is idempotent — whoever runs it next (the next call on the table)
 * appends what a crashed process left out, and re-publishes what a failed publish did not deliver
 * (`published` in the head). A publish failure never fails the call: the feed has the events, and a
 * client that sees a gap in seq, or reconnects, reads them back (GET /v1/tables/{tableId}/live?after=).
 */
import type {
  Actor,
  AuditRecord,
  LiveEventRecord,
  LiveFeedStore,
  LiveHeadRecord,
  LiveMessage,
  Store,
  TableEventRecord,
  TablePublisher,
  WriteOp,
} from '../shared';
import { invalid, TransactionCanceled } from '../shared';
import { loadTable } from '../tables';
import { payoutMessages } from './player';
import { auditDrafts, type LiveDraft, tableEventDraft } from './project';
import { tableTopic } from './topics';

export interface LiveDeps {
  store: Store & LiveFeedStore;
  publisher: TablePublisher;
  /** Told of a publish that failed (a metric, a log line); the events stay in the feed. */
  onPublishFailure?: (tableId: string, error: unknown) => void;
}

/** A feed read returns at most this many events; a client follows with `after` = the last seq. */
export const LIVE_PAGE_MAX = 500;
/** Conflicting projectors: re-read this often before leaving the rest to the next call. */
const MAX_CONFLICTS = 16;

const emptyHead = (tableId: string): LiveHeadRecord => ({ tableId, next: 0, audit: -1, tableEvents: 0 });

type Source = { audit: AuditRecord } | { tableEvent: TableEventRecord };

/** The next durable record not yet in the feed, the earlier of the two logs (undefined: none). */
async function nextSource(
  store: Store,
  table: { tableId: string; currentShoeId?: string; events?: number },
  head: LiveHeadRecord,
): Promise<{ source: Source; head: LiveHeadRecord } | undefined> {
  let h = head;
  let audit = h.shoeId ? await store.get('audit', { shoeId: h.shoeId, seq: h.audit + 1 }) : undefined;
  // The shoe's chain is done and the table has moved to another one: project that one from its start.
  if (!audit && table.currentShoeId !== undefined && table.currentShoeId !== h.shoeId) {
    h = { ...h, shoeId: table.currentShoeId, audit: -1 };
    audit = await store.get('audit', { shoeId: table.currentShoeId, seq: 0 });
  }
  const tableEvent =
    h.tableEvents < (table.events ?? 0)
      ? await store.get('tableEvent', { tableId: head.tableId, seq: h.tableEvents })
      : undefined;
  if (audit && (!tableEvent || eventTime(audit) <= tableEvent.at)) return { source: { audit }, head: h };
  if (tableEvent) return { source: { tableEvent }, head: h };
  return undefined;
}

const eventTime = (record: AuditRecord): string => (JSON.parse(record.event) as { at: string }).at;

/** Appends to the feed whatever the durable logs hold beyond it; returns the events this call appended. */
export async function catchUpFeed(deps: LiveDeps, tableId: string): Promise<LiveEventRecord[]> {
  const { store } = deps;
  const appended: LiveEventRecord[] = [];
  let conflicts = 0;
  while (conflicts < MAX_CONFLICTS) {
    const table = await store.get('table', { tableId });
    if (!table) return appended;
    const stored = await store.get('liveHead', { tableId });
    const head = stored ?? emptyHead(tableId);
    const next = await nextSource(store, table, head);
    if (!next) return appended;
    let drafts: LiveDraft[];
    let moved: LiveHeadRecord;
    if ('audit' in next.source) {
      drafts = await auditDrafts(store, table, next.source.audit);
      moved = { ...next.head, audit: next.source.audit.seq };
    } else {
      drafts = [tableEventDraft(next.source.tableEvent)];
      moved = { ...next.head, tableEvents: next.head.tableEvents + 1 };
    }
    const events = drafts.map((d, i): LiveEventRecord => ({ ...d, seq: head.next + i }));
    moved = { ...moved, next: head.next + events.length };
    const ops: WriteOp[] = events.map((item) => ({
      kind: 'put',
      entity: 'liveEvent',
      key: { tableId, seq: item.seq },
      item,
    }));
    ops.push(
      stored
        ? {
            kind: 'update',
            entity: 'liveHead',
            key: { tableId },
            set: {
              next: moved.next,
              audit: moved.audit,
              tableEvents: moved.tableEvents,
              ...(moved.shoeId !== undefined && { shoeId: moved.shoeId }),
            },
            expect: { next: head.next, audit: head.audit, tableEvents: head.tableEvents },
          }
        : {
            kind: 'put',
            entity: 'liveHead',
            key: { tableId },
            item: { ...moved, published: -1 },
          },
    );
    try {
      await store.transact(ops);
      appended.push(...events);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      conflicts += 1; // another projector appended first: re-read its head
    }
  }
  return appended;
}

const publicEvent = ({ operatorId: _op, ...event }: LiveEventRecord) => event;

/** The message of a live event on its table's topic. */
export const tableMessage = (event: LiveEventRecord): LiveMessage => ({
  topic: tableTopic(event.operatorId, event.tableId),
  payload: JSON.stringify(publicEvent(event)),
});

/**
 * After a use case on the table committed: the feed caught up, and every event not yet published
 * (this call's and any a failed publish left) handed to the broker with the payouts of the rounds
 * settled among them. Never throws for the broker: false when the publish failed (the feed has it).
 */
export async function publishTable(deps: LiveDeps, tableId: string): Promise<boolean> {
  await catchUpFeed(deps, tableId);
  const head = (await deps.store.get('liveHead', { tableId })) as
    | (LiveHeadRecord & { published?: number })
    | undefined;
  if (!head) return true;
  const published = head.published ?? -1;
  if (published >= head.next - 1) return true;
  const events = await deps.store.listLiveEvents(tableId, published, LIVE_PAGE_MAX);
  if (events.length === 0) return true;
  try {
    const messages = events.map(tableMessage);
    for (const e of events)
      if (e.type === 'ROUND_SETTLED' && e.roundId) messages.push(...(await payoutMessages(deps.store, e)));
    await deps.publisher.publish(messages);
  } catch (error) {
    deps.onPublishFailure?.(tableId, error);
    return false;
  }
  const last = events[events.length - 1]!.seq;
  try {
    await deps.store.transact([
      {
        kind: 'update',
        entity: 'liveHead',
        key: { tableId },
        set: { published: last },
        expect: { published: { lt: last } },
      },
    ]);
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error; // a concurrent publisher got further
  }
  return true;
}

/** GET /v1/tables/{tableId}/live: the table's events after `after` (-1: from the first), in order. */
export async function listLiveEvents(
  deps: { store: Store & LiveFeedStore },
  actor: Actor,
  input: { tableId: string; after?: number; limit?: number; tail?: number },
): Promise<{ tableId: string; events: Omit<LiveEventRecord, 'operatorId'>[]; next: number }> {
  const limit = input.limit ?? LIVE_PAGE_MAX;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIVE_PAGE_MAX)
    throw invalid('INVALID_INPUT', `limit is 1 to ${LIVE_PAGE_MAX}`);
  if (input.tail !== undefined && input.after !== undefined)
    throw invalid('INVALID_INPUT', 'give after (what follows a seq) or tail (the last events), not both');
  if (
    input.tail !== undefined &&
    (!Number.isSafeInteger(input.tail) || input.tail < 1 || input.tail > LIVE_PAGE_MAX)
  )
    throw invalid('INVALID_INPUT', `tail is 1 to ${LIVE_PAGE_MAX}`);
  // Tenancy and a player token's table scope, as every table read.
  const { tableId } = await loadTable(deps, actor, input.tableId, 'read');
  // tail: a client that joins reads where the table is now (the feed's head), not its whole history.
  const after =
    input.tail === undefined
      ? (input.after ?? -1)
      : Math.max(-1, ((await deps.store.get('liveHead', { tableId }))?.next ?? 0) - input.tail - 1);
  if (!Number.isSafeInteger(after) || after < -1)
    throw invalid('INVALID_INPUT', 'after is a sequence number (-1: from the first)');
  const events = (await deps.store.listLiveEvents(tableId, after, limit)).map(publicEvent);
  return { tableId, events, next: events.length > 0 ? events[events.length - 1]!.seq + 1 : after + 1 };
}
