import { launchPlayerContract } from '@pyb/contracts';
import { launchPlayer } from '@pyb/core';
import { httpHandler } from '../src/http';
import { launchPlayerRoute } from '../src/routes';
import { launchUrlOf, sessionsOf } from '../src/sessions';

export const handler = httpHandler(
  launchPlayerRoute,
  launchPlayerContract,
  ({ context, actor, params, body }) =>
    launchPlayer({ ...sessionsOf(context), store: context.store, launchUrl: launchUrlOf(context) }, actor, {
      ...params,
      ...body,
    }),
);
