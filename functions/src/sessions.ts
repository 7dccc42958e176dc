import { type Actor, authenticatePlayer, playerTopic, type SessionDeps, tableTopic } from '@pyb/core';
import { tokenSignerFromEnv } from '@pyb/keys';
import { DynamoSessionStore } from '@pyb/store-dynamodb';
import type { AppContext } from './context';

/**
 * Players' sessions on this container: the sessions table and the player-token key (KMS when
 * TOKEN_KEY_ID is set, else the local key in LOCAL_KEYS_DIR: @pyb/keys player-tokens.ts), built on
 * first use. Only the routes that admit player tokens or issue them reach this module.
 */
export function sessionsOf(context: AppContext): SessionDeps {
  context.sessions ??= new DynamoSessionStore(context.doc, context.tables.sessions);
  context.tokens ??= tokenSignerFromEnv(context.env);
  return { sessions: context.sessions, tokens: context.tokens, clock: context.clock };
}

/** Where a launch URL sends the player: the game page (LAUNCH_URL), the site's own game client (`/play`) by default. */
export const launchUrlOf = (context: AppContext): string => context.env.LAUNCH_URL ?? '/play';

/** The Actor of a player access token (http.ts loads this module on a player token's first request). */
export const playerActor = (context: AppContext, token: string): Promise<Actor> =>
  authenticatePlayer(sessionsOf(context), token);

/**
 * Where a session's browser receives live events (LIVE_BROWSER_URL: the dev stack's `/live`, or the
 * IoT Core WebSocket URL a deployment puts beside the pages), with the topics its token may subscribe
 * to; null when the deployment names none (the page then reads GET /v1/tables/{tableId}/live).
 */
export function liveConnectionOf(
  context: AppContext,
  player: { operatorId: string; playerId: string; tableId?: string | undefined },
): { url: string; tableTopic: string | null; playerTopic: string } | null {
  const url = context.env.LIVE_BROWSER_URL;
  if (!url) return null;
  return {
    url,
    tableTopic: player.tableId === undefined ? null : tableTopic(player.operatorId, player.tableId),
    playerTopic: playerTopic(player.operatorId, player.playerId),
  };
}
