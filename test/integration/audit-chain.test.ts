/**
 * Done-when: editing any stored audit item is detected by the chain check, which names the round.
 * Also what the check recomputes beyond the chain: the bets digest against the positions, the ledger
 * behind each payout, the coups against the revealed shoe, the signed head.
 */
import type { ChainReport, Core } from '@pyb/core';
import { tablePreset } from '@pyb/engine';
import { eventHash } from '@pyb/fairness';
import { type LogicalTable, ledgerEntryAt } from '@pyb/store-dynamodb/layout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { bancaWinsFirst, PINNED_V2 } from '../support/dealt';
import { fundPlayers } from '../support/fixture';
import { playShoe } from '../support/game';
import { deterministicSeeds } from '../support/keys';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
let shoeId: string;
let roundIds: string[];
/** Whether a player owed commission and left (the shoe depends on the local beacon's per-run key). */
let playerLeft = false;
const op = operator();

type Item = Record<string, unknown>;

beforeAll(async () => {
  stack = await createTestStack('audit', PINNED_V2);
  // Seed and every id fixed; the shoe opens on a Banca win (../support/dealt: the beacon round still
  // differs per run), so a Banca bettor owes commission after the first coup and leaves.
  let n = 0;
  const ids = { next: (prefix: string) => `${prefix}_${String(++n).padStart(12, '0')}` };
  const deps = { keys: deterministicSeeds(stack.keys, 'audit-chain'), ids };
  core = stack.coreWith(deps);
  const overrides = { decks: 1, pairBets: true, commission: { mode: 'DEFERRED' as const } };
  const config = tablePreset('custom', { ...overrides, name: 'One deck' });
  const table = await core.createTable(admin(), { name: 'One deck', variant: 'custom', config: overrides });
  await fundPlayers(core, op, ['ana', 'ben', 'carla'], 100_000);
  const shoe = await core.openShoe(admin(), { tableId: table.tableId });
  shoeId = shoe.shoeId;
  let left = false;
  const rounds = await playShoe({
    core,
    actor: op,
    tableId: table.tableId,
    players: ['ana', 'ben', 'carla'],
    config,
    seed: 'audit',
    dealing: { stack, deals: bancaWinsFirst, deps },
    voidRounds: [2],
    patterns: [['BANKER'], ['BANKER', 'TIE'], ['PLAYER', 'PLAYER_PAIR']],
    afterRound: async () => {
      // The first player who owes commission leaves the table (PLAYER_LEFT in the chain).
      if (left) return;
      for (const playerId of ['ana', 'ben', 'carla']) {
        if ((await core.getWallet(op, { playerId })).commissionOwed > 0) {
          left = (await core.leaveTable(op, { tableId: table.tableId, playerId })).commissionCollected > 0;
          return;
        }
      }
    },
  });
  playerLeft = left;
  roundIds = rounds.map((r) => r.roundId);
  await core.closeShoe(admin(), { shoeId, reason: 'END_OF_SESSION' });
});
afterAll(() => stack?.cleanup());

const check = (): Promise<ChainReport> => core.checkShoeChain(op, { shoeId });

const auditItems = (): Promise<Item[]> => stack.raw.partition('audit', `SHOE#${shoeId}`);

const put = (table: LogicalTable, item: Item) => stack.raw.put(table, item);

type Key = { pk: string; sk: string };

/** Applies `edit` to a copy of the stored item, runs the check, then restores the original. */
async function withEdited(table: LogicalTable, key: Key, edit: (item: Item) => void): Promise<ChainReport> {
  const original = await stack.raw.get(table, key);
  const copy = structuredClone(original!);
  edit(copy);
  await put(table, copy);
  try {
    return await check();
  } finally {
    await put(table, original!);
  }
}

const named = (report: ChainReport) => new Set(report.problems.map((p) => p.roundId));

describe('the chain check', () => {
  it('passes on the untouched trail, with every coup recomputed from the revealed seed', async () => {
    const report = await check();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.coupsVerified).toBe(true);
    expect(report.rounds).toBe(roundIds.length);
    const types = (await auditItems()).map((i) => i.type);
    expect(types).toContain('ROUND_VOIDED');
    expect(playerLeft).toBe(true);
    expect(types).toContain('PLAYER_LEFT');
    expect(types.at(-1)).toBe('SHOE_CLOSED');
  });

  it('detects an edit of any audit item and names its round', async () => {
    const items = await auditItems();
    expect(items.length).toBeGreaterThan(15);
    for (const [i, item] of items.entries()) {
      const roundId = (item.roundId as string | undefined) ?? null;
      const edits: ((x: Item) => void)[] = [
        (x) => {
          const event = JSON.parse(x.event as string);
          event.at = '2000-01-01T00:00:00.000Z';
          x.event = JSON.stringify(event);
        },
        (x) => {
          x.hash = eventHash('forged', { i });
        },
        (x) => {
          x.prevHash = eventHash('forged', { i });
        },
      ];
      const report = await withEdited(
        'audit',
        { pk: item.pk as string, sk: item.sk as string },
        edits[i % edits.length]!,
      );
      expect(report.ok, `edit of ${item.sk} (${item.type})`).toBe(false);
      expect(
        named(report).has(roundId),
        `${item.sk} names ${roundId}: ${JSON.stringify(report.problems)}`,
      ).toBe(true);
    }
    expect((await check()).ok).toBe(true);
  });

  it('detects a deleted event, and a forger who re-hashes the rest of the chain', async () => {
    const items = await auditItems();
    const victim = items.find((i) => i.type === 'COUP_DEALT' && i.roundId === roundIds[2])!;
    await stack.raw.delete('audit', { pk: victim.pk as string, sk: victim.sk as string });
    try {
      const report = await check();
      expect(report.ok).toBe(false);
      expect(named(report).has(roundIds[2]!)).toBe(true);
    } finally {
      await put('audit', victim);
    }

    // Change the winner of a dealt coup and rebuild every hash after it: the links hold again, but the
    // coup is not what the revealed shoe deals and the signed head no longer matches.
    const forged = items.map((i) => structuredClone(i));
    const at = forged.findIndex((i) => i.type === 'COUP_DEALT' && i.roundId === roundIds[0]);
    const event = JSON.parse(forged[at]!.event as string);
    event.data.coup.winner = event.data.coup.winner === 'PLAYER' ? 'BANKER' : 'PLAYER';
    forged[at]!.event = JSON.stringify(event);
    for (let k = at; k < forged.length; k++) {
      const prev = forged[k - 1]!.hash as string;
      forged[k]!.prevHash = prev;
      forged[k]!.hash = eventHash(prev, JSON.parse(forged[k]!.event as string));
    }
    for (const item of forged.slice(at)) await put('audit', item);
    try {
      const report = await check();
      const codes = report.problems.map((p) => p.code);
      expect(codes).not.toContain('CHAIN_LINK');
      // The close's signature still verifies; what it signed is no longer this chain's head.
      expect(codes).toContain('HEAD_MISMATCH');
      expect(report.problems.some((p) => p.code === 'COUP_MISMATCH' && p.roundId === roundIds[0])).toBe(true);
    } finally {
      for (const item of items.slice(at)) await put('audit', item);
    }
    expect((await check()).ok).toBe(true);
  });

  it('recomputes the bets digest from the stored positions and the payouts from the ledger', async () => {
    const round = roundIds[0]!;
    const positions = await stack.store.listPositions(round);
    const p = positions[0]!;
    const positionKey = { pk: `ROUND#${round}`, sk: `P#${p.playerId}` };
    const betType = Object.keys(p.bets)[0]!;
    let report = await withEdited('game', positionKey, (x) => {
      (x.bets as Record<string, number>)[betType]! += 100;
    });
    expect(report.problems.map((x) => [x.code, x.roundId])).toContainEqual(['BETS_DIGEST', round]);

    const settled = positions.find((x) => x.settleSeq !== undefined)!;
    const { pk, sk } = ledgerEntryAt(op.operatorId, settled.playerId, settled.settleSeq!);
    const ledgerKey = { pk, sk };
    report = await withEdited('wallets', ledgerKey, (x) => {
      x.amount = (x.amount as number) + 1;
    });
    expect(report.problems.map((x) => [x.code, x.roundId])).toContainEqual(['LEDGER_MISMATCH', round]);

    report = await withEdited('game', { pk: `ROUND#${round}`, sk: 'ROUND' }, (x) => {
      const coup = x.coup as { result: { winner: string } };
      coup.result.winner = coup.result.winner === 'TIE' ? 'PLAYER' : 'TIE';
    });
    expect(report.problems.map((x) => [x.code, x.roundId])).toContainEqual(['COUP_MISMATCH', round]);

    // A round item renumbered after the fact no longer agrees with the ROUND_OPENED that numbered it.
    report = await withEdited('game', { pk: `ROUND#${round}`, sk: 'ROUND' }, (x) => {
      x.number = (x.number as number) + 1;
    });
    expect(report.problems.map((x) => [x.code, x.roundId])).toContainEqual(['ROUND_MISMATCH', round]);
    expect((await check()).ok).toBe(true);
  });

  it('passes on a shoe closed before any round (nothing dealt, nothing to recompute)', async () => {
    const table = await core.createTable(admin(), { name: 'Unplayed', variant: 'mini' });
    const unplayed = (await core.openShoe(admin(), { tableId: table.tableId })).shoeId;
    await core.closeShoe(admin(), { shoeId: unplayed, reason: 'END_OF_SESSION' });
    const report = await core.checkShoeChain(op, { shoeId: unplayed });
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ ok: true, rounds: 0, coupsVerified: true });
  });
});
