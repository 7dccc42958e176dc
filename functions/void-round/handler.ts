import { ENDPOINTS } from '@pyb/contracts';
import { voidRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { queueOf } from '../src/queue';

export const handler = httpHandler(
  'void-round',
  ENDPOINTS['void-round'],
  ({ context, actor, params, body }) =>
    voidRound(useCases(context, undefined, queueOf(context)), actor, { ...params, ...body }),
);
