import { refreshSessionContract } from '@pyb/contracts';
import { refreshSession } from '@pyb/core';
import { httpHandler } from '../src/http';
import { refreshSessionRoute } from '../src/routes';
import { sessionsOf } from '../src/sessions';

export const handler = httpHandler(refreshSessionRoute, refreshSessionContract, ({ context, body }) =>
  refreshSession(sessionsOf(context), body),
);
