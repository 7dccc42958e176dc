/**
 * The live topics and who may subscribe to them: the one rule the IoT custom authorizer (as a policy)
 * and the local aedes broker (as its hooks) both apply. A player's token lets him subscribe to the
 * table it names (or, naming none, to his own operator's tables) and to his own topic; never to
 * another player's, never to another operator's, and nobody's browser may publish.
 */
import { PLAYER_ID_PATTERN, RESOURCE_ID_PATTERN } from '@pyb/contracts';
import type { Actor } from '../shared';

export const LIVE_ROOT = 'pyb/v1';

export const tableTopic = (operatorId: string, tableId: string): string =>
  `${LIVE_ROOT}/${operatorId}/tables/${tableId}`;
export const playerTopic = (operatorId: string, playerId: string): string =>
  `${LIVE_ROOT}/${operatorId}/players/${playerId}`;

/** What a player token grants on the broker. */
export interface LiveGrant {
  operatorId: string;
  playerId: string;
  /** The token's table; absent: any table of the operator. */
  tableId?: string;
}

/** The grant of an authenticated caller: players only (operators' servers read the REST feed). */
export function liveGrant(actor: Actor): LiveGrant | undefined {
  if (actor.role !== 'player' || !actor.player) return undefined;
  return {
    operatorId: actor.operatorId,
    playerId: actor.player.playerId,
    ...(actor.player.tableId !== undefined && { tableId: actor.player.tableId }),
  };
}

/**
 * May the grant subscribe to this topic filter? Exact topics only: a wildcard (`+`, `#`) would reach
 * other players' topics, so it is refused even where it would match only allowed ones.
 */
export function maySubscribe(grant: LiveGrant, filter: string): boolean {
  if (filter === playerTopic(grant.operatorId, grant.playerId)) return true;
  const prefix = `${LIVE_ROOT}/${grant.operatorId}/tables/`;
  if (!filter.startsWith(prefix)) return false;
  const tableId = filter.slice(prefix.length);
  if (!RESOURCE_ID_PATTERN.test(tableId)) return false;
  return grant.tableId === undefined || grant.tableId === tableId;
}

/** Browsers never publish: only the platform's functions do (IAM, not a token). */
export const mayPublish = (_grant: LiveGrant, _topic: string): boolean => false;

/**
 * The topic patterns of the grant, as an IoT policy names them (a resource may end in `*`; ids never
 * hold `/`, `+` or `#`, and `*` of an IoT resource never crosses into another operator's prefix).
 */
export function grantTopics(grant: LiveGrant): { table: string; player: string } {
  if (!PLAYER_ID_PATTERN.test(grant.playerId)) throw new Error('not a player id');
  return {
    table:
      grant.tableId === undefined
        ? tableTopic(grant.operatorId, '*')
        : tableTopic(grant.operatorId, grant.tableId),
    player: playerTopic(grant.operatorId, grant.playerId),
  };
}
