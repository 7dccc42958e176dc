import { ENDPOINTS } from '@pyb/contracts';
import { voidRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { queueOf } from '../src/queue';

export const handler = httpHandler(
  'void-round',
  ENDPOINTS['void-round'],
  // Signs the round head after ROUND_VOIDED (the receipt in the answer), or hands refunds to the queue.
  ({ context, actor, params, body }) =>
    voidRound(useCases(context, keysOf(context), { queue: queueOf(context) }), actor, {
      ...params,
      ...body,
    }),
);
