/**
 * The Store port's list methods, once for both adapters: each names its entity's access path
 * (layout's ACCESS) and its order; an adapter only says how it runs a query (queryAll / queryPage).
 * A new list method goes here, not into each adapter.
 */
import { DomainError, type Entities, MAX_SEAMLESS_LIST_DAYS, type Page, type ReadOptions } from '@pyb/core';
import { ACCESS, type Access, daysOf, SEAMLESS_TX_SHARDS } from './layout';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

export interface PageRequest {
  limit: number;
  cursor?: string;
  order: 'asc' | 'desc';
}

export abstract class ListingStore {
  /** Every item of the access path, ascending, following LastEvaluatedKey to the end. */
  protected abstract queryAll<T>(access: Access): Promise<T[]>;
  /** One page of the access path; a cursor when DynamoDB would give a LastEvaluatedKey. */
  protected abstract queryPage<T>(access: Access, page: PageRequest): Promise<Page<T>>;

  listPositions(roundId: string) {
    return this.queryAll<Entities['position']>(ACCESS.positions(roundId));
  }

  listTables(operatorId: string, page: { limit: number; cursor?: string }) {
    return this.queryPage<Entities['table']>(ACCESS.tables(operatorId), { ...page, order: 'asc' });
  }

  listShoes(tableId: string, page: { limit: number; cursor?: string }) {
    return this.queryPage<Entities['shoe']>(ACCESS.shoes(tableId), { ...page, order: 'asc' });
  }

  listRounds(shoeId: string) {
    return this.queryAll<Entities['round']>(ACCESS.rounds(shoeId));
  }

  listPlayerPositions(
    operatorId: string,
    playerId: string,
    { openedIn, ...page }: { limit: number; cursor?: string; openedIn?: { from: string; to: string } },
  ) {
    return this.queryPage<Entities['position']>(ACCESS.playerPositions(operatorId, playerId, openedIn), {
      ...page,
      order: 'desc',
    });
  }

  listLedger(operatorId: string, playerId: string, page: PageRequest) {
    return this.queryPage<Entities['ledger']>(ACCESS.ledger(operatorId, playerId), page);
  }

  listDebts(shoeId: string) {
    return this.queryAll<Entities['debt']>(ACCESS.debts(shoeId));
  }

  listTableEvents(tableId: string) {
    return this.queryAll<Entities['tableEvent']>(ACCESS.tableEvents(tableId));
  }

  async listLiveEvents(tableId: string, after: number, limit: number) {
    const page = await this.queryPage<Entities['liveEvent']>(
      ACCESS.liveEvents(tableId, Math.max(-1, after)),
      {
        limit,
        order: 'asc',
      },
    );
    return page.items;
  }

  listOperatorEvents(operatorId: string) {
    return this.queryAll<Entities['operatorEvent']>(ACCESS.operatorEvents(operatorId));
  }

  listAudit(shoeId: string) {
    return this.queryAll<Entities['audit']>(ACCESS.audit(shoeId));
  }

  listSeats(tableId: string, options: ReadOptions = {}) {
    return this.queryAll<Entities['seat']>(ACCESS.seats(tableId, options.consistent === false));
  }

  listBatches(roundId: string) {
    return this.queryAll<Entities['batch']>(ACCESS.batches(roundId));
  }

  async listMovements(
    operatorId: string,
    range: { from: string; to: string },
    page: { limit: number; cursor?: string },
  ) {
    return this.queryPage<Entities['movement']>(ACCESS.movements(operatorId, range.from, range.to), {
      ...page,
      order: 'asc',
    });
  }

  listLedgerRange(operatorId: string, playerId: string, fromSeq: number, toSeq: number) {
    return this.queryAll<Entities['ledger']>(ACCESS.ledgerRange(operatorId, playerId, fromSeq, toSeq));
  }

  /**
   * An operator's seamless transactions of `[from, to)`: the (day, shard) partitions one after the
   * other, each day's shards queried at once. A page fills across days: it ends at `limit` items or
   * at the end of the period, never earlier because the period crosses midnight, so a period of
   * several days with fewer than `limit` transactions is one page with no cursor — the same answer at
   * 00:00:01 as at noon. The cursor is `<partition number>~<that partition's cursor>`; the inner
   * cursor is sealed to its partition, so a cursor pointed at another partition is CURSOR_INVALID.
   * A page (at most MAX_SEAMLESS_LIST_DAYS days × SEAMLESS_TX_SHARDS queries, a day's at once) stops
   * early only where DynamoDB does (1 MB read): then it has fewer items and a cursor.
   */
  async listSeamlessTxs(
    operatorId: string,
    range: { from: string; to: string },
    page: { limit: number; cursor?: string },
  ): Promise<Page<Entities['seamlessTx']>> {
    const { from, to } = range;
    if (!ISO.test(from) || !ISO.test(to) || Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(to)))
      throw new DomainError('INVALID', 'SEAMLESS_RANGE_INVALID', 'from and to are UTC timestamps (…Z)');
    const days = from < to ? daysOf(from, to) : [];
    // 31 days apart, not 31 UTC days touched: a period from noon touches one day more than from midnight.
    if (Date.parse(to) - Date.parse(from) > MAX_SEAMLESS_LIST_DAYS * 86_400_000)
      throw new DomainError(
        'INVALID',
        'SEAMLESS_RANGE_INVALID',
        `a period covers at most ${MAX_SEAMLESS_LIST_DAYS} days`,
      );
    const parts = days.length * SEAMLESS_TX_SHARDS;
    let at = 0;
    let inner: string | undefined;
    if (page.cursor !== undefined) {
      const [n = '', ...rest] = page.cursor.split('~');
      at = /^\d{1,6}$/.test(n) ? Number(n) : -1;
      inner = rest.length > 0 && rest.join('~') !== '' ? rest.join('~') : undefined;
      if (at < 0 || at >= parts || rest.length === 0)
        throw new DomainError('INVALID', 'CURSOR_INVALID', 'the cursor is not valid for this list');
    }
    const access = (n: number) =>
      ACCESS.seamlessTxs(
        operatorId,
        days[Math.floor(n / SEAMLESS_TX_SHARDS)]!,
        n % SEAMLESS_TX_SHARDS,
        from,
        to,
      );
    const query = (n: number, limit: number, cursor: string | undefined) =>
      this.queryPage<Entities['seamlessTx']>(access(n), {
        limit,
        order: 'asc',
        ...(cursor !== undefined && { cursor }),
      });
    const items: Entities['seamlessTx'][] = [];
    fill: while (at < parts && items.length < page.limit) {
      // The rest of this day's shards at once (the first from the cursor), each asked for the room left.
      const want = page.limit - items.length;
      const dayEnd = (Math.floor(at / SEAMLESS_TX_SHARDS) + 1) * SEAMLESS_TX_SHARDS;
      const first = at;
      const got = await Promise.all(
        Array.from({ length: dayEnd - first }, (_, i) => query(first + i, want, i === 0 ? inner : undefined)),
      );
      for (const shard of got) {
        const room = page.limit - items.length;
        if (shard.items.length > room) {
          // More than the page holds: this shard again for just the room, so its cursor is at that item.
          const exact = await query(at, room, inner);
          items.push(...exact.items);
          inner = exact.cursor;
          if (inner === undefined) at++;
          break fill;
        }
        items.push(...shard.items);
        if (shard.cursor !== undefined) {
          // The shard has more (its page was full, or DynamoDB stopped at 1 MB): go on from there.
          inner = shard.cursor;
          continue fill;
        }
        inner = undefined;
        at++;
        if (items.length >= page.limit) break fill;
      }
    }
    return { items, ...(at < parts && { cursor: `${at}~${inner ?? ''}` }) };
  }
}
