import { endSessionContract } from '@pyb/contracts';
import { endSession } from '@pyb/core';
import { httpHandler } from '../src/http';
import { endSessionRoute } from '../src/routes';
import { sessionsOf } from '../src/sessions';

export const handler = httpHandler(endSessionRoute, endSessionContract, ({ context, actor }) =>
  endSession(sessionsOf(context), actor),
);
