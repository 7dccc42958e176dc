import { openSessionContract } from '@pyb/contracts';
import { openSession } from '@pyb/core';
import { httpHandler } from '../src/http';
import { openSessionRoute } from '../src/routes';
import { liveConnectionOf, sessionsOf } from '../src/sessions';

export const handler = httpHandler(openSessionRoute, openSessionContract, async ({ context, body }) => {
  const session = await openSession(sessionsOf(context), body);
  return { ...session, live: liveConnectionOf(context, session.player) };
});
