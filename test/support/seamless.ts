/**
 * A seamless operator for integration tests (docs/seamless-wallet.md): the test stack's use cases with
 * one operator provisioned in seamless mode on the reference operator wallet (real HTTP, signed), the
 * outbox delivered in the process, funded players — and the final checks each such test makes: the
 * wallet's books against the platform's records, the reconciliation of the period, replay and recall.
 *
 * Deadlines, so that a loaded machine (a load of 15+ on the 2 shared cores) cannot fail a test:
 * - the client's deadline is generous (WALLET_DEADLINE_MS): no call that the wallet answers meets it;
 * - a `timeout` fault is the wallet holding the answer, then dropping the connection (HOLD_MS). The
 *   platform never gets an answer, as when its deadline passes (the client turns both into the same
 *   `UNKNOWN`, docs/seamless-wallet.md §1), and the wallet has applied the fault (booked or not)
 *   before it holds: whatever the load, the call reaches the wallet and its outcome is unknown.
 *   That a deadline itself gives up is the client's own test (packages/seamless-wallet/test/client.test.ts).
 */
import {
  type Actor,
  type Core,
  type CoreDeps,
  InProcessOutboxQueue,
  type InProcessQueueOptions,
  type SeamlessTxRecord,
  type Store,
  type Wallet,
} from '@pyb/core';
import { SeamlessWalletClient } from '@pyb/seamless-wallet';
import { type BookEntry, ReferenceWallet } from '@pyb/seamless-wallet/reference-wallet';
import { expect } from 'vitest';
import { operator, platformAdmin, regulator } from './actors';
import { createTestStack, type TestStack } from './stack';

/** The wallet client's deadline in these tests: far beyond any answered call on a loaded machine. */
export const WALLET_DEADLINE_MS = 30_000;
/** How long the reference wallet holds a `timeout` fault's connection before dropping it. */
export const HOLD_MS = 50;

export interface SeamlessFixtureOptions {
  /** The stack's label (DynamoDB Local table prefix). */
  label: string;
  operatorId: string;
  secret: string;
  /** The player ids' prefix (`<prefix>-N`) and the funds each gets by default. */
  players: { prefix: string; funds: number };
  /** The in-process outbox (default: retries after 5 ms, doubling to 40 ms, 30 receives). */
  outbox?: InProcessQueueOptions;
  /** Wraps the signed client, e.g. to act "meanwhile" before a call or inject a fault on its way. */
  wallet?: (client: Wallet, reference: ReferenceWallet) => Wallet;
  /** Wraps the stack's store (e.g. a hook before some transaction). */
  store?: (store: Store) => Store;
  /** Core settings of the stack (e.g. dealt.ts PINNED_V2 for a shoe dealt to order). */
  deps?: Partial<CoreDeps>;
}

export interface SeamlessFixture {
  stack: TestStack;
  /** The reference operator wallet: its books, balances, received calls and faults. */
  wallet: ReferenceWallet;
  core: Core;
  outbox: InProcessOutboxQueue;
  operatorId: string;
  /** The operator's API actor. */
  op: Actor;
  /** A new player `<prefix>-N`, funded in the operator's wallet. */
  player(funds?: number): string;
  /** Every player `player()` made, in order. */
  players: readonly string[];
  /** The stack clock's time `offsetMs` from now, as an ISO timestamp (a period's bounds). */
  at(offsetMs: number): string;
  close(): Promise<void>;
}

export async function seamlessFixture(o: SeamlessFixtureOptions): Promise<SeamlessFixture> {
  const stack = await createTestStack(o.label, o.deps);
  const wallet = await ReferenceWallet.start({ secrets: [o.secret], holdMs: HOLD_MS });
  const outbox = new InProcessOutboxQueue(
    o.outbox ?? { retryDelayMs: 5, maxRetryDelayMs: 40, maxReceives: 30 },
  );
  const clients = new Map<string, Wallet>();
  const core = stack.coreWith({
    ...(o.store && { store: o.store(stack.store) }),
    outboxQueue: outbox,
    wallets: (record) => {
      let client = clients.get(record.operatorId);
      if (!client) {
        const http = new SeamlessWalletClient({
          baseUrl: record.seamless!.baseUrl,
          secrets: { current: o.secret },
          timeoutMs: WALLET_DEADLINE_MS,
        });
        const plain: Wallet = {
          balance: (r) => http.balance(r),
          debit: (r) => http.debit(r),
          credit: (r) => http.credit(r),
          rollback: (r) => http.rollback(r),
        };
        client = o.wallet ? o.wallet(plain, wallet) : plain;
        clients.set(record.operatorId, client);
      }
      return client;
    },
  });
  outbox.attach(async (txId) => {
    await core.deliverSeamlessTx(txId);
  });
  await core.setOperatorWallet(platformAdmin(), {
    operatorId: o.operatorId,
    walletMode: 'seamless',
    seamless: { baseUrl: wallet.url, secretRef: 'env:TEST_WALLET_SECRET' },
  });
  const players: string[] = [];
  return {
    stack,
    wallet,
    core,
    outbox,
    operatorId: o.operatorId,
    op: operator(o.operatorId),
    players,
    player: (funds = o.players.funds) => {
      const id = `${o.players.prefix}-${players.length + 1}`;
      players.push(id);
      wallet.fund(id, 'EUR', funds);
      return id;
    },
    at: (offsetMs) => new Date(stack.clock.now().getTime() + offsetMs).toISOString(),
    close: async () => {
      await wallet.close();
      await stack.cleanup();
    },
  };
}

/** Each txId booked at most once by the operator's wallet. */
export function expectBookedOnce(wallet: ReferenceWallet): void {
  const ids = wallet.books().map((b) => b.txId);
  expect(ids).toHaveLength(new Set(ids).size);
}

/** The platform's records of the operator's wallet calls created in [from, to], every page. */
export async function seamlessRecords(f: SeamlessFixture, from: string, to: string) {
  const records: SeamlessTxRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await f.stack.store.listSeamlessTxs(
      f.operatorId,
      { from, to },
      { limit: 50, ...(cursor && { cursor }) },
    );
    records.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return records;
}

/** What a call moved in the operator's books: a debit takes, a credit gives, an applied rollback gives back. */
const movedBy = (r: SeamlessTxRecord) =>
  r.op === 'DEBIT' ? -r.amount : r.op === 'CREDIT' || r.applied ? r.amount : 0;
const moving = (r: SeamlessTxRecord) => r.state === 'DEBITED' || r.state === 'CREDITED';

export interface BooksCheck {
  from: string;
  to: string;
  /** Only these rounds' records and bookings (default: every one of the period / of the wallet). */
  roundIds?: ReadonlySet<string>;
  /** Players whose wallet balance must be `funds` + what their moving records moved. */
  players?: { ids: readonly string[]; funds: number };
}

/**
 * The books of a period, to the unit:
 * - no record (of the rounds) still pending; no txId booked twice;
 * - each of the wallet's bookings (of the rounds) is a record, its amount what the record moved (a
 *   debit −, a credit +, a rollback + if it gave the debit back, else 0); a booking that stands is a
 *   DEBITED or CREDITED record, the others a rollback and the debit it gave back; and each DEBITED or
 *   CREDITED record is booked;
 * - each named player's balance is his funds plus what his moving records moved;
 * - the reconciliation of the period (docs/seamless-wallet.md §9) counts every record, names nothing
 *   unresolved, its net is what the operator's books hold for the period's txIds and its `debited`
 *   the DEBITED records.
 */
export async function expectBooksReconcile(f: SeamlessFixture, check: BooksCheck) {
  const inScope = (roundId: string) => !check.roundIds || check.roundIds.has(roundId);
  const records = await seamlessRecords(f, check.from, check.to);
  const mine = records.filter((r) => inScope(r.roundId));
  expect(mine.filter((r) => r.state.endsWith('_PENDING'))).toEqual([]);
  expectBookedOnce(f.wallet);
  const books: BookEntry[] = f.wallet.books().filter((b) => inScope(b.roundId));
  const byTx = new Map(mine.map((r) => [r.txId, r]));
  for (const b of books) {
    const r = byTx.get(b.txId);
    expect(r, b.txId).toBeDefined();
    expect(b.amount, b.txId).toBe(movedBy(r!));
  }
  const rolledBack = (r: SeamlessTxRecord) => r.op === 'ROLLBACK' || r.rollbackTxId !== undefined;
  expect(
    books
      .filter((b) => !rolledBack(byTx.get(b.txId)!))
      .map((b) => b.txId)
      .sort(),
  ).toEqual(
    mine
      .filter(moving)
      .map((r) => r.txId)
      .sort(),
  );
  /** What a player's DEBITED and CREDITED records moved (of the rounds). */
  const netOf = (playerId: string) =>
    mine.filter((r) => r.playerId === playerId && moving(r)).reduce((s, r) => s + movedBy(r), 0);
  for (const p of check.players?.ids ?? [])
    expect(f.wallet.balanceOf(p), p).toBe(check.players!.funds + netOf(p));
  const { summary } = await f.core.listSeamlessTransactions(regulator(f.operatorId), {
    operatorId: f.operatorId,
    from: check.from,
    to: check.to,
  });
  const periodTxIds = new Set(records.map((r) => r.txId));
  const booked = f.wallet
    .books()
    .filter((b) => periodTxIds.has(b.txId))
    .reduce((s, b) => s + b.amount, 0);
  expect(summary!.count).toBe(records.length);
  expect(summary!.unresolved).toEqual({ count: 0, transactions: [] });
  expect(summary!.net.map((n) => [n.currency, n.net])).toEqual([['EUR', booked]]);
  expect(summary!.net[0]!.debited).toBe(
    records.filter((r) => r.state === 'DEBITED').reduce((s, r) => s + r.amount, 0),
  );
  return { records, mine, books, byTx, booked, netOf, summary: summary! };
}

/** Every round replays VERIFIED (its shoe closed), seamless positions checked like hosted ones. */
export async function expectReplaysVerified(f: SeamlessFixture, roundIds: Iterable<string>) {
  for (const roundId of roundIds) {
    const replay = await f.core.replayRound(regulator(f.operatorId), { roundId });
    expect(replay.verification.status, JSON.stringify(replay.verification)).toBe('VERIFIED');
  }
}

/** The player's recall reads his seamless rounds (no wallet item), each VERIFIED. */
export async function expectRecallVerified(f: SeamlessFixture, playerId: string, limit: number) {
  const recall = await f.core.recallPlayerRounds(f.op, { playerId, limit });
  expect(recall.rounds.length).toBeGreaterThan(0);
  for (const r of recall.rounds) expect(r.verification.status).toBe('VERIFIED');
}
