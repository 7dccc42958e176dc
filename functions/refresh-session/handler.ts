import { refreshSessionContract } from '@pyb/contracts';
import { refreshSession } from '@pyb/core';
import { httpHandler } from '../src/http';
import { refreshSessionRoute } from '../src/routes';
import { liveConnectionOf, sessionsOf } from '../src/sessions';

export const handler = httpHandler(refreshSessionRoute, refreshSessionContract, async ({ context, body }) => {
  const session = await refreshSession(sessionsOf(context), body);
  return { ...session, live: liveConnectionOf(context, session.player) };
});
