import { contributeSeedContract } from '@pyb/contracts';
import { contributeSeed } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { contributeSeedRoute } from '../src/routes';
import { rotationStamperOf } from '../src/time-stamps';

// Signs the contributor's receipt (the head after his seed): the key service, Sign only.
export const handler = httpHandler(
  contributeSeedRoute,
  contributeSeedContract,
  ({ context, actor, params, body }) =>
    contributeSeed(useCases(context, keysOf(context), { timeStamper: rotationStamperOf(context) }), actor, {
      ...params,
      ...body,
    }),
);
