/**
 * The ledger backfill (packages/store-dynamodb/src/ledger-backfill.ts, docs/data-model.md *Migration*)
 * on DynamoDB Local, on a wallets table as a deployment made before the move has it (with the old
 * `ledger` LSI on `lseq`), holding entries of the old layout (whole at `K#<key>`, with `lseq`) beside
 * entries of the current one (`L#<seq>` + a marker at the key) — in one wallet, the first entries
 * old and the later ones new, as after a deployment.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LedgerEntry } from '@pyb/core';
import { type Item, ledgerSortKey, MARKER_SEQ } from '@pyb/store-dynamodb/layout';
import { type BackfillProgress, backfillLedger } from '@pyb/store-dynamodb/ledger-backfill';
import { main as backfillCli } from '@pyb/store-dynamodb/ledger-backfill-cli';
import { createTableInput, TABLES } from '@pyb/store-dynamodb/tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { createDynamoTestStack, dynamodbEndpoint } from '../support/dynamodb';
import type { TestStack } from '../support/stack';

const OLD_INDEX = 'ledger';
const actor = operator('op-1');
const walletPk = (playerId: string) => `W#op-1#${playerId}`;

let stack: TestStack & { tables: NonNullable<TestStack['tables']> };
let doc: DynamoDBDocumentClient;
let table: string;

/** The wallets table of a deployment made before the move: the same keys, plus the LSI on `lseq`. */
async function recreateWalletsTableWithOldIndex(): Promise<void> {
  const { client, names } = stack.tables;
  await client.send(new DeleteTableCommand({ TableName: names.wallets }));
  await client.send(
    new CreateTableCommand(
      createTableInput(
        {
          ...TABLES.wallets,
          localIndexes: [
            {
              name: OLD_INDEX,
              partitionKey: { name: 'pk', type: 'S' },
              sortKey: { name: 'lseq', type: 'N' },
            },
          ],
        },
        names.wallets,
      ),
    ),
  );
}

async function move(playerId: string, type: 'CREDIT' | 'DEBIT', amount: number, key: string) {
  return stack.core.walletTransaction(actor, {
    playerId,
    type,
    amount,
    currency: 'EUR',
    idempotencyKey: key,
  });
}

/** Writes `n` movements with the current code, then puts entries `seqs` back in the old layout. */
async function walletWithOldEntries(playerId: string, n: number, oldSeqs: readonly number[]) {
  for (let i = 1; i <= n; i++)
    await move(playerId, i % 3 === 0 ? 'DEBIT' : 'CREDIT', 100 * i, `${playerId}-k${i}`);
  const items = await stack.raw.partition('wallets', walletPk(playerId));
  for (const seq of oldSeqs) {
    const entry = items.find((item) => item.sk === ledgerSortKey(seq))!;
    const marker = items.find((item) => item[MARKER_SEQ] === seq)!;
    // As the code before the move wrote it: the entry itself at its key, with the index's `lseq`.
    await stack.raw.put('wallets', { ...entry, sk: marker.sk, lseq: seq });
    await stack.raw.delete('wallets', { pk: walletPk(playerId), sk: String(entry.sk) });
  }
}

const entries = async (playerId: string): Promise<LedgerEntry[]> => {
  const out: LedgerEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await stack.store.listLedger('op-1', playerId, {
      limit: 7,
      order: 'asc',
      ...(cursor && { cursor }),
    });
    out.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return out;
};

/** Every key is a marker naming an entry that exists, and every entry has exactly one marker. */
async function layoutHolds(playerId: string, expected: number): Promise<void> {
  const items = await stack.raw.partition('wallets', walletPk(playerId));
  const markers = items.filter((item) => String(item.sk).startsWith('K#'));
  const stored = items.filter((item) => String(item.sk).startsWith('L#'));
  expect(markers.every((m) => typeof m[MARKER_SEQ] === 'number' && Object.keys(m).length === 3)).toBe(true);
  expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
  expect(markers.map((m) => m[MARKER_SEQ]).sort((a, b) => Number(a) - Number(b))).toEqual(
    stored.map((e) => e.seq),
  );
  expect(items.some((item) => 'lseq' in item)).toBe(false);
}

/** What the old ledger index still holds for a wallet. */
const oldIndexCount = async (playerId: string): Promise<number> =>
  (
    await doc.send(
      new QueryCommand({
        TableName: table,
        IndexName: OLD_INDEX,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': walletPk(playerId) },
        Select: 'COUNT',
      }),
    )
  ).Count ?? 0;

beforeAll(async () => {
  stack = (await createDynamoTestStack('backfill')) as typeof stack;
  doc = DynamoDBDocumentClient.from(stack.tables.client);
  table = stack.tables.names.wallets;
  await recreateWalletsTableWithOldIndex();
});
afterAll(async () => {
  await stack?.cleanup();
});

describe('ledger backfill (K# entries of the old layout -> L#<seq> + marker)', () => {
  it('moves each old entry once: the lists and the key reads see every entry as it was; a dry run writes nothing; a rerun moves nothing', async () => {
    await walletWithOldEntries('mixed', 6, [1, 2, 3, 4]);
    await walletWithOldEntries('old', 3, [1, 2, 3]);
    await walletWithOldEntries('new', 2, []);
    const before = await stack.raw.partition('wallets', walletPk('mixed'));
    // The current code lists only what is at L#: the old entries are missing until the backfill.
    expect((await entries('mixed')).map((e) => e.seq)).toEqual([5, 6]);
    expect(await oldIndexCount('mixed')).toBe(4);
    const keyRead = await stack.store.get('ledger', {
      operatorId: 'op-1',
      playerId: 'mixed',
      key: 'c:mixed-k2',
    });
    expect(keyRead?.seq).toBe(2);

    const dry = await backfillLedger(doc, { table, dryRun: true, pageSize: 4 });
    expect([dry.found, dry.migrated, dry.conflicts, dry.done]).toEqual([7, 7, [], true]);
    expect(await stack.raw.partition('wallets', walletPk('mixed'))).toEqual(before);

    const run = await backfillLedger(doc, { table, pageSize: 4 });
    expect([run.found, run.migrated, run.alreadyDone, run.conflicts, run.done]).toEqual([7, 7, 0, [], true]);
    expect(run.pages).toBeGreaterThan(1);
    await layoutHolds('mixed', 6);
    await layoutHolds('old', 3);
    await layoutHolds('new', 2);
    expect(await oldIndexCount('mixed')).toBe(0);
    expect(await oldIndexCount('old')).toBe(0);

    // Each moved entry is the one that was at its key, attribute for attribute (less the index's lseq).
    const moved = await entries('mixed');
    expect(moved.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const old of before.filter((item) => String(item.sk).startsWith('K#') && 'lseq' in item)) {
      const { pk: _pk, sk: _sk, lseq: _lseq, ...entry } = old;
      expect(moved.find((e) => e.seq === old.seq)).toEqual(entry);
      expect(
        await stack.store.get('ledger', { operatorId: 'op-1', playerId: 'mixed', key: String(old.key) }),
      ).toEqual(entry);
    }
    // The chain still links: each entry's prevHash is the hash before it.
    for (let i = 1; i < moved.length; i++) expect(moved[i]!.prevHash).toBe(moved[i - 1]!.hash);

    const again = await backfillLedger(doc, { table, pageSize: 4 });
    expect([again.found, again.migrated, again.conflicts]).toEqual([0, 0, []]);
    expect((await backfillLedger(doc, { table, dryRun: true })).found).toBe(0);
  });

  it('an old idempotency key, once moved, still replays its first answer and writes nothing', async () => {
    await walletWithOldEntries('retry', 2, [1, 2]);
    await backfillLedger(doc, { table });
    const replay = await move('retry', 'CREDIT', 200, 'retry-k2');
    expect([replay.replayed, replay.entry.seq]).toEqual([true, 2]);
    const next = await move('retry', 'CREDIT', 300, 'retry-k3');
    expect([next.replayed, next.entry.seq, next.wallet.balance]).toEqual([false, 3, 600]);
    await layoutHolds('retry', 3);
  });

  it('resumes from where an interrupted run stopped, and moves every entry exactly once', async () => {
    await walletWithOldEntries('resume-a', 5, [1, 2, 3, 4, 5]);
    await walletWithOldEntries('resume-b', 5, [1, 2, 3]);
    const seen: Array<Item | undefined> = [];
    const first = await backfillLedger(doc, {
      table,
      pageSize: 3,
      maxPages: 2,
      onPage: (p: BackfillProgress) => {
        seen.push(p.cursor);
      },
    });
    expect([first.pages, first.done]).toEqual([2, false]);
    expect(seen).toHaveLength(2);
    const rest = await backfillLedger(doc, { table, pageSize: 3, cursor: first.cursor! });
    expect(rest.done).toBe(true);
    expect(first.migrated + rest.migrated).toBe(8);
    expect([first.alreadyDone + rest.alreadyDone, rest.conflicts]).toEqual([0, []]);
    await layoutHolds('resume-a', 5);
    await layoutHolds('resume-b', 5);
  });

  it('two runs at once and movements committing meanwhile: no entry doubled, lost or overwritten', async () => {
    await walletWithOldEntries('busy', 8, [1, 2, 3, 4, 5, 6, 7, 8]);
    const [a, b] = await Promise.all([
      backfillLedger(doc, { table, pageSize: 2 }),
      backfillLedger(doc, { table, pageSize: 3 }),
      (async () => {
        for (let i = 9; i <= 14; i++) await move('busy', 'CREDIT', 100 * i, `busy-k${i}`);
      })(),
    ]);
    expect([a.conflicts, b.conflicts]).toEqual([[], []]);
    expect(a.migrated + b.migrated).toBe(8);
    expect(a.migrated + a.alreadyDone + b.migrated + b.alreadyDone).toBeGreaterThanOrEqual(8);
    await layoutHolds('busy', 14);
    const all = await entries('busy');
    for (let i = 1; i < all.length; i++) expect(all[i]!.prevHash).toBe(all[i - 1]!.hash);
    const wallet = await stack.store.get('wallet', { operatorId: 'op-1', playerId: 'busy' });
    expect(wallet?.balance).toBe(all.at(-1)!.balanceAfter);
  });

  it('a slot already holding another entry is a conflict: nothing is written for that key', async () => {
    await walletWithOldEntries('clash', 2, [1]);
    const items = await stack.raw.partition('wallets', walletPk('clash'));
    const old = items.find((item) => 'lseq' in item)!;
    // Something else sits at L#1 (it cannot happen through the code; the backfill must not paper over it).
    const intruder = {
      ...items.find((item) => item.sk === ledgerSortKey(2))!,
      sk: ledgerSortKey(1),
      hash: 'f'.repeat(64),
    };
    await stack.raw.put('wallets', intruder);
    const dry = await backfillLedger(doc, { table, dryRun: true });
    expect(dry.conflicts.map((c) => [c.sk, c.reason])).toEqual([[old.sk, 'L#1 holds another entry']]);
    const run = await backfillLedger(doc, { table });
    expect(run.conflicts.map((c) => [c.sk, c.reason])).toEqual([[old.sk, 'L#1 holds another entry']]);
    expect(await stack.raw.get('wallets', { pk: walletPk('clash'), sk: String(old.sk) })).toEqual(old);
    expect(await stack.raw.get('wallets', { pk: walletPk('clash'), sk: ledgerSortKey(1) })).toEqual(intruder);
    // Put right by hand, the next run moves it.
    await stack.raw.delete('wallets', { pk: walletPk('clash'), sk: ledgerSortKey(1) });
    expect((await backfillLedger(doc, { table })).migrated).toBe(1);
    await layoutHolds('clash', 2);
  });

  it('./scripts/migrate-ledger: dry run, then a run stopped after a page and resumed from its state file', async () => {
    await walletWithOldEntries('cli', 4, [1, 2, 3, 4]);
    const dir = mkdtempSync(join(tmpdir(), 'pyb-backfill-'));
    const state = join(dir, 'state.json');
    const env = { DYNAMODB_ENDPOINT: dynamodbEndpoint(), TABLE_WALLETS: table, PATH: process.env.PATH };
    try {
      expect(await backfillCli(['--dry-run', '--no-progress'], env)).toBe(0);
      expect(await oldIndexCount('cli')).toBe(4);
      expect(
        await backfillCli(['--page-size', '1', '--max-pages', '1', '--state', state, '--no-progress'], env),
      ).toBe(0);
      const saved = JSON.parse(readFileSync(state, 'utf8')) as {
        table: string;
        done: boolean;
        cursor: unknown;
      };
      expect([saved.table, saved.done, saved.cursor !== undefined]).toEqual([table, false, true]);
      expect(await backfillCli(['--state', state, '--no-progress'], env)).toBe(0);
      expect((JSON.parse(readFileSync(state, 'utf8')) as { done: boolean }).done).toBe(true);
      await layoutHolds('cli', 4);
      expect(await oldIndexCount('cli')).toBe(0);
      expect(await backfillCli(['--page-size', 'x'], env)).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
