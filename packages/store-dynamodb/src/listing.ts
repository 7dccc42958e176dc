/**
 * The Store port's list methods, once for both adapters: each names its entity's access path
 * (layout's ACCESS) and its order; an adapter only says how it runs a query (queryAll / queryPage).
 * A new list method goes here, not into each adapter.
 */
import type { Entities, Page, ReadOptions } from '@pyb/core';
import { ACCESS, type Access } from './layout';

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

  listPlayerPositions(operatorId: string, playerId: string, page: { limit: number; cursor?: string }) {
    return this.queryPage<Entities['position']>(ACCESS.playerPositions(operatorId, playerId), {
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

  listAudit(shoeId: string) {
    return this.queryAll<Entities['audit']>(ACCESS.audit(shoeId));
  }

  listSeats(tableId: string, options: ReadOptions = {}) {
    return this.queryAll<Entities['seat']>(ACCESS.seats(tableId, options.consistent === false));
  }

  listBatches(roundId: string) {
    return this.queryAll<Entities['batch']>(ACCESS.batches(roundId));
  }

  listLedgerRange(operatorId: string, playerId: string, fromSeq: number, toSeq: number) {
    return this.queryAll<Entities['ledger']>(ACCESS.ledgerRange(operatorId, playerId, fromSeq, toSeq));
  }
}
