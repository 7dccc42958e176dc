import { openSessionContract } from '@pyb/contracts';
import { openSession } from '@pyb/core';
import { httpHandler } from '../src/http';
import { openSessionRoute } from '../src/routes';
import { sessionsOf } from '../src/sessions';

export const handler = httpHandler(openSessionRoute, openSessionContract, ({ context, body }) =>
  openSession(sessionsOf(context), body),
);
