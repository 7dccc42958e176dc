import { ENDPOINTS } from '@pyb/contracts';
import { openRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'open-round',
  ENDPOINTS['open-round'],
  ({ context, actor, params, body }) => openRound(useCases(context), actor, { ...params, ...body }),
);
