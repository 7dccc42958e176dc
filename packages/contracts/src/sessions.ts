import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { Currency, Timestamp } from './common';
import { PlayerId, ResourceId } from './ids';

/*
 * Player sessions (docs/api.md, "Player sessions"): the operator's server asks for a launch token for one
 * player, the player's browser exchanges it once for a short access token and a refresh token.
 */

/** Opaque single-use tokens: a prefix and 32 random bytes in base64url (only their SHA-256 is stored). */
export const LAUNCH_TOKEN_PATTERN = /^pyl_[A-Za-z0-9_-]{43}$/;
/** A refresh token names its session: `pyr_<sessionId>.<secret>` (22 and 43 base64url characters). */
export const REFRESH_TOKEN_PATTERN = /^pyr_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

export const PlayerScope = /* @__PURE__ */ lazily(() =>
  z
    .object({
      operatorId: z.string(),
      playerId: z.string(),
      tableId: z.string().optional(),
      currency: z.string().optional(),
    })
    .meta({
      id: 'PlayerScope',
      description:
        'Whom a player token acts for: one player of one operator; with `tableId`, that table only; with `currency`, bets in that currency only.',
    }),
);

export const LaunchParams = /* @__PURE__ */ lazily(() => z.strictObject({ playerId: PlayerId() }));

export const LaunchRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      tableId: ResourceId().optional().meta({ description: 'Only this table (one of yours).' }),
      currency: Currency().optional().meta({ description: 'Only bets in this currency.' }),
    })
    .meta({ id: 'LaunchRequest' }),
);

export const Launch = /* @__PURE__ */ lazily(() =>
  z
    .object({
      launchUrl: z.string().meta({
        description:
          'Where to send the player: the game page, the launch token in its fragment (never sent to a server).',
      }),
      launchToken: z.string().regex(LAUNCH_TOKEN_PATTERN),
      expiresAt: Timestamp(),
      player: PlayerScope(),
    })
    .meta({ id: 'Launch' }),
);

export const SessionRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      launchToken: z.string().regex(LAUNCH_TOKEN_PATTERN, 'a launch token: pyl_ and 43 base64url characters'),
    })
    .meta({ id: 'SessionRequest' }),
);

export const RefreshRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      refreshToken: z.string().regex(REFRESH_TOKEN_PATTERN, 'a refresh token: pyr_<session id>.<secret>'),
    })
    .meta({ id: 'RefreshRequest' }),
);

/** The push channel of a session (docs/api.md, "Live events"): MQTT over WebSockets, the access token as the password. */
export const LiveConnection = /* @__PURE__ */ lazily(() =>
  z
    .object({
      url: z.string().meta({
        description:
          "The WebSocket URL, or a path on the game page's own origin (`/live`): connect there with MQTT 3.1.1 or 5, any username, the access token as the password; reconnect with the refreshed token.",
        example: '/live',
      }),
      tableTopic: z.string().nullable().meta({
        description:
          "The table's topic (null: the token names no table; use pyb/v1/{operatorId}/tables/{tableId}).",
      }),
      playerTopic: z.string().meta({ description: "The player's own topic: his bets, payouts and balance." }),
    })
    .meta({ id: 'LiveConnection' }),
);

export const Session = /* @__PURE__ */ lazily(() =>
  z
    .object({
      sessionId: z.string(),
      tokenType: z.literal('Bearer'),
      accessToken: z.string().meta({
        description: 'A JWT (ES256): send it as `Authorization: Bearer <accessToken>` until `expiresAt`.',
      }),
      expiresAt: Timestamp(),
      refreshToken: z.string().regex(REFRESH_TOKEN_PATTERN).meta({
        description:
          'Single use: POST /v1/sessions/refresh spends it for a new pair. A spent one used again ends the session.',
      }),
      refreshExpiresAt: Timestamp(),
      player: PlayerScope(),
      live: LiveConnection().nullable().meta({
        description:
          'Where the browser receives live events; null: none are pushed here (read GET /v1/tables/{tableId}/live).',
      }),
    })
    .meta({ id: 'Session' }),
);

export const SessionEnded = /* @__PURE__ */ lazily(() =>
  z.object({ sessionId: z.string(), endedAt: Timestamp() }).meta({ id: 'SessionEnded' }),
);

export const PlayerRevocation = /* @__PURE__ */ lazily(() =>
  z.object({ operatorId: z.string(), playerId: z.string(), revokedBefore: Timestamp() }).meta({
    id: 'PlayerRevocation',
    description: 'Every session of the player begun before `revokedBefore` is refused from now on.',
  }),
);
