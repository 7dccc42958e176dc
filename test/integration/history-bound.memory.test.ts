/**
 * The player history's bound (docs/api.md, "Player history"): one request walks at most
 * HISTORY_MAX_ROUNDS positions of the player's index, newest first — those newer than the range
 * included — and refuses a range it cannot sum within that bound (422 HISTORY_TOO_LARGE). On the
 * in-memory Store: 2,001 settled positions written straight through the Store port.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HISTORY_MAX_ROUNDS } from '@pyb/contracts';
import type { PositionRecord, Store, WriteOp } from '@pyb/core';
import { context, playerHistory } from '@pyb/core/use-cases';
import { LocalKeyService } from '@pyb/keys';
import { MemoryStore } from '@pyb/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { codeOf } from '../support/game';

const OP = 'op-bound';
const PLAYER = 'bea';
const N = HISTORY_MAX_ROUNDS + 1;
const T0 = Date.parse('2026-06-01T00:00:00.000Z');
/** openedAt of position i (0 = the oldest), a minute apart. */
const at = (i: number) => new Date(T0 + i * 60_000).toISOString();
const keysDir = mkdtempSync(join(tmpdir(), 'pyb-bound-keys-'));
let store: Store;

function settled(i: number): WriteOp[][] {
  const roundId = `r${String(i).padStart(5, '0')}`;
  const p: PositionRecord = {
    roundId,
    playerId: PLAYER,
    operatorId: OP,
    tableId: 't',
    shoeId: 's',
    openedAt: at(i),
    bets: { PLAYER: 100 },
    stake: 100,
    reserve: 0,
    seat: null,
    calls: 1,
    firstSeq: i + 2,
    lastSeq: i + 2,
    createdAt: at(i),
    updatedAt: at(i),
  };
  const key = { roundId, playerId: PLAYER };
  return [
    [{ kind: 'put', entity: 'position', key, item: p }],
    [
      {
        kind: 'update',
        entity: 'position',
        key,
        set: {
          settledAt: at(i),
          settlement: { bets: [], stake: 100, payout: 0, commission: 0, commissionOwed: 0 },
          operatorId: OP,
          openedAt: at(i),
        },
      },
    ],
  ];
}

beforeAll(async () => {
  store = new MemoryStore();
  await store.transact([
    {
      kind: 'put',
      entity: 'wallet',
      key: { operatorId: OP, playerId: PLAYER },
      item: {
        operatorId: OP,
        playerId: PLAYER,
        currency: 'EUR',
        balance: 0,
        owed: 0,
        reserved: 0,
        available: 0,
        seq: 0,
        head: 'h',
        createdAt: at(0),
        updatedAt: at(0),
      },
    },
  ]);
  for (let i = 0; i < N; i++) for (const ops of settled(i)) await store.transact(ops);
}, 120_000);
afterAll(() => rmSync(keysDir, { recursive: true, force: true }));

describe(`the player history walks at most ${HISTORY_MAX_ROUNDS} positions`, () => {
  const history = (from: string, to: string) =>
    playerHistory(context({ store, keys: new LocalKeyService({ dir: keysDir, env: {} }) }), operator(OP), {
      playerId: PLAYER,
      from,
      to,
      limit: 1,
    });

  // The positions' rounds are not stored: a range the walk accepts goes on to replay its first round
  // and fails there — past the bound, which is what these cases look at.
  const walked = async (from: string, to: string) =>
    expect(history(from, to)).rejects.toThrow(/^round r\d{5} of a stored position is missing$/);

  it(`accepts a range of exactly ${HISTORY_MAX_ROUNDS} rounds, the newest`, async () => {
    await walked(at(1), at(N));
  });

  it(`refuses a range of ${N} rounds with HISTORY_TOO_LARGE`, async () => {
    expect(await codeOf(history(at(0), at(N)))).toBe('HISTORY_TOO_LARGE');
  });

  it('counts the rounds newer than the range in the walk: an older range of 2,000 rounds is refused too', async () => {
    // [at(0), at(N-1)) holds 2,000 rounds, but reaching it walks past the newest one first.
    expect(await codeOf(history(at(0), at(N - 1)))).toBe('HISTORY_TOO_LARGE');
    // A short range near the newest end walks only what is newer than its start.
    await walked(at(N - 5), at(N));
  });
});
