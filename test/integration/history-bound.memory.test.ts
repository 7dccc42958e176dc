/**
 * The player history beyond HISTORY_MAX_ROUNDS (issue #28 item 5; UKGC RTS 1B: 12 months self-serve
 * whatever the number of rounds). Both the pages and the totals read the player's position index
 * between `from` and `to` only: a round older than 2,000 newer ones is reachable, and a range holding
 * more than 2,000 rounds is served page by page with cursors, its totals null (they are summed in the
 * request over at most 2,000 positions). On the in-memory Store: two played rounds, and 2,001 settled
 * positions per player written straight through the Store port around them.
 */
import { HISTORY_MAX_ROUNDS } from '@pyb/contracts';
import type { PositionRecord, WriteOp } from '@pyb/core';
import { tablePreset } from '@pyb/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { playShoe } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

const OP = 'op-bound';
const op = operator(OP);
/** bea's 2,001 stored positions are newer than the played rounds, cai's older. */
const [BEA, CAI] = ['bea', 'cai'];
const N = HISTORY_MAX_ROUNDS + 1;
const CONFIG = { decks: 1, pairBets: true, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;
const MIN = 60_000;
let stack: TestStack;
/** openedAt of the played rounds, oldest first. */
let opened: string[] = [];

function settled(playerId: string, i: number, openedAt: string): WriteOp[][] {
  const roundId = `r-${playerId}-${String(i).padStart(5, '0')}`;
  const p: PositionRecord = {
    roundId,
    playerId,
    operatorId: OP,
    tableId: 't',
    shoeId: 's',
    openedAt,
    bets: { PLAYER: 100 },
    stake: 100,
    reserve: 0,
    seat: null,
    calls: 1,
    firstSeq: 1_000 + i,
    lastSeq: 1_000 + i,
    createdAt: openedAt,
    updatedAt: openedAt,
  };
  const key = { roundId, playerId };
  return [
    [{ kind: 'put', entity: 'position', key, item: p }],
    [
      {
        kind: 'update',
        entity: 'position',
        key,
        set: {
          settledAt: openedAt,
          settlement: { bets: [], stake: 100, payout: 0, commission: 0, commissionOwed: 0 },
          operatorId: OP,
          openedAt,
        },
      },
    ],
  ];
}

beforeAll(async () => {
  stack = await createTestStack('history-bound');
  await fundPlayers(stack.core, op, [BEA, CAI], 1_000_000);
  const tableId = (
    await stack.core.createTable(admin(OP), { name: 'bound', variant: 'custom', config: CONFIG })
  ).tableId;
  await stack.core.openShoe(admin(OP), { tableId });
  const played = await playShoe({
    core: stack.core,
    actor: op,
    tableId,
    players: [BEA, CAI],
    config: tablePreset('custom', { ...CONFIG, name: 'bound' }),
    seed: 'bound',
    maxRounds: 2,
  });
  for (const r of played) opened.push((await stack.store.get('round', { roundId: r.roundId }))!.openedAt);
  opened = opened.sort();
  const first = Date.parse(opened[0]!);
  const last = Date.parse(opened.at(-1)!);
  for (let i = 0; i < N; i++) {
    for (const ops of settled(BEA, i, new Date(last + (i + 1) * MIN).toISOString()))
      await stack.store.transact(ops);
    for (const ops of settled(CAI, i, new Date(first - (i + 1) * MIN).toISOString()))
      await stack.store.transact(ops);
  }
}, 240_000);
afterAll(() => stack?.cleanup());

const after = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

async function pages(playerId: string, range: { from: string; to: string }) {
  const out = [];
  let cursor: string | undefined;
  do {
    const page = await stack.core.playerHistory(op, {
      playerId,
      ...range,
      limit: 1,
      ...(cursor && { cursor }),
    });
    out.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

describe(`the player history beyond ${HISTORY_MAX_ROUNDS} rounds`, () => {
  it(`reaches rounds older than the ${N} newer ones, with their totals`, async () => {
    const got = await pages(BEA, { from: opened[0]!, to: after(opened.at(-1)!, 1) });
    expect(got.flatMap((p) => p.rounds.map((r) => r.openedAt)).sort()).toEqual(opened);
    expect(got.at(-1)!.nextCursor).toBeNull();
    expect(got[0]!.totals).toMatchObject({ rounds: opened.length, currency: 'EUR' });
  });

  it(`serves a range of more than ${HISTORY_MAX_ROUNDS} rounds page by page, its totals null`, async () => {
    // cai's range: his 2,001 stored positions, then the two played rounds (the newest, shown first).
    const range = {
      from: new Date(Date.parse(opened[0]!) - (N + 1) * MIN).toISOString(),
      to: after(opened.at(-1)!, 1),
    };
    const first = await stack.core.playerHistory(op, { playerId: CAI, ...range, limit: 1 });
    expect(first.totals).toBeNull();
    expect(first.rounds.map((r) => r.openedAt)).toEqual([opened.at(-1)]);
    const second = await stack.core.playerHistory(op, {
      playerId: CAI,
      ...range,
      limit: 1,
      cursor: first.nextCursor!,
    });
    expect(second.rounds.map((r) => r.openedAt)).toEqual([opened[0]]);
    expect(second.nextCursor).not.toBeNull();
  });
});
