import { type Actor, DomainError } from '@pyb/core';
import { describe, expect, it } from 'vitest';
import { demoStatus } from '../src/status';

/**
 * `./scripts/dev`'s start message reads the demo's day (GGR, the feed, a player's history): after a day
 * of use the day's feed passes the on-demand bound (FEED_TOO_LARGE) — the start must not depend on it.
 */
const admin: Actor = { operatorId: 'demo', role: 'admin', supervises: [] };
const core = {
  getWallet: async (_a: Actor, { playerId }: { playerId: string }) => ({ playerId, balance: 100_000 }),
  ggrReport: async () => ({ rows: [{ tableId: 'tbl_1', rounds: 7 }] }),
  playerHistory: async () => {
    throw new DomainError('UNPROCESSABLE', 'HISTORY_TOO_LARGE', 'ask for a shorter or more recent range');
  },
  getTable: async () => ({ tableId: 'tbl_1', lock: null, openRoundId: 'rnd_1' }),
} as unknown as Parameters<typeof demoStatus>[0]['core'];

describe('the dev start message', () => {
  it("says in its place that the day's feed is too large to show, and shows every other part (a start never depends on the day's data)", async () => {
    const status = await demoStatus({
      core,
      feed: async () => {
        throw new DomainError(
          'UNPROCESSABLE',
          'FEED_TOO_LARGE',
          'the range holds more than 5242880 bytes of records: ask for a shorter range or read the daily files',
        );
      },
      admin,
      operatorId: 'demo',
      tableId: 'tbl_1',
      players: ['player-1'],
      now: new Date('2026-12-02T23:59:59.999Z'),
    });
    expect(status).toContain(
      "(the day's feed could not be read now — FEED_TOO_LARGE: the range holds more than",
    );
    expect(status).toContain("(the player's history could not be read now — HISTORY_TOO_LARGE");
    expect(status).toContain('Wallets (EUR, minor units): player-1 100000.');
    expect(status).toContain('{"tableId":"tbl_1","rounds":7}');
    expect(status).toContain('ggr?date=$(date -u +%F)');
    expect(status).toContain('Round rnd_1 is still in play');
  });
});
