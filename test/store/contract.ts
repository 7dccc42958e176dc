/**
 * The Store port contract: the same cases, run against every adapter (store/contract.*.test.ts):
 * the DynamoDB adapter on DynamoDB Local, and the in-memory Store. What the use cases rely on — and
 * what DynamoDB does where an adapter could easily differ (ordering, pages, refused requests, index
 * attributes written only by puts, values as stored).
 *
 * Each case works on its own ids, so one store instance per adapter serves the whole suite.
 */
import { randomBytes } from 'node:crypto';
import {
  DomainError,
  type LedgerEntry,
  type PositionRecord,
  type RoundRecord,
  type SeamlessTxRecord,
  type Store,
  TransactionCanceled,
  type WalletRecord,
  type WriteOp,
} from '@pyb/core';
import type { LogicalTable } from '@pyb/store-dynamodb/layout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

export interface StoreUnderTest {
  store: Store;
  /** Writes an item as it sits in the table (pk, sk and all): for items of an older layout. */
  putRaw(table: LogicalTable, item: Record<string, unknown>): Promise<void>;
  cleanup?(): Promise<void>;
}

const uid = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;

const wallet = (operatorId: string, playerId: string, balance: number): WalletRecord => ({
  operatorId,
  playerId,
  currency: 'EUR',
  balance,
  owed: 0,
  reserved: 0,
  available: balance,
  seq: 1,
  head: 'h',
  createdAt: 't',
  updatedAt: 't',
});

const ledgerEntry = (operatorId: string, playerId: string, seq: number): LedgerEntry => ({
  operatorId,
  playerId,
  seq,
  key: `c:${seq}`,
  requestHash: 'r',
  kind: 'CREDIT',
  currency: 'EUR',
  amount: 1,
  balanceBefore: seq - 1,
  balanceAfter: seq,
  owedAfter: 0,
  reservedAfter: 0,
  at: 't',
  prevHash: 'p',
  hash: 'h',
});

const seamlessTx = (
  operatorId: string,
  txId: string,
  createdAt: string,
  over: Partial<SeamlessTxRecord> = {},
): SeamlessTxRecord => ({
  txId,
  op: 'DEBIT',
  operatorId,
  playerId: 'player-1',
  currency: 'EUR',
  amount: 100,
  roundId: 'rnd_1',
  tableId: 'tbl_1',
  betRef: `rnd_1:player-1:${txId}`,
  state: 'DEBIT_PENDING',
  attempts: 0,
  createdAt,
  updatedAt: createdAt,
  ...over,
});

const round = (roundId: string, shoeId: string, number: number): RoundRecord => ({
  roundId,
  tableId: 'tbl',
  shoeId,
  operatorId: 'op',
  number,
  status: 'OPEN',
  seats: 7,
  gates: 4,
  tableRound: number,
  openedAt: 't',
  audit: { opened: number },
});

const position = (
  roundId: string,
  playerId: string,
  openedAt: string,
  operatorId = 'op',
): PositionRecord => ({
  roundId,
  playerId,
  operatorId,
  tableId: 'tbl',
  shoeId: 'shoe',
  openedAt,
  bets: { PLAYER: 100 },
  stake: 100,
  reserve: 0,
  seat: null,
  calls: 1,
  firstSeq: 1,
  lastSeq: 1,
  createdAt: 't',
  updatedAt: 't',
});

const putWallet = (w: WalletRecord): WriteOp => ({
  kind: 'put',
  entity: 'wallet',
  key: { operatorId: w.operatorId, playerId: w.playerId },
  item: w,
});

/**
 * A position put by a bet, then settled: settling is what enters it in the player index (a bet writes
 * no index entry; the update that sets `settledAt` writes the index keys from its operatorId and openedAt).
 */
const settledPosition = (p: PositionRecord): WriteOp[][] => [
  [{ kind: 'put', entity: 'position', key: { roundId: p.roundId, playerId: p.playerId }, item: p }],
  [
    {
      kind: 'update',
      entity: 'position',
      key: { roundId: p.roundId, playerId: p.playerId },
      set: { settledAt: 't', operatorId: p.operatorId, openedAt: p.openedAt },
    },
  ],
];

const run = async (store: Store, steps: WriteOp[][]) => {
  for (const ops of steps) await store.transact(ops);
};

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
}

const canceled = async (p: Promise<unknown>): Promise<TransactionCanceled> => {
  const error = await failure(p);
  expect(error).toBeInstanceOf(TransactionCanceled);
  return error as TransactionCanceled;
};

/** A request DynamoDB refuses (ValidationException): an error, but neither a refusal nor a domain error. */
const refusedRequest = async (p: Promise<unknown>) => {
  const error = await failure(p);
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(TransactionCanceled);
  expect(error).not.toBeInstanceOf(DomainError);
};

const cursorCode = async (p: Promise<unknown>) => ((await failure(p)) as DomainError).code;

const encode = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');

/**
 * A cursor is base64url(JSON of the page's last key), followed by '.' and a seal when the adapter seals
 * it (DynamoDB: an HMAC). `key` reads the key; `forge` swaps in another key and keeps the seal.
 */
const opened = (cursor: string) => {
  const [payload = '', ...seal] = cursor.split('.');
  return {
    key: JSON.parse(Buffer.from(payload, 'base64url').toString()),
    forge: (key: unknown) => [encode(key), ...seal].join('.'),
  };
};

export function storeContract(name: string, make: () => Promise<StoreUnderTest>): void {
  describe(`${name} honours the Store port`, () => {
    let store: Store;
    let subject: StoreUnderTest;
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      subject = await make();
      ({ store, cleanup } = subject);
    });
    afterAll(() => cleanup?.());
    const w = (playerId: string) => ({ operatorId: 'op', playerId });

    it('never overwrites with a put unless told what to expect', async () => {
      const key = w(uid('a'));
      await store.transact([putWallet(wallet('op', key.playerId, 100))]);
      expect((await canceled(store.transact([putWallet(wallet('op', key.playerId, 999))]))).reasons).toEqual([
        'CONDITION',
      ]);
      await canceled(
        store.transact([{ ...putWallet(wallet('op', key.playerId, 1)), expect: { balance: 5 } }]),
      );
      await store.transact([{ ...putWallet(wallet('op', key.playerId, 7)), expect: { balance: 100 } }]);
      expect((await store.get('wallet', key))?.balance).toBe(7);
      // An empty expectation is no condition at all: the put replaces the item.
      await store.transact([{ ...putWallet(wallet('op', key.playerId, 8)), expect: {} }]);
      expect((await store.get('wallet', key))?.balance).toBe(8);
    });

    it('applies a transaction all or nothing and names every operation that was refused', async () => {
      const a = w(uid('a'));
      const b = w(uid('b'));
      const c = w(uid('c'));
      await store.transact([
        putWallet(wallet('op', a.playerId, 100)),
        putWallet(wallet('op', c.playerId, 1)),
      ]);
      const tx = await canceled(
        store.transact([
          putWallet(wallet('op', b.playerId, 5)),
          { kind: 'update', entity: 'wallet', key: a, set: { balance: 0 }, expect: { seq: 2 } },
          { kind: 'check', entity: 'wallet', key: c, expect: { balance: 1 } },
          { kind: 'check', entity: 'wallet', key: w(uid('missing')), expect: {} },
        ]),
      );
      expect(tx.reasons).toEqual([undefined, 'CONDITION', undefined, 'CONDITION']);
      expect(tx.failed(1)).toBe(true);
      expect(tx.transient).toBe(false);
      expect(await store.get('wallet', b)).toBeUndefined();
      expect((await store.get('wallet', a))?.balance).toBe(100);
      // A single refused operation (sent without a transaction by the DynamoDB adapter) reads the same.
      expect(
        (
          await canceled(
            store.transact([{ kind: 'update', entity: 'wallet', key: a, set: { x: 1 }, expect: { seq: 9 } }]),
          )
        ).reasons,
      ).toEqual(['CONDITION']);
    });

    it('evaluates conditions: absent, present, equal (same type only), membership, comparisons, dotted paths', async () => {
      const key = w(uid('c'));
      await store.transact([
        putWallet({ ...wallet('op', key.playerId, 10), nested: { count: 0, n: null } } as never),
      ]);
      const ok = async (expect: Record<string, unknown>) => {
        await store.transact([{ kind: 'check', entity: 'wallet', key, expect: expect as never }]);
        return true;
      };
      const no = async (expect: Record<string, unknown>) => {
        await canceled(store.transact([{ kind: 'check', entity: 'wallet', key, expect: expect as never }]));
        return true;
      };
      expect(await ok({ balance: 10, currency: 'EUR', missing: null, 'nested.count': 'exists' })).toBe(true);
      expect(
        await ok({
          balance: { lt: 11 },
          seq: { lte: 1 },
          owed: { gte: 0 },
          currency: { in: ['USD', 'EUR'] },
        }),
      ).toBe(true);
      expect(await no({ balance: '10' })).toBe(true); // a string is not the number 10
      expect(await no({ currency: { in: ['USD', 'GBP'] } })).toBe(true);
      expect(await no({ balance: { gte: 11 } })).toBe(true);
      expect(await no({ missing: { gte: 0 } })).toBe(true); // a comparison with nothing is false
      expect(await no({ currency: { lt: 5 } })).toBe(true); // ...and with another type
      expect(await no({ 'missing.deeper': 'exists' })).toBe(true);
      expect(await no({ 'balance.deeper': 'exists' })).toBe(true);
      // An attribute holding null exists (DynamoDB's NULL type); only a missing one is absent.
      expect(await ok({ 'nested.n': 'exists' })).toBe(true);
      expect(await no({ 'nested.n': null })).toBe(true);
    });

    it('updates: set, remove with null, skip undefined, add from 0, append to a new list, dotted paths', async () => {
      const key = w(uid('u'));
      await store.transact([putWallet(wallet('op', key.playerId, 10))]);
      await store.transact([{ kind: 'update', entity: 'wallet', key, set: { nested: { count: 0 } } }]);
      await store.transact([
        {
          kind: 'update',
          entity: 'wallet',
          key,
          add: { balance: 5, 'nested.count': 2, fresh: 3 },
          set: { updatedAt: 'u', head: null, untouched: undefined, 'nested.flag': true },
          append: { log: ['a'] },
        },
      ]);
      await store.transact([{ kind: 'update', entity: 'wallet', key, append: { log: ['b', 'c'] } }]);
      const read = (await store.get('wallet', key)) as unknown as Record<string, unknown>;
      expect(read.balance).toBe(15);
      expect(read.nested).toEqual({ count: 2, flag: true });
      expect(read.fresh).toBe(3);
      expect(read.updatedAt).toBe('u');
      expect('head' in read).toBe(false);
      expect('untouched' in read).toBe(false);
      expect(read.log).toEqual(['a', 'b', 'c']);
      // An update never creates an item unless asked to.
      expect(
        (
          await canceled(
            store.transact([{ kind: 'update', entity: 'wallet', key: w(uid('zz')), set: { balance: 1 } }]),
          )
        ).reasons,
      ).toEqual(['CONDITION']);
    });

    it('upserts create the item from set and add, and put no index attributes on it', async () => {
      const shoeId = uid('shoe');
      const key = { shoeId, operatorId: 'op', playerId: uid('p') };
      const upsert = (owed: number): WriteOp => ({
        kind: 'update',
        entity: 'debt',
        key,
        upsert: true,
        set: { ...key, updatedAt: 't' },
        add: { owed, collected: 0, collections: 0 },
      });
      await store.transact([upsert(5)]);
      await store.transact([upsert(7)]);
      expect(await store.get('debt', key)).toEqual({
        ...key,
        updatedAt: 't',
        owed: 12,
        collected: 0,
        collections: 0,
      });
      expect(await store.listDebts(shoeId)).toHaveLength(1);

      // A position made by an upsert is in its round's partition but not in the player's index.
      const roundId = uid('r');
      const playerId = uid('p');
      await store.transact([
        {
          kind: 'update',
          entity: 'position',
          key: { roundId, playerId },
          upsert: true,
          set: { ...position(roundId, playerId, '2026-01-01') },
        },
      ]);
      expect((await store.listPositions(roundId)).map((p) => p.playerId)).toEqual([playerId]);
      expect((await store.listPlayerPositions('op', playerId, { limit: 10 })).items).toEqual([]);
    });

    it('refuses what DynamoDB refuses as a bad request, and writes nothing', async () => {
      const key = w(uid('v'));
      await store.transact([putWallet(wallet('op', key.playerId, 10))]);
      const other = w(uid('v'));
      // Two operations on one item. (Their conditions hold: when one fails, DynamoDB Local answers
      // with the refusal instead; DynamoDB refuses the request before it evaluates any condition.)
      await refusedRequest(
        store.transact([
          putWallet(wallet('op', other.playerId, 1)),
          { kind: 'update', entity: 'wallet', key, add: { seq: 1 } },
          { kind: 'check', entity: 'wallet', key, expect: { balance: 10 } },
        ]),
      );
      expect(await store.get('wallet', other)).toBeUndefined();
      // A dotted path under a map that is not there.
      await refusedRequest(store.transact([{ kind: 'update', entity: 'wallet', key, set: { 'nope.x': 1 } }]));
      // Overlapping paths in one update.
      await refusedRequest(
        store.transact([{ kind: 'update', entity: 'wallet', key, set: { balance: 1 }, add: { balance: 1 } }]),
      );
      // Adding to a string.
      await refusedRequest(store.transact([{ kind: 'update', entity: 'wallet', key, add: { currency: 1 } }]));
      expect((await store.get('wallet', key))?.balance).toBe(10);
    });

    it('refuses an item over 400 KB and accepts one just under', async () => {
      const key = w(uid('big'));
      await refusedRequest(
        store.transact([putWallet({ ...wallet('op', key.playerId, 1), blob: 'x'.repeat(410_000) } as never)]),
      );
      expect(await store.get('wallet', key)).toBeUndefined();
      await store.transact([
        putWallet({ ...wallet('op', key.playerId, 1), blob: 'x'.repeat(395_000) } as never),
      ]);
      await refusedRequest(
        store.transact([{ kind: 'update', entity: 'wallet', key, append: { list: ['y'.repeat(20_000)] } }]),
      );
    });

    it('stores values as DynamoDB does: copies, undefined removed (also in lists), null kept', async () => {
      const key = w(uid('s'));
      const item = {
        ...wallet('op', key.playerId, 10),
        extra: { a: undefined, b: null, list: [1, undefined, 2] },
      };
      await store.transact([putWallet(item as never)]);
      item.extra.list.push(3);
      const read = (await store.get('wallet', key)) as unknown as { extra: Record<string, unknown> };
      expect(read.extra).toEqual({ b: null, list: [1, 2] });
      (read.extra.list as number[]).push(4);
      expect(((await store.get('wallet', key)) as unknown as typeof read).extra.list).toEqual([1, 2]);
    });

    it("lists a round's positions by player id in byte order, strongly consistent", async () => {
      const roundId = uid('r');
      const players = ['b', 'B', 'a', '_x', '-y', '.z', ':w', '9', 'a0', 'A'];
      for (const p of players) {
        await store.transact([
          { kind: 'put', entity: 'position', key: { roundId, playerId: p }, item: position(roundId, p, 't') },
        ]);
      }
      const bytewise = [...players].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      expect((await store.listPositions(roundId)).map((p) => p.playerId)).toEqual(bytewise);
    });

    it("lists an operator's tables by creation time, a page at a time", async () => {
      const operatorId = uid('op');
      const table = (tableId: string, createdAt: string) => ({
        tableId,
        operatorId,
        name: tableId,
        config: {} as never,
        createdAt,
        shoes: 0,
      });
      for (const [id, at] of [
        ['t3', '2026-12-01T03:00:00.000Z'],
        ['t1', '2026-12-01T01:00:00.000Z'],
        ['t2', '2026-12-01T02:00:00.000Z'],
      ] as const) {
        const tableId = `${operatorId}-${id}`;
        await store.transact([{ kind: 'put', entity: 'table', key: { tableId }, item: table(tableId, at) }]);
      }
      const first = await store.listTables(operatorId, { limit: 2 });
      expect(first.items.map((t) => t.name)).toEqual([`${operatorId}-t1`, `${operatorId}-t2`]);
      const rest = await store.listTables(operatorId, { limit: 2, cursor: first.cursor! });
      expect(rest.items.map((t) => t.name)).toEqual([`${operatorId}-t3`]);
      expect((await store.listTables(uid('op'), { limit: 5 })).items).toEqual([]);
    });

    it("lists a shoe's rounds by their number as written by the put (an update does not move them)", async () => {
      const shoeId = uid('shoe');
      for (const n of [10, 2, 1, 9]) {
        await store.transact([
          {
            kind: 'put',
            entity: 'round',
            key: { roundId: `${shoeId}-r${n}` },
            item: round(`${shoeId}-r${n}`, shoeId, n),
          },
        ]);
      }
      expect((await store.listRounds(shoeId)).map((r) => r.number)).toEqual([1, 2, 9, 10]);
      await store.transact([
        { kind: 'update', entity: 'round', key: { roundId: `${shoeId}-r1` }, set: { number: 99 } },
      ]);
      expect((await store.listRounds(shoeId)).map((r) => r.number)).toEqual([99, 2, 9, 10]);
    });

    it('pages a ledger by sequence number both ways; a page that stops at its limit has a cursor', async () => {
      const playerId = uid('l');
      // Keys that sort differently from the sequence numbers (c:10 < c:2): the list is in number order.
      for (const seq of [3, 1, 10, 2, 4]) {
        await store.transact([
          {
            kind: 'put',
            entity: 'ledger',
            key: { operatorId: 'op', playerId, key: `c:${seq}` },
            item: ledgerEntry('op', playerId, seq),
          },
        ]);
      }
      await store.transact([putWallet(wallet('op', playerId, 5))]); // the wallet shares the partition; not listed
      const desc1 = await store.listLedger('op', playerId, { limit: 2, order: 'desc' });
      expect(desc1.items.map((e) => e.seq)).toEqual([10, 4]);
      const desc2 = await store.listLedger('op', playerId, {
        limit: 3,
        order: 'desc',
        cursor: desc1.cursor!,
      });
      expect(desc2.items.map((e) => e.seq)).toEqual([3, 2, 1]);
      // It stopped at its limit: a cursor, and the next page is empty without one (DynamoDB's way).
      expect(desc2.cursor).toBeDefined();
      const desc3 = await store.listLedger('op', playerId, {
        limit: 3,
        order: 'desc',
        cursor: desc2.cursor!,
      });
      expect(desc3).toEqual({ items: [] });
      const asc = await store.listLedger('op', playerId, { limit: 10, order: 'asc' });
      expect(asc.items.map((e) => e.seq)).toEqual([1, 2, 3, 4, 10]);
      expect(asc.cursor).toBeUndefined();
      const asc2 = await store.listLedger('op', playerId, {
        limit: 2,
        order: 'asc',
        cursor: (await store.listLedger('op', playerId, { limit: 2, order: 'asc' })).cursor!,
      });
      expect(asc2.items.map((e) => e.seq)).toEqual([3, 4]);
    });

    it('finds a ledger entry by its key; a used key refuses another entry, and a refused transaction writes neither', async () => {
      const playerId = uid('l');
      const key = { operatorId: 'op', playerId, key: 'c:k1' };
      const put = (seq: number, k = key): WriteOp => ({
        kind: 'put',
        entity: 'ledger',
        key: k,
        item: { ...ledgerEntry('op', playerId, seq), key: k.key },
      });
      expect(await store.get('ledger', key)).toBeUndefined();
      await store.transact([put(1)]);
      expect(await store.get('ledger', key)).toEqual({ ...ledgerEntry('op', playerId, 1), key: 'c:k1' });
      // The key is taken whatever the sequence number: the refusal names the ledger op.
      const reused = await store.transact([putWallet(wallet('op', playerId, 5)), put(2)]).catch((e) => e);
      expect(reused).toBeInstanceOf(TransactionCanceled);
      expect((reused as TransactionCanceled).failed(1)).toBe(true);
      expect((reused as TransactionCanceled).failed(0)).toBe(false);
      expect(await store.get('wallet', { operatorId: 'op', playerId })).toBeUndefined();
      // A sequence number is taken whatever the key.
      const other = { ...key, key: 'c:k2' };
      expect(await store.transact([put(1, other)]).catch((e) => e)).toBeInstanceOf(TransactionCanceled);
      expect(await store.get('ledger', other)).toBeUndefined();
      // Refused by another op: neither the entry nor its key is written.
      const gone = await store
        .transact([
          put(2, other),
          { kind: 'check', entity: 'wallet', key: { operatorId: 'op', playerId }, expect: {} },
        ])
        .catch((e) => e);
      expect((gone as TransactionCanceled).failed(1)).toBe(true);
      expect(await store.get('ledger', other)).toBeUndefined();
      expect(
        (await store.listLedger('op', playerId, { limit: 10, order: 'asc' })).items.map((e) => e.seq),
      ).toEqual([1]);
      await store.transact([put(2, other)]);
      expect((await store.get('ledger', other))?.seq).toBe(2);
      expect((await store.listLedgerRange('op', playerId, 1, 2)).map((e) => e.key)).toEqual(['c:k1', 'c:k2']);
    });

    it('reads an entry stored whole at its key (the layout before `L#<seq>`) by that key, and keeps the key used', async () => {
      const playerId = uid('l');
      const old = { ...ledgerEntry('op', playerId, 1), key: 'c:old' };
      await subject.putRaw('wallets', { ...old, pk: `W#op#${playerId}`, sk: 'K#c:old', lseq: 1 });
      const key = { operatorId: 'op', playerId, key: 'c:old' };
      expect(await store.get('ledger', key)).toEqual(old);
      const reused = await store
        .transact([{ kind: 'put', entity: 'ledger', key, item: { ...old, seq: 2 } }])
        .catch((e) => e);
      expect(reused).toBeInstanceOf(TransactionCanceled);
    });

    it('refuses a cursor that is not one of this list, whatever is in it', async () => {
      const playerId = uid('l');
      for (const seq of [1, 2, 3]) {
        await store.transact([
          {
            kind: 'put',
            entity: 'ledger',
            key: { operatorId: 'op', playerId, key: `c:${seq}` },
            item: ledgerEntry('op', playerId, seq),
          },
        ]);
      }
      const page = await store.listLedger('op', playerId, { limit: 1, order: 'desc' });
      const list = (cursor: string) => store.listLedger('op', playerId, { limit: 2, order: 'desc', cursor });
      expect(
        await cursorCode(
          store.listLedger('op', 'someone-else', { limit: 2, order: 'desc', cursor: page.cursor! }),
        ),
      ).toBe('CURSOR_INVALID');
      expect(await cursorCode(list('garbage'))).toBe('CURSOR_INVALID');
      const { key: good, forge } = opened(page.cursor!);
      for (const altered of [
        { ...good, extra: 1 },
        { ...good, sk: String(good.sk).replace('L#', 'K#') },
        { ...good, sk: 1 },
        { ...good, pk: 'W#op#someone-else' },
        [1, 2],
      ]) {
        expect(await cursorCode(list(forge(altered))), JSON.stringify(altered)).toBe('CURSOR_INVALID');
        expect(await cursorCode(list(encode(altered))), JSON.stringify(altered)).toBe('CURSOR_INVALID');
      }
      expect((await list(page.cursor!)).items.map((e) => e.seq)).toEqual([2, 1]);

      // The player index: the index's partition is what counts, not the table key of the item.
      const recall = await store.listPlayerPositions('op', playerId, { limit: 1 });
      expect(recall.items).toEqual([]);
      const roundId = uid('r');
      await run(store, settledPosition(position(roundId, playerId, 't1')));
      await run(store, settledPosition(position(`${roundId}x`, playerId, 't2')));
      const first = await store.listPlayerPositions('op', playerId, { limit: 1 });
      const { key, forge: forgeRecall } = opened(first.cursor!);
      expect(
        await cursorCode(
          store.listPlayerPositions('op', playerId, {
            limit: 1,
            cursor: forgeRecall({ ...key, gsi1pk: 'PLAYER#other#x' }),
          }),
        ),
      ).toBe('CURSOR_INVALID');
      expect(
        await cursorCode(store.listPlayerPositions('other', playerId, { limit: 1, cursor: first.cursor! })),
      ).toBe('CURSOR_INVALID');
    });

    it("pages a player's positions newest first (by when the round opened)", async () => {
      const playerId = uid('p');
      const opened = ['2026-01-03T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'];
      for (const [i, at] of opened.entries()) {
        const roundId = `${playerId}-r${i}`;
        await run(store, settledPosition(position(roundId, playerId, at)));
      }
      // Another operator's player with the same id is someone else.
      await run(store, settledPosition(position(`${playerId}-x`, playerId, '2027', 'op2')));
      const p1 = await store.listPlayerPositions('op', playerId, { limit: 2 });
      expect(p1.items.map((p) => p.openedAt)).toEqual([opened[0], opened[2]]);
      const p2 = await store.listPlayerPositions('op', playerId, { limit: 2, cursor: p1.cursor! });
      expect(p2.items.map((p) => p.openedAt)).toEqual([opened[1]]);
      expect(p2.cursor).toBeUndefined();
    });

    it('puts a position into the player index when it is settled or refunded, not when a bet puts it', async () => {
      const playerId = uid('p');
      const [open, settled, refunded] = ['o', 's', 'r'].map((x) => uid(x));
      await run(store, [
        [
          {
            kind: 'put',
            entity: 'position',
            key: { roundId: open!, playerId },
            item: position(open!, playerId, '1'),
          },
        ],
        ...settledPosition(position(settled!, playerId, '2')),
        [
          {
            kind: 'put',
            entity: 'position',
            key: { roundId: refunded!, playerId },
            item: position(refunded!, playerId, '3'),
          },
        ],
        [
          {
            kind: 'update',
            entity: 'position',
            key: { roundId: refunded!, playerId },
            set: { refundedAt: 't', operatorId: 'op', openedAt: '3' },
          },
        ],
      ]);
      // A raise (an update that neither settles nor refunds) adds nothing to the index.
      await store.transact([
        {
          kind: 'update',
          entity: 'position',
          key: { roundId: open!, playerId },
          add: { stake: 5, calls: 1 },
        },
      ]);
      const page = await store.listPlayerPositions('op', playerId, { limit: 10 });
      expect(page.items.map((p) => p.roundId)).toEqual([refunded, settled]);
      // Settling without the index keys is a bug of the caller, refused before anything is written.
      await expect(
        store.transact([
          { kind: 'update', entity: 'position', key: { roundId: open!, playerId }, set: { settledAt: 't' } },
        ]),
      ).rejects.toThrow(/operatorId and openedAt/);
      expect((await store.get('position', { roundId: open!, playerId }))?.settledAt).toBeUndefined();
    });

    it("lists a table's seats by number, a round's finished batches, and a ledger's range of sequence numbers", async () => {
      const tableId = uid('t');
      for (const seat of [10, 2, 1]) {
        await store.transact([
          {
            kind: 'put',
            entity: 'seat',
            key: { tableId, seat },
            item: { tableId, operatorId: 'op', seat, playerId: `p${seat}`, lastRound: 1, updatedAt: 't' },
          },
        ]);
      }
      // Another table's seat and a gate of a round are not seats of this table.
      await store.transact([
        {
          kind: 'put',
          entity: 'seat',
          key: { tableId: `${tableId}x`, seat: 3 },
          item: { tableId: `${tableId}x`, operatorId: 'op', seat: 3, updatedAt: 't' },
        },
      ]);
      expect((await store.listSeats(tableId)).map((s) => s.seat)).toEqual([1, 2, 10]);
      expect((await store.listSeats(tableId, { consistent: false })).map((s) => s.seat)).toEqual([1, 2, 10]);

      const roundId = uid('r');
      await store.transact([
        {
          kind: 'put',
          entity: 'gate',
          key: { roundId, gate: 0 },
          item: { roundId, gate: 0, status: 'OPEN' },
        },
        ...[12, 0, 3].map(
          (batch): WriteOp => ({
            kind: 'put',
            entity: 'batch',
            key: { roundId, batch },
            item: { roundId, batch, kind: 'settle', positions: 50, doneAt: 't' },
          }),
        ),
      ]);
      expect((await store.listBatches(roundId)).map((b) => b.batch)).toEqual([0, 3, 12]);
      expect(await store.listBatches(uid('r'))).toEqual([]);

      const playerId = uid('l');
      for (const seq of [1, 2, 3, 10, 11]) {
        await store.transact([
          {
            kind: 'put',
            entity: 'ledger',
            key: { operatorId: 'op', playerId, key: `c:${seq}` },
            item: ledgerEntry('op', playerId, seq),
          },
        ]);
      }
      await store.transact([putWallet(wallet('op', playerId, 5))]); // same partition, not an entry
      expect((await store.listLedgerRange('op', playerId, 2, 10)).map((e) => e.seq)).toEqual([2, 3, 10]);
      expect((await store.listLedgerRange('op', playerId, 3, 3)).map((e) => e.seq)).toEqual([3]);
      expect(await store.listLedgerRange('op', playerId, 4, 9)).toEqual([]);
      expect(await store.listLedgerRange('op', 'someone-else', 1, 11)).toEqual([]);
    });

    it("lists an operator's movements outside rounds by time within a UTC day, a page at a time", async () => {
      const operatorId = uid('op');
      const put = (playerId: string, seq: number, at: string): WriteOp => ({
        kind: 'put',
        entity: 'movement',
        key: { operatorId, playerId, at, seq },
        item: { ...ledgerEntry(operatorId, playerId, seq), at },
      });
      const day = '2026-12-01';
      await store.transact([
        put('b', 2, `${day}T10:00:00.000Z`),
        put('a', 7, `${day}T10:00:00.000Z`),
        put('a', 1, `${day}T00:00:00.000Z`),
        put('a', 9, `${day}T23:59:59.999Z`),
        put('c', 3, '2026-12-02T00:00:00.000Z'), // the next day: another partition
        put('c', 4, '2026-11-30T23:59:59.999Z'),
      ]);
      const other: WriteOp = {
        kind: 'put',
        entity: 'movement',
        key: { operatorId: `${operatorId}x`, playerId: 'x', at: `${day}T10:00:00.000Z`, seq: 1 },
        item: { ...ledgerEntry(`${operatorId}x`, 'x', 1), at: `${day}T10:00:00.000Z` },
      };
      await store.transact([other]); // another operator's
      const whole = { from: `${day}T00:00:00.000Z`, to: '2026-12-02T00:00:00.000Z' };
      const all = await store.listMovements(operatorId, whole, { limit: 10 });
      // By time, then player id, then sequence number; [from, to): the next midnight is not in it.
      expect(all.items.map((e) => `${e.playerId}${e.seq}`)).toEqual(['a1', 'a7', 'b2', 'a9']);
      expect(all.cursor).toBeUndefined();
      const first = await store.listMovements(operatorId, whole, { limit: 2 });
      expect(first.items.map((e) => e.seq)).toEqual([1, 7]);
      const second = await store.listMovements(operatorId, whole, { limit: 2, cursor: first.cursor! });
      expect(second.items.map((e) => e.seq)).toEqual([2, 9]);
      // The range's start is in it, its end is not.
      const hour = { from: `${day}T10:00:00.000Z`, to: `${day}T23:59:59.999Z` };
      expect((await store.listMovements(operatorId, hour, { limit: 10 })).items.map((e) => e.seq)).toEqual([
        7, 2,
      ]);
      expect(all.items[0]).toEqual({ ...ledgerEntry(operatorId, 'a', 1), at: `${day}T00:00:00.000Z` });
      // A cursor of one range is not one of another operator's.
      expect(
        await cursorCode(store.listMovements(`${operatorId}x`, whole, { limit: 2, cursor: first.cursor! })),
      ).toBe('CURSOR_INVALID');
      // More than one UTC day is not one partition: refused, not half-listed.
      await expect(
        store.listMovements(operatorId, { from: whole.from, to: '2026-12-02T00:00:00.001Z' }, { limit: 1 }),
      ).rejects.toThrow(RangeError);
    });

    it("lists a table's own events in order, apart from its shoes' chains; an event is written once", async () => {
      const tableId = uid('tbl');
      const event = (seq: number) => ({
        tableId,
        operatorId: 'op',
        seq,
        type: 'TABLE_UNLOCKED' as const,
        at: '2026-12-01T00:00:00.000Z',
        reason: `r${seq}`,
      });
      expect(await store.listTableEvents(tableId)).toEqual([]);
      for (const seq of [1, 0, 10]) {
        await store.transact([
          { kind: 'put', entity: 'tableEvent', key: { tableId, seq }, item: event(seq) },
        ]);
      }
      expect((await store.listTableEvents(tableId)).map((e) => [e.seq, e.reason])).toEqual([
        [0, 'r0'],
        [1, 'r1'],
        [10, 'r10'],
      ]);
      await canceled(
        store.transact([{ kind: 'put', entity: 'tableEvent', key: { tableId, seq: 1 }, item: event(1) }]),
      );
      // A shoe's chain under the same id is another partition.
      expect(await store.listAudit(tableId)).toEqual([]);
      expect(await store.listTableEvents(uid('tbl'))).toEqual([]);
    });

    it("lists an operator's wallet-mode changes in order, apart from its tables; a change is written once", async () => {
      const operatorId = uid('opw');
      const event = (seq: number) => ({
        operatorId,
        seq,
        type: 'WALLET_SET' as const,
        at: '2026-12-01T00:00:00.000Z',
        by: { role: 'admin', operatorId: 'platform', keyId: `k${seq}` },
        from: { walletMode: 'hosted' as const },
        to: { walletMode: 'seamless' as const, seamless: { baseUrl: 'https://w.example', secretRef: 's' } },
      });
      expect(await store.listOperatorEvents(operatorId)).toEqual([]);
      for (const seq of [1, 0, 10]) {
        await store.transact([
          { kind: 'put', entity: 'operatorEvent', key: { operatorId, seq }, item: event(seq) },
        ]);
      }
      expect(await store.listOperatorEvents(operatorId)).toEqual([event(0), event(1), event(10)]);
      await canceled(
        store.transact([
          { kind: 'put', entity: 'operatorEvent', key: { operatorId, seq: 1 }, item: event(1) },
        ]),
      );
      // A table's events under the same id are another partition.
      expect(await store.listTableEvents(operatorId)).toEqual([]);
      expect(await store.listOperatorEvents(uid('opw'))).toEqual([]);
    });

    it("lists a shoe's audit chain in order, its head, and the shoe's debts", async () => {
      const shoeId = uid('shoe');
      expect(await store.auditHead(shoeId)).toBeUndefined();
      for (const seq of [0, 2, 1, 11]) {
        await store.transact([
          {
            kind: 'put',
            entity: 'audit',
            key: { shoeId, seq },
            item: { shoeId, seq, type: 'ROUND_OPENED', event: '{}', prevHash: 'p', hash: `h${seq}` },
          },
        ]);
      }
      expect((await store.listAudit(shoeId)).map((a) => a.seq)).toEqual([0, 1, 2, 11]);
      expect((await store.auditHead(shoeId))?.hash).toBe('h11');
      await canceled(
        store.transact([
          {
            kind: 'put',
            entity: 'audit',
            key: { shoeId, seq: 2 },
            item: { shoeId, seq: 2, type: 'ROUND_OPENED', event: '{}', prevHash: 'p', hash: 'x' },
          },
        ]),
      );
      for (const p of ['b', 'a']) {
        await store.transact([
          {
            kind: 'put',
            entity: 'debt',
            key: { shoeId, operatorId: 'op', playerId: p },
            item: {
              shoeId,
              operatorId: 'op',
              playerId: p,
              owed: 1,
              collected: 0,
              collections: 0,
              updatedAt: 't',
            },
          },
        ]);
      }
      expect((await store.listDebts(shoeId)).map((d) => d.playerId)).toEqual(['a', 'b']);
    });

    it('lets concurrent conditional writes on one item succeed exactly once', async () => {
      const key = w(uid('race'));
      await store.transact([putWallet(wallet('op', key.playerId, 0))]);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          store.transact([
            { kind: 'update', entity: 'wallet', key, set: { seq: 2, winner: i }, expect: { seq: 1 } },
          ]),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(TransactionCanceled);
      }
    });
    it('keeps an operator record and a seamless transaction by id; a state moves only from the state expected', async () => {
      const operatorId = uid('op');
      await store.transact([
        {
          kind: 'put',
          entity: 'operator',
          key: { operatorId },
          item: {
            operatorId,
            walletMode: 'seamless',
            seamless: { baseUrl: 'http://127.0.0.1:4100/pyb', secretRef: 'env:WALLET_SECRET' },
            createdAt: 't',
            updatedAt: 't',
          },
        },
      ]);
      expect((await store.get('operator', { operatorId }))?.walletMode).toBe('seamless');
      const txId = `dbt_${uid('x')}0000000000`;
      const tx = seamlessTx(operatorId, txId, '2026-12-01T10:00:00.000Z', { bets: { BANKER: 100 } });
      await store.transact([{ kind: 'put', entity: 'seamlessTx', key: { txId }, item: tx }]);
      expect(await store.get('seamlessTx', { txId })).toEqual(tx);
      // A retried bet finds its debit: a second put of the txId is refused.
      await canceled(store.transact([{ kind: 'put', entity: 'seamlessTx', key: { txId }, item: tx }]));
      const move = (from: string, to: string) =>
        store.transact([
          {
            kind: 'update',
            entity: 'seamlessTx',
            key: { txId },
            set: { state: to, updatedAt: 'u' },
            add: { attempts: 1 },
            expect: { state: from },
          },
        ]);
      await move('DEBIT_PENDING', 'DEBITED');
      await canceled(move('DEBIT_PENDING', 'ROLLBACK_PENDING'));
      expect(await store.get('seamlessTx', { txId })).toMatchObject({ state: 'DEBITED', attempts: 1 });
    });

    it("lists an operator's seamless transactions of a period over days and shards, a page at a time, each once", async () => {
      const operatorId = uid('op');
      const other = uid('op');
      const at = (day: number, hour: number) =>
        `2026-12-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
      const txs: SeamlessTxRecord[] = [];
      // 3 days, 8 an hour-spread day: enough txIds to fall in several shards.
      for (const day of [1, 2, 3]) {
        for (let i = 0; i < 8; i++) {
          txs.push(
            seamlessTx(operatorId, `crd_${uid('t')}${day}${i}00000000`, at(day, i * 3), { op: 'CREDIT' }),
          );
        }
      }
      txs.push(seamlessTx(other, `crd_${uid('t')}0000000000`, at(2, 1)));
      for (const tx of txs) {
        await store.transact([{ kind: 'put', entity: 'seamlessTx', key: { txId: tx.txId }, item: tx }]);
      }
      const walk = async (from: string, to: string, limit: number) => {
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await store.listSeamlessTxs(
            operatorId,
            { from, to },
            { limit, ...(cursor && { cursor }) },
          );
          expect(page.items.length).toBeLessThanOrEqual(limit);
          seen.push(...page.items.map((t) => t.txId));
          cursor = page.cursor;
          pages++;
        } while (cursor && pages < 100);
        return seen;
      };
      const ids = (pick: (t: SeamlessTxRecord) => boolean) =>
        txs
          .filter((t) => t.operatorId === operatorId && pick(t))
          .map((t) => t.txId)
          .sort();
      const all = await walk(at(1, 0), at(4, 0), 5);
      expect(all).toHaveLength(new Set(all).size);
      expect([...all].sort()).toEqual(ids(() => true));
      // [from, to): the first instant is in, the last is out; other operators never.
      const some = await walk(at(1, 3), at(3, 3), 1000);
      expect([...some].sort()).toEqual(ids((t) => t.createdAt >= at(1, 3) && t.createdAt < at(3, 3)));
      expect(await walk(at(5, 0), at(6, 0), 10)).toEqual([]);
      // A page fills across days: a period over three days (from 03:00 to 03:00, as a call at
      // 00:00:01 asking for "the last day or so" would) with fewer than `limit` transactions is one
      // page and no cursor; with a smaller limit every page but the last is full.
      const whole = await store.listSeamlessTxs(operatorId, { from: at(1, 3), to: at(3, 3) }, { limit: 100 });
      expect([whole.items.map((t) => t.txId).sort(), whole.cursor]).toEqual([[...some].sort(), undefined]);
      const sizes: number[] = [];
      let next: string | undefined;
      do {
        const p = await store.listSeamlessTxs(
          operatorId,
          { from: at(1, 0), to: at(4, 0) },
          { limit: 5, ...(next && { cursor: next }) },
        );
        sizes.push(p.items.length);
        next = p.cursor;
      } while (next && sizes.length < 100);
      expect(sizes.slice(0, -1).every((n) => n === 5) && sizes.reduce((a, b) => a + b, 0)).toBe(24);
      // Bad periods and cursors are refused.
      const code = (p: Promise<unknown>) => cursorCode(p);
      expect(
        await code(store.listSeamlessTxs(operatorId, { from: 'yesterday', to: at(2, 0) }, { limit: 5 })),
      ).toBe('SEAMLESS_RANGE_INVALID');
      expect(
        await code(
          store.listSeamlessTxs(operatorId, { from: at(1, 0), to: '2027-02-01T00:00:00.000Z' }, { limit: 5 }),
        ),
      ).toBe('SEAMLESS_RANGE_INVALID');
      // At most 31 days apart, wherever they fall: 31 days from noon touch 32 UTC days, and are one period.
      const month = { from: at(1, 12), to: '2027-01-01T12:00:00.000Z' };
      expect((await store.listSeamlessTxs(operatorId, month, { limit: 100 })).items).toHaveLength(
        ids((t) => t.createdAt >= month.from).length,
      );
      expect(
        await code(
          store.listSeamlessTxs(operatorId, { ...month, to: '2027-01-01T12:00:00.001Z' }, { limit: 5 }),
        ),
      ).toBe('SEAMLESS_RANGE_INVALID');
      const first = await store.listSeamlessTxs(operatorId, { from: at(1, 0), to: at(4, 0) }, { limit: 1 });
      const [n, inner] = (first.cursor ?? '').split('~');
      expect(
        await code(
          store.listSeamlessTxs(operatorId, { from: at(1, 0), to: at(4, 0) }, { limit: 1, cursor: 'x' }),
        ),
      ).toBe('CURSOR_INVALID');
      if (inner) {
        // A partition's cursor moved to another partition does not verify.
        const moved = `${Number(n) + 1}~${inner}`;
        expect(
          await code(
            store.listSeamlessTxs(operatorId, { from: at(1, 0), to: at(4, 0) }, { limit: 1, cursor: moved }),
          ),
        ).toBe('CURSOR_INVALID');
      }
      expect(
        await code(
          store.listSeamlessTxs(other, { from: at(1, 0), to: at(4, 0) }, { limit: 1, cursor: `999~` }),
        ),
      ).toBe('CURSOR_INVALID');
    });

    it("keeps an operator's seamless report per day; an upsert replaces it whole, other days and operators untouched", async () => {
      const operatorId = uid('op');
      const summary = (count: number) => ({
        count,
        totals: [],
        net: [],
        unresolved: { count: 0, transactions: [] },
      });
      const report = (date: string, count: number, asOf: string) => ({
        operatorId,
        date,
        from: `${date}T00:00:00.000Z`,
        to: `${date}T23:59:59.999Z`,
        asOf,
        summary: summary(count),
        redelivered: count,
      });
      const save = (r: ReturnType<typeof report>) => {
        const { operatorId: op, ...fields } = r;
        return store.transact([
          {
            kind: 'update',
            entity: 'seamlessReport',
            key: { operatorId: op, date: r.date },
            set: { operatorId: op, ...fields },
            upsert: true,
          },
        ]);
      };
      expect(await store.get('seamlessReport', { operatorId, date: '2026-11-20' })).toBeUndefined();
      await save(report('2026-11-20', 3, 'a'));
      await save(report('2026-11-21', 1, 'b'));
      await save(report('2026-11-20', 7, 'c'));
      expect(await store.get('seamlessReport', { operatorId, date: '2026-11-20' })).toEqual(
        report('2026-11-20', 7, 'c'),
      );
      expect(await store.get('seamlessReport', { operatorId, date: '2026-11-21' })).toEqual(
        report('2026-11-21', 1, 'b'),
      );
      expect(
        await store.get('seamlessReport', { operatorId: uid('op'), date: '2026-11-20' }),
      ).toBeUndefined();
    });
  });
}
