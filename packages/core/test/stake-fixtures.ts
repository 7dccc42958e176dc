/**
 * What the stake-source tests share: a round, a position and a context whose Store answers reads from
 * the items given. The sources build the parts of a position's transaction and commit nothing, so a
 * read-only Store is all they can touch here; their transactions are committed on the real Stores by
 * the integration files (hot-wallet, seamless, seamless-withdraw, fan-out, test/model/money).
 */
import { betList, playCoup, settle, type TableConfig, tablePreset } from '@pyb/engine';
import type { StakeMoney } from '../src/rounds/stake-source';
import type { Ctx } from '../src/shared';
import type { PositionRecord, RoundRecord } from '../src/shared/model';

export const AT = '2030-01-02T03:04:05.000Z';
export const CONFIG = tablePreset('full');

/** Punto 5+4 = 9 (a natural) against Banca T+J = 0: Punto wins (cards dealt P, B, P, B). */
export const PUNTO_WINS = playCoup([4, 9, 3, 10]);

export const round: RoundRecord = {
  roundId: 'r-1',
  tableId: 't-1',
  shoeId: 's-1',
  operatorId: 'op-1',
  number: 1,
  status: 'DEALT',
  seats: 7,
  gates: 1,
  tableRound: 1,
  openedAt: AT,
  voidReason: 'MISDEAL',
  audit: { opened: 1 },
};

export const position = (over: Partial<PositionRecord> = {}): PositionRecord => ({
  roundId: round.roundId,
  playerId: 'p-1',
  operatorId: round.operatorId,
  tableId: round.tableId,
  shoeId: round.shoeId,
  openedAt: AT,
  bets: { PLAYER: 100 },
  stake: 100,
  reserve: 0,
  seat: null,
  calls: 1,
  firstSeq: 2,
  lastSeq: 2,
  createdAt: AT,
  updatedAt: AT,
  ...over,
});

/** A context whose Store holds `items` (by entity) for reads, and records what is sent to the outbox. */
export function readOnlyCtx(items: Record<string, unknown>, over: Partial<Ctx> = {}) {
  const reads: string[] = [];
  const sent: string[][] = [];
  const ctx = {
    store: {
      get: async (entity: string) => {
        reads.push(entity);
        return items[entity];
      },
    },
    configs: new Map(),
    now: () => AT,
    outbox: { send: async (txIds: string[]) => void sent.push([...txIds]) },
    metrics: { count: () => {} },
    ...over,
  } as unknown as Ctx;
  return { ctx, reads, sent };
}

/** What a source moves to pay a position settled on Punto's win (the fixtures' round, at AT). */
export const partsOnPuntoWin = (
  source: StakeMoney,
  ctx: Ctx,
  p: PositionRecord,
  config: TableConfig = CONFIG,
) =>
  source.settlementParts(ctx, {
    round,
    position: p,
    config,
    settlement: settle(config, betList(p.bets), PUNTO_WINS),
    at: AT,
  });
