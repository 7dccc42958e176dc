/** The one subscribe rule of the live topics (the IoT authorizer's policy and aedes' hooks both use it). */
import { describe, expect, it } from 'vitest';
import { liveGrant, mayPublish, maySubscribe, playerTopic, stakedTotals, tableTopic } from '../src/index';

const player = (tableId?: string) => ({
  operatorId: 'op-1',
  role: 'player' as const,
  supervises: [],
  player: { playerId: 'lia', sessionId: 's1', ...(tableId && { tableId }) },
});

describe('maySubscribe', () => {
  it("a token naming a table: that table's topic and his own, nothing else", () => {
    const grant = liveGrant(player('t1'))!;
    expect(maySubscribe(grant, tableTopic('op-1', 't1'))).toBe(true);
    expect(maySubscribe(grant, playerTopic('op-1', 'lia'))).toBe(true);
    expect(maySubscribe(grant, tableTopic('op-1', 't2'))).toBe(false);
    expect(maySubscribe(grant, playerTopic('op-1', 'bo'))).toBe(false);
    expect(maySubscribe(grant, tableTopic('op-2', 't1'))).toBe(false);
    expect(maySubscribe(grant, playerTopic('op-2', 'lia'))).toBe(false);
  });

  it("a token naming no table: any of his operator's tables, never a wildcard", () => {
    const grant = liveGrant(player())!;
    expect(maySubscribe(grant, tableTopic('op-1', 't9'))).toBe(true);
    for (const filter of [
      'pyb/v1/op-1/tables/+',
      'pyb/v1/op-1/tables/#',
      'pyb/v1/op-1/players/+',
      '#',
      'pyb/v1/op-1/tables/t1/x',
    ])
      expect(maySubscribe(grant, filter)).toBe(false);
  });

  it('operators and admins get no broker grant; nobody publishes from a browser', () => {
    expect(liveGrant({ operatorId: 'op-1', role: 'operator', supervises: [] })).toBeUndefined();
    expect(mayPublish(liveGrant(player('t1'))!, tableTopic('op-1', 't1'))).toBe(false);
  });
});

describe('stakedTotals', () => {
  it('sums the stakes per bet type (no player named)', () => {
    expect(
      stakedTotals([
        { bets: { PLAYER: 500, TIE: 100 }, stake: 600 },
        { bets: { PLAYER: 1000 }, stake: 1000 },
        { bets: {}, stake: 0 }, // withdrew everything before no va más
      ]),
    ).toEqual({ positions: 2, stake: 1600, bets: { PLAYER: 1500, TIE: 100 } });
  });
});
