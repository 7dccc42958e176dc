import { ENDPOINTS } from '@pyb/contracts';
import { voidRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'void-round',
  ENDPOINTS['void-round'],
  ({ context, actor, params, body }) => voidRound(useCases(context), actor, { ...params, ...body }),
);
