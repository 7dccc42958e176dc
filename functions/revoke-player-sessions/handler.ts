import { revokePlayerSessionsContract } from '@pyb/contracts';
import { revokePlayerSessions } from '@pyb/core';
import { httpHandler } from '../src/http';
import { revokePlayerSessionsRoute } from '../src/routes';
import { sessionsOf } from '../src/sessions';

export const handler = httpHandler(
  revokePlayerSessionsRoute,
  revokePlayerSessionsContract,
  ({ context, actor, params }) => revokePlayerSessions(sessionsOf(context), actor, params),
);
