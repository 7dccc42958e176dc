import { EmptyBody } from '../common';
import type { EndpointContract } from '../endpoint-contract';
import {
  Launch,
  LaunchParams,
  LaunchRequest,
  PlayerRevocation,
  RefreshRequest,
  Session,
  SessionEnded,
  SessionRequest,
} from '../sessions';

/** The endpoint contracts of the Sessions tag: player launch, tokens, logout, revocation (one export per endpoint: endpoint-contract.ts). */

export const launchPlayerContract = {
  tag: 'Sessions',
  problems: ['TABLE_NOT_FOUND', 'INVALID_INPUT'],
  summary: "A launch URL for one player (the operator's server)",
  description:
    "A single-use launch token for the player (60 s), optionally for one table and currency, and the game page's URL carrying it. Send the player's browser there: it exchanges the token once (POST /v1/sessions). Call it from your server: the answer is a credential of the player. Keyed by the Idempotency-Key (a replay answers the same token).",
  params: LaunchParams,
  body: LaunchRequest,
  response: Launch,
  status: 201,
} satisfies EndpointContract;

export const openSessionContract = {
  tag: 'Sessions',
  problems: ['LAUNCH_TOKEN_INVALID', 'LAUNCH_TOKEN_EXPIRED', 'LAUNCH_TOKEN_USED', 'TOKEN_REVOKED'],
  summary: 'Exchange a launch token for an access token and a refresh token (the browser)',
  description:
    "No API key: the launch token is the credential, spent by this call (a second exchange is 401 LAUNCH_TOKEN_USED). The access token (a JWT, 5 minutes) is the player's credential on the routes that admit player tokens; the player id is the token's, never the request's. The refresh token (single use) gets the next pair. No Idempotency-Key: the launch token is used once.",
  body: SessionRequest,
  response: Session,
  status: 201,
} satisfies EndpointContract;

export const refreshSessionContract = {
  tag: 'Sessions',
  problems: ['REFRESH_TOKEN_INVALID', 'REFRESH_TOKEN_USED', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'],
  summary: 'Spend a refresh token for a new access token and refresh token',
  description:
    'The refresh token is single use: the answer carries the next one. A refresh token presented again after it was spent ends the session (401 REFRESH_TOKEN_USED: it was copied). A session lasts at most 12 hours from its launch. No Idempotency-Key: the refresh token is used once.',
  body: RefreshRequest,
  response: Session,
  status: 200,
} satisfies EndpointContract;

export const endSessionContract = {
  tag: 'Sessions',
  problems: [],
  summary: "Log out: end the player token's session",
  description:
    "With the player's access token: its session ends at once (its access token and refresh token are refused from now on). No Idempotency-Key.",
  body: EmptyBody,
  response: SessionEnded,
  status: 200,
} satisfies EndpointContract;

export const revokePlayerSessionsContract = {
  tag: 'Sessions',
  problems: ['INVALID_INPUT'],
  summary: "End every session of a player (the operator's server: logout, self-exclusion)",
  description:
    'Every access token, refresh token and launch token of the player issued until now is refused from now on, on every route. A self-exclusion or cooling-off set with POST /v1/wallets/{playerId}/responsible-gaming does this by itself. Keyed by the Idempotency-Key.',
  params: LaunchParams,
  body: EmptyBody,
  response: PlayerRevocation,
  status: 200,
} satisfies EndpointContract;
